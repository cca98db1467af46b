import { describe, expect, test } from "bun:test";
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { buildAdapters, type ToolCaller } from "../../../../src/mcp/runtime/adapters.ts";

const calls: Array<{ tool: string; args: Record<string, unknown>; timeoutMs: number }> = [];
const caller: ToolCaller = {
  async callTool(tool, args, options) {
    calls.push({ tool, args, timeoutMs: options.timeoutMs });
    return { content: [{ type: "text", text: "y".repeat(3000) }] };
  },
};

const tools: McpTool[] = [
  { name: "plain.tool", description: "Does a thing", inputSchema: { type: "object", properties: { q: { type: "string" } } }, annotations: { readOnlyHint: true } },
  {
    name: "either",
    inputSchema: { type: "object", anyOf: [{ properties: { a: { type: "string" } }, required: ["a"] }, { properties: { b: { type: "string" } } }] } as McpTool["inputSchema"],
    _meta: { "anthropic/alwaysLoad": true, "anthropic/requiresUserInteraction": true, "anthropic/maxResultSizeChars": 2500 },
  },
  { name: "broken", inputSchema: { type: "object", oneOf: [{ type: "string" }] } as McpTool["inputSchema"] },
];

describe("MCP tool adapters", () => {
  const built = buildAdapters({ server: "srv", caller, alwaysLoad: false, timeoutMs: 1234, maxOutputTokens: 100 }, tools, new Set());

  test("names, descriptions, access and origin come from the server's definitions; an unflattenable schema skips only that tool", () => {
    expect(built.tools.map((tool) => ({ name: tool.name, description: tool.description, access: tool.access, origin: tool.origin }))).toEqual([
      { name: "mcp__srv__plain_tool", description: "Does a thing", access: "read", origin: { kind: "mcp", server: "srv", tool: "plain.tool", alwaysLoad: false, requiresUserInteraction: false } },
      {
        name: "mcp__srv__either",
        description: "Pass the parameters of at least one of these groups: (1) a (required); (2) b.",
        access: "exec",
        origin: { kind: "mcp", server: "srv", tool: "either", alwaysLoad: true, requiresUserInteraction: true },
      },
    ]);
    expect(built.tools[1]?.inputSchema).toEqual({ type: "object", properties: { a: { type: "string" }, b: { type: "string" } } });
    expect(built.skipped).toEqual(["tool \"broken\" is not offered: its inputSchema's root oneOf[0] is not a plain object schema, so it cannot be flattened into one object"]);
    expect([...built.realNames]).toEqual([
      ["mcp__srv__plain_tool", "plain.tool"],
      ["mcp__srv__either", "either"],
    ]);
  });

  test("a call goes to the real tool name with the server's timeout; the tool's maxResultSizeChars raises its text limit", async () => {
    const signal = new AbortController().signal;
    const context = { toolUseId: "t", signal, session: undefined as never };
    const first = await built.tools[0]?.run({ q: "x" }, context);
    const second = await built.tools[1]?.run({ a: "1" }, context);
    expect(calls).toEqual([
      { tool: "plain.tool", args: { q: "x" }, timeoutMs: 1234 },
      { tool: "either", args: { a: "1" }, timeoutMs: 1234 },
    ]);
    expect((first?.content as string).indexOf("[Output truncated")).toBe(402);
    expect((second?.content as string).indexOf("[Output truncated")).toBe(2502);
  });

  test("the executor's input check accepts any object and keeps its fields", () => {
    const tool = built.tools[0];
    expect(tool?.input.safeParse({ q: "x", extra: 1 })).toEqual({ success: true, data: { q: "x", extra: 1 } });
    expect(tool?.input.safeParse("nope").success).toBe(false);
  });
});
