import { describe, expect, test } from "bun:test";
import { toApiTool } from "../../../src/app/tool-set.ts";
import { DeferredToolIndex } from "../../../src/mcp/deferral/search.ts";
import { toolSearchTool } from "../../../src/tools/tool-search.ts";
import { ToolError } from "../../../src/util/errors.ts";
import { runTool, tempDir, toolSession } from "../../helpers/tool-session.ts";
import { mcpTool } from "../mcp/deferral/tools.ts";

const tools = [mcpTool("github", "create_issue", "Create an issue."), mcpTool("slack", "send_message", "Send a message to a channel.")];
const session = () => toolSession(tempDir(), { toolSearch: new DeferredToolIndex(tools, new Set(tools.map((tool) => tool.name))) });

describe("ToolSearch", () => {
  test("answers with tool_reference blocks for the matches", async () => {
    const output = await runTool(toolSearchTool, { query: "select:mcp__slack__send_message,mcp__github__create_issue" }, session());
    expect(output).toEqual({
      content: [
        { type: "tool_reference", tool_name: "mcp__slack__send_message" },
        { type: "tool_reference", tool_name: "mcp__github__create_issue" },
      ],
      display: { summary: "Loaded 2 tools: mcp__slack__send_message, mcp__github__create_issue" },
      data: { matches: ["mcp__slack__send_message", "mcp__github__create_issue"], query: "select:mcp__slack__send_message,mcp__github__create_issue" },
    });
  });

  test("passes max_results (default 5) to the search", async () => {
    const asked: Array<[string, number]> = [];
    const spy = toolSession(tempDir(), { toolSearch: { search: (query, max) => (asked.push([query, max]), []) } });
    await runTool(toolSearchTool, { query: "issue" }, spy);
    await runTool(toolSearchTool, { query: "issue", max_results: 2 }, spy);
    expect(asked).toEqual([["issue", 5], ["issue", 2]]);
  });

  test("no match is a plain text answer, not an error", async () => {
    const output = await runTool(toolSearchTool, { query: "weather" }, session());
    expect(output).toEqual({
      content: 'No deferred tool matches "weather". Check the names in the deferred tools reminder, or try other keywords.',
      display: { summary: "No matching tools" },
      data: { matches: [], query: "weather" },
    });
  });

  test("without deferred tools the model is told there is nothing to load", async () => {
    const run = runTool(toolSearchTool, { query: "x" }, toolSession(tempDir()));
    await expect(run).rejects.toThrow(ToolError);
    await expect(run).rejects.toMatchObject({ code: "tool_input", message: "No tools are deferred in this session, so there is nothing to load." });
  });

  test("Claude Code's input schema: query required, max_results an optional number defaulting to 5", () => {
    const api = toApiTool(toolSearchTool);
    expect(api.name).toBe("ToolSearch");
    expect(api.input_schema).toEqual({
      type: "object",
      properties: {
        query: { type: "string", description: 'What to load: "select:<name>[,<name>...]" for tools by name, or keywords to search for' },
        max_results: { type: "number", default: 5, description: "How many tools a keyword search may load (default: 5)" },
      },
      required: ["query"],
    });
    expect(toolSearchTool.access).toBe("read");
    expect(toolSearchTool.input.safeParse({}).success).toBe(false);
  });
});
