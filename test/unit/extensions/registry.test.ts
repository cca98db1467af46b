// Name clashes and lookups (spec A.3, B, C.2; plugins.md §7), over real folders.
import { describe, expect, test } from "bun:test";
import { rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { loadExtensions, loadNested } from "../../../src/extensions/load.ts";
import { discoverSources, nestedSources, pluginSource } from "../../../src/extensions/sources.ts";
import { md, tempDir, writeTree } from "./helpers.ts";

/** A home with a user folder and a repository with a subfolder to start in. */
function workspace(files: Record<string, string>): { base: string; user: string; repo: string; cwd: string } {
  const base = tempDir();
  writeTree(base, files);
  return { base, user: join(base, "home/.clew"), repo: join(base, "repo"), cwd: join(base, "repo/app") };
}

async function load(files: Record<string, string>, plugins: { root: string; name: string }[] = []) {
  const space = workspace(files);
  const sources = [
    ...discoverSources({ cwd: space.cwd, projectRoot: space.repo, userDir: space.user }),
    ...plugins.map((plugin) => pluginSource({ root: join(space.base, plugin.root), name: plugin.name })),
  ];
  return { ...space, registry: await loadExtensions({ sources }) };
}

function winners(items: readonly { name: string; file: string }[], base: string): [string, string][] {
  return items.map((item) => [item.name, item.file.slice(base.length + 1)]);
}

describe("precedence", () => {
  test("skills: user over project; .clew over .claude; nearer folder over the repository root", async () => {
    const { base, registry } = await load({
      "home/.clew/skills/deploy/SKILL.md": md(["description: user"]),
      "repo/app/.claude/skills/deploy/SKILL.md": md(["description: project"]),
      "repo/app/.clew/skills/lint/SKILL.md": md(["description: clew folder"]),
      "repo/app/.claude/skills/lint/SKILL.md": md(["description: claude folder"]),
      "repo/.clew/skills/lint/SKILL.md": md(["description: repository root"]),
      "repo/.claude/skills/only-root/SKILL.md": md(["description: root"]),
    });
    expect(winners(registry.invocables, base)).toEqual([
      ["deploy", "home/.clew/skills/deploy/SKILL.md"],
      ["lint", "repo/app/.clew/skills/lint/SKILL.md"],
      ["only-root", "repo/.claude/skills/only-root/SKILL.md"],
    ]);
    expect(registry.problems).toEqual([
      { code: "shadowed", severity: "info", file: join(base, "repo/app/.claude/skills/deploy/SKILL.md"), message: `skill "deploy" is also defined by ${join(base, "home/.clew/skills/deploy/SKILL.md")}, which takes precedence (user over project); this one is not used.` },
      { code: "shadowed", severity: "info", file: join(base, "repo/app/.claude/skills/lint/SKILL.md"), message: `skill "lint" is also defined by ${join(base, "repo/app/.clew/skills/lint/SKILL.md")}, which takes precedence (its folder is searched first); this one is not used.` },
      { code: "shadowed", severity: "info", file: join(base, "repo/.clew/skills/lint/SKILL.md"), message: expect.stringContaining(`skill "lint" is also defined by ${join(base, "repo/app/.clew/skills/lint/SKILL.md")}`) },
    ]);
  });

  test("a skill beats a command of the same name; the command is reported as replaced", async () => {
    const { base, registry } = await load({
      "repo/app/.claude/commands/deploy.md": md(["description: command"]),
      "repo/app/.claude/skills/deploy/SKILL.md": md(["description: skill"]),
    });
    expect(winners(registry.invocables, base)).toEqual([["deploy", "repo/app/.claude/skills/deploy/SKILL.md"]]);
    expect(registry.commands).toEqual([]);
    expect(registry.problems.map(({ code, severity, message }) => ({ code, severity, message }))).toEqual([
      { code: "shadowed", severity: "info", message: expect.stringContaining("(a skill beats a command of the same name); this one is not used.") },
    ]);
  });

  test("two commands with one file name in different subfolders: the first keeps the name, the other answers to its qualified name", async () => {
    const { base, registry } = await load({
      "repo/app/.claude/commands/backend/test.md": md(["description: backend tests"]),
      "repo/app/.claude/commands/frontend/test.md": md(["description: frontend tests"]),
    });
    expect(winners(registry.invocables, base)).toEqual([["test", "repo/app/.claude/commands/backend/test.md"]]);
    expect(registry.findInvocable("frontend:test")?.description).toBe("frontend tests");
    expect(registry.findInvocable("backend:test")?.description).toBe("backend tests");
    expect(registry.problems.map(({ code, message }) => ({ code, message }))).toEqual([
      { code: "duplicate-name", message: expect.stringContaining(`this one is still available as "frontend:test". Rename one of them.`) },
    ]);
  });

  test("agents: project over user; a user agent over a plugin agent's bare name, the plugin one stays addressable", async () => {
    const { base, registry } = await load({
      "home/.clew/agents/reviewer.md": md(["name: reviewer", "description: user"]),
      "repo/.claude/agents/reviewer.md": md(["name: reviewer", "description: project"]),
      "home/.clew/agents/helper.md": md(["name: helper", "description: user helper"]),
      "plugins/acme/agents/helper.md": md(["name: helper", "description: plugin helper"]),
    }, [{ root: "plugins/acme", name: "acme" }]);
    expect(winners(registry.agents, base)).toEqual([
      ["acme:helper", "plugins/acme/agents/helper.md"],
      ["helper", "home/.clew/agents/helper.md"],
      ["reviewer", "repo/.claude/agents/reviewer.md"],
    ]);
    expect(registry.findAgent("helper")?.description).toBe("user helper");
    expect(registry.findAgent("acme:helper")?.description).toBe("plugin helper");
    expect(registry.problems.map(({ code, file }) => [code, file.slice(base.length + 1)])).toEqual([["shadowed", "home/.clew/agents/reviewer.md"]]);
  });

  test("plugin items never clash with local ones; a bare plugin name works when no local item has it", async () => {
    const { registry } = await load({
      "repo/app/.claude/skills/review/SKILL.md": md(["description: local review"]),
      "plugins/acme/skills/review/SKILL.md": md(["name: review", "description: acme review"]),
      "plugins/acme/skills/scan-dir/SKILL.md": md(["name: fancy-scan", "description: acme scan"]),
      "plugins/acme/commands/ops/deploy.md": md(["description: acme deploy"]),
      "plugins/acme/skills/unity-scene/SKILL.md": md(["name: Unity Scene Optimizer", "description: spaces in the name"]),
    }, [{ root: "plugins/acme", name: "acme" }]);
    expect(registry.invocables.map(({ name, displayName, aliases, label }) => ({ name, displayName, aliases, label }))).toEqual([
      { name: "acme:fancy-scan", displayName: "fancy-scan", aliases: ["acme:scan-dir"], label: "plugin:acme" },
      { name: "acme:ops:deploy", displayName: "acme:ops:deploy", aliases: [], label: "plugin:acme:ops" },
      { name: "acme:review", displayName: "review", aliases: [], label: "plugin:acme" },
      { name: "acme:unity-scene", displayName: "Unity Scene Optimizer", aliases: [], label: "plugin:acme" },
      { name: "review", displayName: "review", aliases: [], label: "project" },
    ]);
    expect(registry.findInvocable("review")?.description).toBe("local review");
    expect(registry.findInvocable("/acme:review")?.description).toBe("acme review");
    expect(registry.findInvocable("fancy-scan")?.name).toBe("acme:fancy-scan");
    expect(registry.findInvocable("acme:scan-dir")?.name).toBe("acme:fancy-scan");
    expect(registry.findInvocable("ACME:REVIEW")?.name).toBe("acme:review");
    expect(registry.findInvocable("nothing")).toBeUndefined();
    expect(registry.problems).toEqual([]);
  });

  test("a skill folder linked twice loads once", async () => {
    const space = workspace({ "shared/tidy/SKILL.md": md(["description: tidy"]) });
    const skills = join(space.cwd, ".claude/skills");
    writeTree(skills, { "keep.txt": "" });
    symlinkSync(join(space.base, "shared/tidy"), join(skills, "tidy"));
    symlinkSync(join(space.base, "shared/tidy"), join(skills, "tidy-again"));
    const registry = await loadExtensions({ sources: discoverSources({ cwd: space.cwd, projectRoot: space.repo, userDir: space.user }) });
    expect(registry.invocables.map((item) => item.name)).toEqual(["tidy"]);
  });
});

describe("invocation checks", () => {
  test("user-invocable: false hides a skill from /name; disable-model-invocation refuses the Skill tool", async () => {
    const { registry } = await load({
      "repo/app/.claude/skills/bg/SKILL.md": md(["description: background knowledge", "user-invocable: false"]),
      "repo/app/.claude/skills/ship/SKILL.md": md(["description: ships", "disable-model-invocation: true"]),
    });
    expect(registry.resolveInvocation("/bg", "user")).toEqual({ ok: false, code: "not-user-invocable", message: expect.stringContaining("/bg can only be used by the model") });
    expect(registry.resolveInvocation("bg", "model")).toMatchObject({ ok: true, item: { name: "bg" }, variants: [] });
    expect(registry.resolveInvocation("ship", "model")).toEqual({ ok: false, code: "not-model-invocable", message: expect.stringContaining(`Skill "ship" can only be run by the user, as /ship`) });
    expect(registry.resolveInvocation("/ship", "user")).toMatchObject({ ok: true, item: { name: "ship" } });
    expect(registry.resolveInvocation("/nope", "user")).toEqual({ ok: false, code: "not-found", message: `There is no skill or command named "nope".` });
  });
});

describe("nested folders", () => {
  test("loaded when a file below them is touched; a clashing name stays available qualified, and is listed as a variant", async () => {
    const space = workspace({
      "repo/.claude/skills/deploy/SKILL.md": md(["description: root deploy"]),
      "repo/apps/web/.claude/skills/deploy/SKILL.md": md(["description: web deploy"]),
      "repo/apps/web/.claude/skills/web-only/SKILL.md": md(["description: web only"]),
      "repo/apps/web/src/index.ts": "",
    });
    const cache = join(space.base, "cache");
    const base = await loadExtensions({ sources: discoverSources({ cwd: space.repo, projectRoot: space.repo, userDir: space.user }), cacheDir: cache });
    const nested = nestedSources(space.repo, "apps/web/src/index.ts");
    const registry = await loadNested(base, nested, cache);
    expect(registry.invocables.map(({ name, label }) => [name, label])).toEqual([
      ["apps/web:deploy", "project:apps/web"],
      ["deploy", "project"],
      ["web-only", "project:apps/web"],
    ]);
    expect(registry.findInvocable("web-only")?.aliases).toEqual(["apps/web:web-only"]);
    expect(registry.resolveInvocation("deploy", "user")).toMatchObject({ ok: true, item: { description: "root deploy" }, variants: [{ name: "apps/web:deploy" }] });
    expect(await loadNested(registry, nested, cache)).toBe(registry);
  });
});

describe("bodies", () => {
  test("read on demand without the frontmatter; a file gone since start-up is a problem, not a throw", async () => {
    const { registry } = await load({ "repo/app/.claude/skills/a/SKILL.md": md(["description: a"], "\n\nStep one.\nStep two.\n") });
    const [skill] = registry.invocables;
    if (!skill) throw new Error("no skill");
    expect(await registry.loadBody(skill)).toEqual({ ok: true, body: "Step one.\nStep two.\n" });
    rmSync(skill.file);
    expect(await registry.loadBody(skill)).toEqual({ ok: false, problem: { code: "unreadable", severity: "error", file: skill.file, message: expect.stringContaining("cannot read this file any more (ENOENT)") } });
  });
});
