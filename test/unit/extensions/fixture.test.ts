// test/fixtures/extensions: one example per rule, loaded the way clew will load a real project
// (user + project folders + one plugin), with the exact problem list `clew doctor` would print.
import { describe, expect, test } from "bun:test";
import { join, resolve } from "node:path";
import { skillCatalogue } from "../../../src/extensions/catalogue.ts";
import { loadExtensions } from "../../../src/extensions/load.ts";
import { formatExtensionProblem } from "../../../src/extensions/problems.ts";
import { discoverSources, pluginSource } from "../../../src/extensions/sources.ts";
import { tempDir } from "./helpers.ts";

const FIXTURE = resolve(import.meta.dir, "../../fixtures/extensions");

async function fixtureRegistry() {
  const sources = [
    ...discoverSources({ cwd: join(FIXTURE, "project"), userDir: join(tempDir(), ".clew") }),
    pluginSource({ root: join(FIXTURE, "acme"), name: "acme" }),
  ];
  return loadExtensions({ sources, cacheDir: join(tempDir(), "cache") });
}

describe("fixture project", () => {
  test("what loads", async () => {
    const registry = await fixtureRegistry();
    expect(registry.invocables.map(({ kind, name, label }) => `${kind} ${name} (${label})`)).toEqual([
      "command acme:ops:deploy (plugin:acme:ops)",
      "skill acme:review (plugin:acme)",
      "skill bare (project)",
      "skill broken-yaml (project)",
      "command component (project:frontend)",
      "skill deploy (project)",
      "skill unclosed (project)",
      "skill wrong-types (project)",
    ]);
    expect(registry.agents.map((agent) => `${agent.name}: ${agent.description}`)).toEqual(["acme:helper: Agent from acme plugin", "reviewer: Reviews changes. Use proactively."]);
    expect(registry.findInvocable("deploy")?.file).toBe(join(FIXTURE, "project/.clew/skills/deploy/SKILL.md"));
    expect(registry.skillsDirPlugins).toEqual([join(FIXTURE, "project/.claude/skills/tools-plugin")]);
  });

  test("every problem once, with file, line and what to do", async () => {
    const registry = await fixtureRegistry();
    const lines = registry.problems.map((problem) => formatExtensionProblem(problem).replace(`${FIXTURE}/`, ""));
    expect(lines).toEqual([
      "project/.claude/skills/tools-plugin/.claude-plugin/plugin.json: info: this folder is a plugin, not a skill; it is loaded as a plugin (\"<name>@skills-dir\") with its own skills, commands and agents.",
      "project/.claude/agents/notes.md: warning: agent file has no \"name\" field, so it is read as documentation, not an agent; it is skipped. Add \"name: <lowercase-with-hyphens>\" and \"description: …\" to the frontmatter to use it.",
      "project/.claude/skills/bare/SKILL.md:1: info: SKILL.md has no frontmatter; the skill is named after its folder and described by its first paragraph. Start the file with \"---\", \"name: …\", \"description: …\", \"---\" to describe it to the model.",
      "project/.claude/skills/broken-yaml/SKILL.md:3: warning: frontmatter is not valid YAML (incomplete explicit mapping pair; a key node is missed; or followed by a non-tabulated empty line); loaded anyway with name, description read line by line. Quote values that contain \": \" or start with \"[\" or \"\\\"\", e.g. description: \"…\".",
      "project/.claude/skills/unclosed/SKILL.md:1: warning: frontmatter opened with \"---\" on line 1 is never closed, so the whole file is read as the body. Add a \"---\" line after the last field.",
      "project/.claude/skills/wrong-types/SKILL.md:3: warning: \"user-invocable\" must be true or false (yes/no, on/off, 1/0 also work), not \"sometimes\"; using true.",
      "project/.claude/skills/wrong-types/SKILL.md:4: warning: \"effort\" must be one of low, medium, high, xhigh, max, not \"extreme\"; it is ignored.",
      "project/.claude/skills/wrong-types/SKILL.md:5: warning: \"disable_model_invocation\" is not a field and is ignored; did you mean \"disable-model-invocation\"?",
      "acme/agents/helper.md: info: agent has no \"name\" field; it loads as \"helper\" (the file name). Add \"name: …\" to choose its name.",
      `project/.claude/skills/deploy/SKILL.md: info: skill "deploy" is also defined by ${FIXTURE}/project/.clew/skills/deploy/SKILL.md, which takes precedence (its folder is searched first); this one is not used.`,
      `project/.claude/commands/deploy.md: info: command "deploy" is also defined by ${FIXTURE}/project/.clew/skills/deploy/SKILL.md, which takes precedence (a skill beats a command of the same name); this one is not used.`,
    ]);
  });

  test("the catalogue lists the model-invocable items in name order", async () => {
    const registry = await fixtureRegistry();
    expect(skillCatalogue(registry.invocables)).toBe([
      "- acme:ops:deploy: Deploys with acme",
      "- acme:review: Reviews with acme rules",
      "- bare: No frontmatter at all; this paragraph is the description.",
      "- broken-yaml: Use when: the YAML has an unquoted colon",
      "- component: Creates a component",
      "- deploy: Deploys the app (clew folder wins a clash with .claude)",
      "- unclosed: name: unclosed description: never closed",
      "- wrong-types: Fields of the wrong type",
    ].join("\n"));
  });
});
