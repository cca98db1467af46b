// Deferred MCP tools end to end (issue #10): a server with 200 tools pushes their definitions past
// 10% of the window, so they go out with defer_loading; the model loads one with ToolSearch (a
// tool_reference the API expands after the cache breakpoints), calls it, and every request keeps
// the bytes before its predecessor's last breakpoint — tools[] included — exactly as they were.
// Runs the compiled binary, with the server configured through --mcp-config.
import { afterEach, describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import {
  canonicalJson,
  deferredToolNames,
  lastUserReminders,
  reply,
  startFakeAnthropic,
  toolNames,
  toolReferences,
  toolResults,
  tokensOfText,
  type FakeServer,
  type Json,
  type JsonObject,
} from "../fake-anthropic/index.ts";
import { toolNames as fixtureToolNames } from "../fixtures/mcp/two-hundred-tools.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";

const FIXTURE = resolve(import.meta.dir, "../fixtures/mcp/two-hundred-tools.ts");
const WANTED = "mcp__fleet__shipments_get_2";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The prompt as the cache sees it: one canonical string per block (deferred tools included, as sent). */
function promptBlocks(body: JsonObject): { blocks: string[]; lastBreakpoint: number } {
  const blocks: string[] = [];
  let lastBreakpoint = -1;
  const add = (block: Json | undefined) => {
    blocks.push(canonicalJson(block));
    const control = block && typeof block === "object" && !Array.isArray(block) ? block.cache_control : undefined;
    if (control) lastBreakpoint = blocks.length - 1;
  };
  for (const tool of (body.tools as Json[]) ?? []) add(tool);
  for (const block of (body.system as Json[]) ?? []) add(block);
  for (const message of (body.messages as JsonObject[]) ?? []) {
    for (const block of typeof message.content === "string" ? [{ type: "text", text: message.content }] : (message.content as Json[])) add(block);
    blocks.push(`--${String(message.role)}--`);
  }
  return { blocks, lastBreakpoint };
}

describe("scenario: deferred MCP tools and ToolSearch", () => {
  test("200 MCP tools are deferred, ToolSearch loads one, the prefix before the last breakpoint never changes", async () => {
    const dir = tempDirectory("clew-tool-search-");
    server = await startFakeAnthropic({
      script: [
        reply().toolUse("ToolSearch", { query: `select:${WANTED}` }),
        reply().toolUse(WANTED, { id: "A1", note: "checked" }),
        reply().text("Shipment A1 is fine."),
      ],
    });
    const mcpConfig = JSON.stringify({ mcpServers: { fleet: { command: "bun", args: [FIXTURE] } } });
    const run = await runClew(["-p", "check shipment A1", "--mcp-config", mcpConfig, "--permission-mode", "bypassPermissions"], {
      cwd: dir,
      baseURL: server.url,
      configDir: tempDirectory("clew-config-"),
      env: { CLEW_CONTEXT_WINDOW: "200000" },
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe("Shipment A1 is fine.");
    expect(server.violations).toEqual([]);
    const requests = server.requests.filter((request) => request.endpoint === "messages");
    expect(requests).toHaveLength(3);
    const [first, second, third] = requests;
    if (!first || !second || !third) throw new Error("three requests expected");

    // Every MCP definition is sent, deferred; ToolSearch and the built-ins are not.
    const expected = fixtureToolNames().map((name) => `mcp__fleet__${name}`);
    expect(deferredToolNames(first)).toEqual(expected);
    expect(toolNames(first)).toContain("ToolSearch");
    expect(first.headers["anthropic-beta"]?.split(",")).toContain("advanced-tool-use-2025-11-20");

    // The catalogue is a reminder in the first user message, not part of the system prompt.
    const reminders = lastUserReminders(first).join("\n");
    for (const name of expected) expect(reminders).toContain(`\n${name}`);
    expect(JSON.stringify(first.body.system)).not.toContain("mcp__fleet__");
    expect(lastUserReminders(second).join("\n")).not.toContain("mcp__fleet__orders_get_1");

    // ToolSearch answered with a tool_reference; the call to the loaded tool ran on the server.
    expect(toolReferences(second)).toEqual([WANTED]);
    expect(toolResults(third).map((result) => result.text)).toEqual(["shipments_get_2 A1 (checked): ok"]);

    // tools[] is byte-identical on every request, and so is everything up to each predecessor's last breakpoint.
    expect(canonicalJson(second.body.tools)).toBe(canonicalJson(first.body.tools));
    expect(canonicalJson(third.body.tools)).toBe(canonicalJson(first.body.tools));
    for (let i = 1; i < requests.length; i++) {
      const before = promptBlocks(requests[i - 1]?.body as JsonObject);
      const after = promptBlocks(requests[i]?.body as JsonObject);
      expect(after.blocks.slice(0, before.lastBreakpoint + 1)).toEqual(before.blocks.slice(0, before.lastBreakpoint + 1));
      expect(requests[i]?.cache?.cacheReadInputTokens).toBeGreaterThan(0);
    }
    // Deferred definitions are not billed until loaded: the first request costs less than the 200 schemas alone.
    const deferredTokens = (first.body.tools as JsonObject[]).filter((tool) => tool.defer_loading === true).reduce((sum, tool) => sum + tokensOfText(canonicalJson(tool)), 0);
    expect(first.cache?.totalTokens).toBeLessThan(deferredTokens);
  });
});
