// The built-in tools' API definitions are computed at build time by a macro; they must be exactly
// what zod derives from the tools' schemas at run time, or the model would be told a different
// schema than the one its calls are validated against.
import { describe, expect, test } from "bun:test";
import { inputJsonSchema } from "../../../src/app/input-schema.ts";
import { builtinTools, selectTools, toApiTool } from "../../../src/app/tool-set.ts";
import { defineTool } from "../../../src/tools/types.ts";
import { lazySchema } from "../../../src/util/lazy-schema.ts";

describe("tool API definitions", () => {
  test("every built-in's precomputed input_schema equals the one derived from its zod schema now", () => {
    for (const tool of builtinTools) {
      expect(toApiTool(tool)).toEqual({ name: tool.name, description: tool.description.trim(), input_schema: inputJsonSchema(tool) });
    }
    expect(builtinTools.map((tool) => tool.name)).toEqual(["Bash", "BashOutput", "KillShell", "Glob", "Grep", "Read", "Edit", "Write", "NotebookEdit", "WebFetch", "WebSearch", "TodoWrite", "Skill", "Agent", "SendMessage"]);
  });

  test("a tool that is not a built-in gets its schema derived at run time, without $schema", () => {
    const input = lazySchema((z) => z.object({ query: z.string().describe("What to look up") }));
    const lookup = defineTool({
      name: "mcp__docs__lookup",
      description: " Looks a term up. ",
      get input() {
        return input();
      },
      access: "network",
      subject: (args) => args.query,
      run: async (args) => ({ content: args.query }),
    });
    expect(toApiTool(lookup)).toEqual({
      name: "mcp__docs__lookup",
      description: "Looks a term up.",
      input_schema: {
        type: "object",
        properties: { query: { type: "string", description: "What to look up" } },
        required: ["query"],
      },
    });
  });

  test("--tools narrows the set and names unknown tools", () => {
    const { tools, unknown } = selectTools(builtinTools, ["Read", "Nope"], []);
    expect({ tools: tools.map((tool) => tool.name), unknown }).toEqual({ tools: ["Read"], unknown: ["Nope"] });
  });
});
