// What a file becomes: every frontmatter field of spec A.2 (skills), B (commands) and C.3 (agents),
// with the lenient readings real files need.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { loadExtensions } from "../../../src/extensions/load.ts";
import { discoverSources, pluginSource } from "../../../src/extensions/sources.ts";
import type { ComponentSource } from "../../../src/extensions/types.ts";
import { md, tempDir, writeTree } from "./helpers.ts";

function projectSource(root: string): ComponentSource {
  return discoverSources({ cwd: root, userDir: join(root, "no-user") }).find((source) => source.root === join(root, ".claude")) as ComponentSource;
}

describe("skills", () => {
  test("every A.2 field, normalised", async () => {
    const root = tempDir();
    writeTree(root, {
      ".claude/skills/deploy/SKILL.md": md([
        "name: Deploy Helper",
        "description: Deploys the app",
        "when_to_use: when the user says ship",
        "argument-hint: [env]",
        "arguments: env region",
        "disable-model-invocation: yes",
        "user-invocable: On",
        "allowed-tools: Bash(git add *) Bash(git commit *), Read",
        "disallowed-tools: [Task, WebFetch]",
        "model: sonnet",
        "effort: high",
        "context: fork",
        "agent: Explore",
        "background: no",
        "hooks:",
        "  PostToolUse:",
        "    - matcher: Edit",
        "      hooks: [{ type: command, command: ./fmt.sh }]",
        "paths: src/**/*.ts, test/**",
        "shell: powershell",
        "metadata: { owner: ops }",
        "license: MIT",
        "compatibility: needs git",
        "version: 1.2.0",
      ], "Deploy steps.\n"),
    });
    const registry = await loadExtensions({ sources: [projectSource(root)] });
    const source = projectSource(root);
    expect(registry.invocables).toEqual([{
      kind: "skill",
      name: "deploy",
      displayName: "Deploy Helper",
      declaredName: "Deploy Helper",
      description: "Deploys the app",
      descriptionFrom: "frontmatter",
      whenToUse: "when the user says ship",
      argumentHint: "[env]",
      argumentNames: ["env", "region"],
      modelInvocable: false,
      userInvocable: true,
      allowedTools: ["Bash(git add *)", "Bash(git commit *)", "Read"],
      disallowedTools: ["Agent", "WebFetch"],
      model: "sonnet",
      effort: "high",
      context: "fork",
      agent: "Explore",
      background: false,
      hooks: { PostToolUse: [{ matcher: "Edit", hooks: [{ type: "command", command: "./fmt.sh" }] }] },
      paths: ["src/**/*.ts", "test/**"],
      shell: "powershell",
      metadata: { owner: "ops" },
      license: "MIT",
      compatibility: "needs git",
      source,
      file: join(root, ".claude/skills/deploy/SKILL.md"),
      dir: join(root, ".claude/skills/deploy"),
      id: "deploy",
      aliases: [],
      label: "project",
      problems: [],
    }]);
  });

  test("without frontmatter: named after the folder, described by the first paragraph (headings skipped)", async () => {
    const root = tempDir();
    writeTree(root, { ".claude/skills/value-plan/SKILL.md": "# Value Creation Plan\n\nStructure post-acquisition plans\nwith levers.\n\n## Workflow\n" });
    const [skill] = (await loadExtensions({ sources: [projectSource(root)] })).invocables;
    expect(skill).toMatchObject({ name: "value-plan", displayName: "value-plan", description: "Structure post-acquisition plans with levers.", descriptionFrom: "body" });
    expect(skill?.problems).toEqual([{ code: "no-frontmatter", severity: "info", file: join(root, ".claude/skills/value-plan/SKILL.md"), line: 1, message: expect.stringContaining("named after its folder") }]);
  });

  test("a description found only past the first 4 KB of a long body is still read", async () => {
    const root = tempDir();
    writeTree(root, { ".claude/skills/long/SKILL.md": md(["name: long"], `# T\n\n<!-- ${"x".repeat(5000)} -->\n\nThe real description.\n`) });
    const [skill] = (await loadExtensions({ sources: [projectSource(root)] })).invocables;
    expect(skill?.description).toBe("The real description.");
  });

  test("frontmatter longer than 4 KB is read whole", async () => {
    const root = tempDir();
    writeTree(root, { ".claude/skills/big/SKILL.md": md([`description: ${"word ".repeat(1200).trim()}`, "model: haiku"], "body") });
    const [skill] = (await loadExtensions({ sources: [projectSource(root)] })).invocables;
    expect([skill?.description.length, skill?.model, skill?.problems.map((problem) => problem.code)]).toEqual([5999, "haiku", ["description-long"]]);
  });

  test("wrong field types are reported once each with their line; the skill and its neighbours still load", async () => {
    const root = tempDir();
    writeTree(root, {
      ".claude/skills/bad/SKILL.md": md(["description: ok", "user-invocable: sometimes", "effort: extreme", "metadata: just text", "disable_model_invocation: true"]),
      ".claude/skills/good/SKILL.md": md(["description: fine"]),
    });
    const registry = await loadExtensions({ sources: [projectSource(root)] });
    expect(registry.invocables.map((item) => [item.name, item.userInvocable, item.modelInvocable, item.effort])).toEqual([["bad", true, true, undefined], ["good", true, true, undefined]]);
    const file = join(root, ".claude/skills/bad/SKILL.md");
    expect(registry.problems.map(({ file: at, line, field, code }) => ({ at, line, field, code }))).toEqual([
      { at: file, line: 3, field: "user-invocable", code: "invalid-field" },
      { at: file, line: 4, field: "effort", code: "invalid-field" },
      { at: file, line: 5, field: "metadata", code: "invalid-field" },
      { at: file, line: 6, field: "disable_model_invocation", code: "misspelled-field" },
    ]);
  });

  test("a folder named synced is reserved; a folder holding .claude-plugin/plugin.json is a plugin, not a skill", async () => {
    const root = tempDir();
    writeTree(root, {
      ".claude/skills/Synced/SKILL.md": md(["description: from claude.ai"]),
      ".claude/skills/tools/.claude-plugin/plugin.json": "{\"name\": \"tools\"}",
      ".claude/skills/real/SKILL.md": md(["description: real"]),
    });
    const registry = await loadExtensions({ sources: [projectSource(root)] });
    expect(registry.invocables.map((item) => item.name)).toEqual(["real"]);
    expect(registry.skillsDirPlugins).toEqual([join(root, ".claude/skills/tools")]);
    expect(registry.problems.map((problem) => [problem.code, problem.file])).toEqual([["skills-dir-plugin", join(root, ".claude/skills/tools/.claude-plugin/plugin.json")]]);
  });
});

describe("commands", () => {
  test("named after the file; name and paths are ignored; the first paragraph describes a command without description", async () => {
    const root = tempDir();
    writeTree(root, {
      ".claude/commands/review-pr.md": md(["name: ignored", "argument-hint: [pr-number] [priority]", "paths: src/**", "allowed-tools: Bash(gh pr view:*)"], "\nReview the pull request $0.\n"),
    });
    const [command] = (await loadExtensions({ sources: [projectSource(root)] })).invocables;
    expect(command).toMatchObject({
      kind: "command",
      name: "review-pr",
      displayName: "review-pr",
      declaredName: undefined,
      description: "Review the pull request $0.",
      descriptionFrom: "body",
      argumentHint: "[pr-number] [priority]",
      allowedTools: ["Bash(gh pr view:*)"],
      paths: [],
      label: "project",
    });
    expect(command?.problems.map((problem) => [problem.code, problem.field])).toEqual([["yaml-error", undefined], ["ignored-field", "paths"]]);
  });

  test("a command in a subfolder keeps its file name, answers to sub:name, and is labelled with the folder", async () => {
    const root = tempDir();
    writeTree(root, { ".claude/commands/frontend/component.md": md(["description: Make a component"]) });
    const registry = await loadExtensions({ sources: [projectSource(root)] });
    expect(registry.invocables.map(({ name, id, aliases, label }) => ({ name, id, aliases, label }))).toEqual([
      { name: "component", id: "frontend:component", aliases: ["frontend:component"], label: "project:frontend" },
    ]);
    expect(registry.findInvocable("/frontend:component")?.id).toBe("frontend:component");
    expect(registry.findInvocable("component")?.id).toBe("frontend:component");
  });

  test("a folder with SKILL.md inside commands/ is one command in skill format", async () => {
    const root = tempDir();
    writeTree(root, { ".claude/commands/release/SKILL.md": md(["description: Cut a release"]), ".claude/commands/release/notes.md": "not a command" });
    const registry = await loadExtensions({ sources: [projectSource(root)] });
    expect(registry.invocables.map(({ kind, name, dir }) => ({ kind, name, dir }))).toEqual([{ kind: "command", name: "release", dir: join(root, ".claude/commands/release") }]);
  });
});

describe("agents", () => {
  test("every C.3 field; tools as a comma string with legacy names", async () => {
    const root = tempDir();
    writeTree(root, {
      ".claude/agents/review/migration-reviewer.md": md([
        "name: migration-reviewer",
        "description: Reviews migrations. Use proactively.",
        "tools: Read, Grep, Glob, Bash, Task(Explore), MultiEdit",
        "disallowedTools: [WebFetch]",
        "model: sonnet",
        "permissionMode: manual",
        "maxTurns: 12",
        "skills: [db-conventions]",
        "mcpServers: [github, { local: { command: ./srv } }]",
        "hooks: { Stop: [] }",
        "memory: project",
        "background: yes",
        "effort: max",
        "isolation: worktree",
        "color: magenta",
        "initialPrompt: /review",
      ], "You review SQL migrations.\n"),
    });
    const source = projectSource(root);
    const registry = await loadExtensions({ sources: [source] });
    expect(registry.agents).toEqual([{
      name: "migration-reviewer",
      declaredName: "migration-reviewer",
      description: "Reviews migrations. Use proactively.",
      tools: ["Read", "Grep", "Glob", "Bash", "Agent(Explore)", "Edit"],
      disallowedTools: ["WebFetch"],
      model: "sonnet",
      permissionMode: "default",
      maxTurns: 12,
      skills: ["db-conventions"],
      mcpServers: [{ name: "github" }, { name: "local", config: { command: "./srv" } }],
      hooks: { Stop: [] },
      memory: "project",
      background: true,
      effort: "max",
      isolation: "worktree",
      color: "magenta",
      initialPrompt: "/review",
      source,
      file: join(root, ".claude/agents/review/migration-reviewer.md"),
      id: "review:migration-reviewer",
      aliases: [],
      label: "project:review",
      problems: [],
    }]);
    expect(await registry.loadBody(registry.agents[0] as never)).toEqual({ ok: true, body: "You review SQL migrations.\n" });
  });

  test("user/project files without name or description are skipped and said so; model inherit means no model", async () => {
    const root = tempDir();
    writeTree(root, {
      ".claude/agents/README.md": "# Our agents\n",
      ".claude/agents/half.md": md(["name: half"]),
      ".claude/agents/colon.md": md(["name: a:b", "description: x"]),
      ".claude/agents/ok.md": md(["name: ok", "description: fine", "model: inherit", "tools: [Read, Grep]"]),
    });
    const registry = await loadExtensions({ sources: [projectSource(root)] });
    expect(registry.agents.map(({ name, model, tools }) => ({ name, model, tools }))).toEqual([{ name: "ok", model: undefined, tools: ["Read", "Grep"] }]);
    expect(registry.problems.map((problem) => [problem.code, problem.field, problem.file.slice(root.length)])).toEqual([
      ["agent-skipped", "name", "/.claude/agents/README.md"],
      ["agent-skipped", "name", "/.claude/agents/colon.md"],
      ["agent-skipped", "description", "/.claude/agents/half.md"],
    ]);
  });

  test("plugin agents: named plugin:sub:name, file name when name is missing, placeholder description, no hooks/mcpServers/permissionMode", async () => {
    const root = tempDir();
    writeTree(root, {
      "agents/review/security.md": md(["name: security", "description: Checks auth", "permissionMode: bypassPermissions", "hooks: { Stop: [] }", "mcpServers: [db]"]),
      "agents/helper.md": "You help.\n",
    });
    const registry = await loadExtensions({ sources: [pluginSource({ root, name: "acme" })] });
    expect(registry.agents.map(({ name, description, permissionMode, hooks, mcpServers }) => ({ name, description, permissionMode, hooks, mcpServers }))).toEqual([
      { name: "acme:helper", description: "Agent from acme plugin", permissionMode: undefined, hooks: undefined, mcpServers: [] },
      { name: "acme:review:security", description: "Checks auth", permissionMode: undefined, hooks: undefined, mcpServers: [] },
    ]);
    expect(registry.problems.map((problem) => [problem.code, problem.field])).toEqual([
      ["agent-no-name", "name"],
      ["ignored-field", "permissionMode"],
      ["ignored-field", "hooks"],
      ["ignored-field", "mcpServers"],
    ]);
    expect(registry.findAgent("security")?.name).toBe("acme:review:security");
  });
});
