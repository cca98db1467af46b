import { describe, expect, test } from "bun:test";
import { toApiTool } from "../../../../src/app/tool-set.ts";
import { applyDeferral, TOOL_SEARCH_BETA, withBetaHeader } from "../../../../src/mcp/deferral/apply.ts";
import { markDeferred, resolveReferences } from "../../../../src/mcp/deferral/mark.ts";
import { toolSearchTool } from "../../../../src/tools/tool-search.ts";
import { builtin, manyTools, mcpTool } from "./tools.ts";

const read = builtin("Read");
const x = mcpTool("a", "x", "X does x.");
const y = mcpTool("a", "y", "Y does y.");

describe("markDeferred", () => {
  test("flags exactly the deferred definitions and leaves the others byte-identical", () => {
    const api = [read, x, y].map(toApiTool);
    const marked = markDeferred(api, new Set([y.name]));
    expect(marked).toEqual([api[0], api[1], { ...api[2], defer_loading: true }] as typeof marked);
    expect(marked[0]).toBe(api[0] as (typeof marked)[number]);
    expect(JSON.stringify(marked[1])).toBe(JSON.stringify(api[1]));
  });
});

describe("resolveReferences", () => {
  const history = [
    { role: "user", content: "hi" },
    { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "ToolSearch", input: { query: "x" } }] },
    {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "t1", content: [{ type: "tool_reference", tool_name: x.name }, { type: "tool_reference", tool_name: "mcp__gone__z" }] },
        { type: "text", text: "more" },
      ],
    },
  ];

  test("references to tools still deferred are kept; others become a line of text", () => {
    const out: unknown = resolveReferences(history, new Set([x.name]));
    expect(out).toEqual([
      history[0],
      history[1],
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: "t1",
            content: [{ type: "tool_reference", tool_name: x.name }, { type: "text", text: "(The tool mcp__gone__z is no longer available.)" }],
          },
          { type: "text", text: "more" },
        ],
      },
    ]);
    // The stored history is not touched.
    expect((history[2]?.content as Array<{ content?: unknown }>)[0]?.content).toHaveLength(2);
  });

  test("returns the same array when every reference resolves", () => {
    expect(resolveReferences(history, new Set([x.name, "mcp__gone__z"]))).toBe(history);
  });
});

describe("applyDeferral", () => {
  const big = manyTools("big", 200);
  const input = {
    tools: [read, toolSearchTool, ...big],
    toolSearchTool,
    toApiTool,
    setting: undefined,
    windowTokens: 200_000,
    toolSearchDenied: false,
    betasDisabled: false,
    instructions: { big: "The big server keeps records." },
  };

  test("on: ToolSearch sits after the built-ins, MCP definitions are flagged, the port finds them, the beta is named", () => {
    const applied = applyDeferral({ ...input, tools: [read, ...big] });
    expect(applied.plan.enabled).toBe(true);
    expect(applied.tools.map((tool) => tool.name).slice(0, 3)).toEqual(["Read", "ToolSearch", "mcp__big__tool_0"]);
    expect(applied.apiTools).toHaveLength(202);
    expect(applied.apiTools.filter((tool) => tool.defer_loading === true).map((tool) => tool.name)).toEqual(big.map((tool) => tool.name));
    expect(applied.apiTools[1] as unknown).toEqual(toApiTool(toolSearchTool));
    expect(applied.betas).toEqual([TOOL_SEARCH_BETA]);
    expect(applied.toolSearch?.search("select:mcp__big__tool_7", 5)).toEqual(["mcp__big__tool_7"]);
    expect(applied.reminder).toStartWith("These tools are deferred:");
    expect(applied.reminder).toContain("\nmcp__big__tool_199\n\nInstructions from MCP server big:\nThe big server keeps records.");
  });

  test("off: ToolSearch is left out even when given, nothing is flagged, no beta, no port, no reminder", () => {
    const applied = applyDeferral({ ...input, setting: "false" });
    expect(applied.tools.map((tool) => tool.name)).not.toContain("ToolSearch");
    expect(applied.apiTools as unknown).toEqual([read, ...big].map(toApiTool));
    expect(applied.betas).toEqual([]);
    expect(applied.toolSearch).toBeUndefined();
    expect(applied.reminder).toBeUndefined();
    // History from a session that had tool search: the references go out as text.
    const messages = [{ role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: [{ type: "tool_reference", tool_name: "mcp__big__tool_1" }] }] }];
    expect(applied.prepare(messages) as unknown).toEqual([
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: [{ type: "text", text: "(The tool mcp__big__tool_1 is no longer available.)" }] }] },
    ]);
  });

  test("refresh keeps the decision: new MCP tools defer too, the reminder names the change, prepare follows", () => {
    const applied = applyDeferral(input);
    const added = mcpTool("late", "arrival", "Arrived after start-up.");
    const next = applied.refresh([read, ...big.slice(1), added], { late: "Late server." });
    expect(next.tools.map((tool) => tool.name).at(-1)).toBe("mcp__late__arrival");
    expect(next.apiTools.at(-1) as unknown).toEqual({ ...toApiTool(added), defer_loading: true });
    expect(next.reminder).toBe(
      [
        "More deferred tools are available through ToolSearch (schemas not loaded; load them before calling):",
        "mcp__late__arrival",
        "",
        "Instructions from MCP server late:",
        "Late server.",
        "",
        "These deferred tools are no longer available; do not call them:",
        "mcp__big__tool_0",
      ].join("\n"),
    );
    expect(applied.toolSearch?.search("select:mcp__late__arrival,mcp__big__tool_0", 5)).toEqual(["mcp__late__arrival"]);
    const messages = [{ role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: [{ type: "tool_reference", tool_name: "mcp__big__tool_0" }] }] }];
    expect(applied.prepare(messages)).not.toBe(messages);
    expect(applied.refresh([read, ...big.slice(1), added]).reminder).toBeUndefined();
    applied.forgetAnnouncements();
    expect(applied.refresh([read, ...big.slice(1), added]).reminder).toStartWith("These tools are deferred:");
  });
});

describe("withBetaHeader", () => {
  test("adds to an existing anthropic-beta header, whatever its case, without repeating", () => {
    expect(withBetaHeader({ "user-agent": "clew" }, [TOOL_SEARCH_BETA])).toEqual({ "user-agent": "clew", "anthropic-beta": TOOL_SEARCH_BETA });
    expect(withBetaHeader({ "Anthropic-Beta": "other-2025-01-01" }, [TOOL_SEARCH_BETA])).toEqual({ "Anthropic-Beta": `other-2025-01-01,${TOOL_SEARCH_BETA}` });
    expect(withBetaHeader({ "anthropic-beta": TOOL_SEARCH_BETA }, [TOOL_SEARCH_BETA])).toEqual({ "anthropic-beta": TOOL_SEARCH_BETA });
    expect(withBetaHeader({ a: "b" }, [])).toEqual({ a: "b" });
  });
});
