// The stream-json input parser: every line becomes one typed item or one `invalid` item naming
// the line and the fault, and a stream cut anywhere yields the same items as one written whole.
import { describe, expect, test } from "bun:test";
import { parseInputLine, readInputItems, type InboundItem } from "../../../../src/cli/control/input.ts";
import type { ContentBlockParam } from "../../../../src/model/types.ts";

async function itemsOf(chunks: string[]): Promise<InboundItem[]> {
  async function* source() {
    for (const chunk of chunks) yield new TextEncoder().encode(chunk);
  }
  const items: InboundItem[] = [];
  for await (const item of readInputItems(source())) items.push(item);
  return items;
}

describe("parseInputLine", () => {
  test("a user message with string content, uuid and session id", () => {
    const line = JSON.stringify({ type: "user", message: { role: "user", content: "hello" }, parent_tool_use_id: null, session_id: "s1", uuid: "u1" });
    expect(parseInputLine(line, 4)).toEqual({ kind: "user", line: 4, content: "hello", uuid: "u1", sessionId: "s1" });
  });

  test("content blocks (text and a base64 image) pass through; an empty session id is no session id", () => {
    const blocks: ContentBlockParam[] = [
      { type: "text", text: "what is this?" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
    ];
    const line = JSON.stringify({ type: "user", session_id: "", message: { role: "user", content: blocks }, parent_tool_use_id: null });
    expect(parseInputLine(line, 1)).toEqual({ kind: "user", line: 1, content: blocks });
  });

  test("control requests, responses, cancels and keep-alives", () => {
    expect(parseInputLine('{"type":"control_request","request_id":"r1","request":{"subtype":"interrupt"}}', 2)).toEqual({ kind: "control_request", line: 2, requestId: "r1", request: { subtype: "interrupt" } });
    expect(parseInputLine('{"type":"control_response","response":{"subtype":"success","request_id":"p1","response":{"behavior":"allow"}}}', 3)).toEqual({ kind: "control_response", line: 3, response: { subtype: "success", request_id: "p1", response: { behavior: "allow" } } });
    expect(parseInputLine('{"type":"control_response","response":{"subtype":"error","request_id":"p2","error":"no"}}', 4)).toEqual({ kind: "control_response", line: 4, response: { subtype: "error", request_id: "p2", error: "no" } });
    expect(parseInputLine('{"type":"control_cancel_request","request_id":"r9"}', 5)).toEqual({ kind: "control_cancel_request", line: 5, requestId: "r9" });
    expect(parseInputLine('{"type":"keep_alive"}', 6)).toEqual({ kind: "keep_alive", line: 6 });
  });

  test("a line that is not JSON names its number and the parser's complaint", () => {
    const item = parseInputLine("hello there", 7);
    expect(item).toMatchObject({ kind: "invalid", line: 7 });
    expect((item as { message: string }).message).toStartWith("line 7 of standard input is not JSON (");
  });

  test("JSON that is not an object, an unknown type, a missing type", () => {
    expect(parseInputLine("[1,2]", 1)).toEqual({ kind: "invalid", line: 1, message: "line 1 of standard input is not a JSON object" });
    expect(parseInputLine('{"type":"assistant"}', 2)).toEqual({
      kind: "invalid",
      line: 2,
      message: 'line 2 of standard input has unknown type "assistant"; expected one of user, control_request, control_response, control_cancel_request, keep_alive',
    });
    expect(parseInputLine('{"message":{}}', 3)).toMatchObject({ kind: "invalid", message: expect.stringContaining("line 3 of standard input has no type") });
  });

  test("malformed user messages say which field is wrong", () => {
    expect(parseInputLine('{"type":"user","message":{"role":"assistant","content":"x"}}', 1)).toMatchObject({ kind: "invalid", message: expect.stringContaining("line 1 of standard input (user): message.role") });
    expect(parseInputLine('{"type":"user","message":{"role":"user","content":"  "}}', 2)).toEqual({ kind: "invalid", line: 2, message: "line 2 of standard input (user): message.content is empty" });
    expect(parseInputLine('{"type":"user","message":{"role":"user","content":[]}}', 3)).toEqual({ kind: "invalid", line: 3, message: "line 3 of standard input (user): message.content has no blocks" });
    expect(parseInputLine('{"type":"user","message":{"role":"user","content":[{"type":"text","text":"a"},{"type":"video"}]}}', 4)).toEqual({
      kind: "invalid",
      line: 4,
      message: "line 4 of standard input (user): message.content[1] (video) is not a text, image, document or tool_result block with its required fields",
    });
    expect(parseInputLine('{"type":"control_request","request":{"subtype":"interrupt"}}', 5)).toMatchObject({ kind: "invalid", message: expect.stringContaining("line 5 of standard input (control_request): request_id") });
  });

  test("blank lines are not items", () => {
    expect(parseInputLine("   ", 1)).toBeUndefined();
  });
});

describe("readInputItems", () => {
  const user = JSON.stringify({ type: "user", message: { role: "user", content: "ünïcode ✓" } });
  const interrupt = JSON.stringify({ type: "control_request", request_id: "r1", request: { subtype: "interrupt" } });

  test("lines are numbered as written, blank ones counted, the last one needs no newline", async () => {
    const items = await itemsOf([`${user}\n\n${interrupt}\nnot json\n${user}`]);
    expect(items.map((item) => [item.kind, item.line])).toEqual([["user", 1], ["control_request", 3], ["invalid", 4], ["user", 5]]);
  });

  test("chunks cut inside a line and inside a multi-byte character give the same items", async () => {
    const text = `${user}\n${interrupt}\n`;
    const bytes = new TextEncoder().encode(text);
    async function* byteChunks() {
      for (let at = 0; at < bytes.length; at += 3) yield bytes.slice(at, at + 3);
    }
    const whole = await itemsOf([text]);
    const cut: InboundItem[] = [];
    for await (const item of readInputItems(byteChunks())) cut.push(item);
    expect(cut).toEqual(whole);
    expect(cut[0]).toEqual({ kind: "user", line: 1, content: "ünïcode ✓" });
  });
});
