import { describe, expect, test } from "bun:test";
import { agentsFromJson } from "../../../src/extensions/agents-json.ts";
import { ExtensionRegistry } from "../../../src/extensions/registry.ts";

describe("agentsFromJson (--agents)", () => {
  test("definitions become agents with their prompt inline, ranked above user agents", async () => {
    const loaded = agentsFromJson({ reviewer: { description: "Reviews code", prompt: "You review.", tools: ["Read", "Task"], model: "haiku", maxTurns: 5 } });
    expect(loaded.problems).toEqual([]);
    expect(loaded.agents).toEqual([{
      name: "reviewer",
      declaredName: "reviewer",
      description: "Reviews code",
      tools: ["Read", "Agent"],
      disallowedTools: [],
      model: "haiku",
      maxTurns: 5,
      skills: [],
      mcpServers: [],
      background: false,
      prompt: "You review.",
      source: { scope: "cli", root: "--agents", skills: [], commands: [], agents: [] },
      file: "--agents reviewer",
      id: "reviewer",
      aliases: [],
      label: "cli",
      problems: [],
    }]);
    const registry = new ExtensionRegistry([loaded]);
    const agent = registry.findAgent("reviewer");
    if (!agent) throw new Error("missing");
    expect(await registry.loadBody(agent)).toEqual({ ok: true, body: "You review." });
  });

  test("a definition without prompt or description, or not an object, is skipped and reported; the others load", () => {
    const loaded = agentsFromJson({ ok: { description: "d", prompt: "p" }, noPrompt: { description: "d" }, noDescription: { prompt: "p" }, bad: 3 });
    expect(loaded.agents.map((agent) => agent.name)).toEqual(["ok"]);
    expect(loaded.problems.map(({ code, file, field }) => [code, file, field])).toEqual([
      ["agent-skipped", "--agents noPrompt", "prompt"],
      ["agent-skipped", "--agents noDescription", "description"],
      ["invalid-field", "--agents bad", "bad"],
    ]);
    expect(agentsFromJson([1, 2]).problems.map((problem) => problem.code)).toEqual(["invalid-field"]);
  });
});
