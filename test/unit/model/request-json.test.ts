import { describe, expect, test } from "bun:test";
import { withMessageBreakpoints } from "../../../src/context/cache-points.ts";
import { normalizeMessages } from "../../../src/loop/history.ts";
import { RequestEncoder } from "../../../src/model/request-json.ts";
import type { ApiTool, MessageParam, ModelRequest, TextBlockParam } from "../../../src/model/types.ts";

const system: TextBlockParam[] = [
  { type: "text", text: "You are clew." },
  { type: "text", text: "Project notes: ünïcode — \"quotes\" and \\ backslashes\n", cache_control: { type: "ephemeral" } },
];
const tools: ApiTool[] = [{ name: "Read", description: "Reads a file", input_schema: { type: "object", properties: { file_path: { type: "string" } }, required: ["file_path"] } }];

/** What the SDK's messages.create sends for the same request (its own JSON.stringify). */
function sdkBody(request: ModelRequest): unknown {
  return {
    model: request.model,
    max_tokens: request.maxTokens,
    system: request.system,
    tools: request.tools,
    messages: request.messages,
    stream: true,
    ...(request.thinking ? { thinking: request.thinking } : {}),
    ...(request.effort ? { output_config: { effort: request.effort } } : {}),
  };
}

function request(messages: MessageParam[], extra: Partial<ModelRequest> = {}): ModelRequest {
  return { model: "claude-sonnet-4-6", maxTokens: 32000, system, tools, messages: withMessageBreakpoints(normalizeMessages(messages)), ...extra };
}

describe("RequestEncoder", () => {
  test("a growing conversation encodes to the SDK's JSON, text for text, at every step", () => {
    const encoder = new RequestEncoder();
    const history: MessageParam[] = [{ role: "user", content: "fix the bug" }];
    for (let step = 0; step < 6; step++) {
      const body = request(history);
      const encoded = encoder.encode(body);
      expect(encoded).toBe(JSON.stringify(sdkBody(body)));
      history.push(
        { role: "assistant", content: [{ type: "text", text: `Reading ${step}.` }, { type: "tool_use", id: `toolu_${step}`, name: "Read", input: { file_path: `/src/${step}.ts` } }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: `toolu_${step}`, content: `line ${step}\n\ttabbed\u2028` }] },
      );
    }
  });

  test("an older message replaced by a new object (trimmed results, compaction) is sent as it now is", () => {
    const encoder = new RequestEncoder();
    const history: MessageParam[] = [];
    for (let step = 0; step < 4; step++) {
      history.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `toolu_${step}`, content: "x".repeat(500) }] }, { role: "assistant", content: [{ type: "text", text: `step ${step}` }] });
    }
    history.push({ role: "user", content: "go on" });
    encoder.encode(request(history));
    history[2] = { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "[trimmed]" }] };
    const trimmed = request(history);
    const encoded = encoder.encode(trimmed);
    expect(encoded).toBe(JSON.stringify(sdkBody(trimmed)));
    expect(encoded).toContain("[trimmed]");
  });

  test("thinking and effort are sent after stream, as messages.create orders them", () => {
    const body = request([{ role: "user", content: "hi" }], { thinking: { type: "adaptive" }, effort: "high" });
    const encoded = new RequestEncoder().encode(body);
    expect(encoded).toBe(JSON.stringify(sdkBody(body)));
    expect(Object.keys(JSON.parse(encoded) as object)).toEqual(["model", "max_tokens", "system", "tools", "messages", "stream", "thinking", "output_config"]);
  });

  test("a message given new content, or content pushed in place, is serialized again", () => {
    const encoder = new RequestEncoder();
    const first: MessageParam = { role: "user", content: [{ type: "text", text: "one" }] };
    const history: MessageParam[] = [first, { role: "assistant", content: [{ type: "text", text: "ok" }] }, { role: "user", content: "two" }];
    encoder.encode(request(history));
    (first.content as TextBlockParam[]).push({ type: "text", text: "pushed later" });
    const afterPush = request(history);
    expect(encoder.encode(afterPush)).toBe(JSON.stringify(sdkBody(afterPush)));
    first.content = [{ type: "text", text: "replaced" }];
    const afterReplace = request(history);
    expect(encoder.encode(afterReplace)).toBe(JSON.stringify(sdkBody(afterReplace)));
    expect(encoder.encode(afterReplace)).toContain('"replaced"');
  });

  test("a new tool list or system prompt (an MCP server connected, a model switch) is what goes out", () => {
    const encoder = new RequestEncoder();
    const history: MessageParam[] = [{ role: "user", content: "hi" }];
    encoder.encode(request(history));
    const moreTools: ApiTool[] = [...tools, { name: "mcp__docs__search", description: "Searches docs", input_schema: { type: "object" } }];
    const changed = request(history, { tools: moreTools, system: [{ type: "text", text: "Another prompt" }], model: "claude-opus-4-6" });
    expect(encoder.encode(changed)).toBe(JSON.stringify(sdkBody(changed)));
  });
});
