import { describe, expect, test } from "bun:test";
import { InternalServerError } from "@anthropic-ai/sdk";
import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import {
  estimateInputTokens,
  parseSse,
  reply,
  splitText,
  toSseText,
  toolResults,
  type JsonObject,
} from "../../fake-anthropic/index.ts";
import { fakeServerPerTest, params, sdkClient } from "./sdk.ts";

const start = fakeServerPerTest();

/** How many cuts between pieces fall inside a JSON key, and inside a string value. */
function cutsInsideStrings(pieces: string[]): { inKey: number; inValue: number } {
  const json = pieces.join("");
  const strings: { start: number; end: number; key: boolean }[] = [];
  for (let i = 0; i < json.length; i++) {
    if (json[i] !== '"') continue;
    let end = i + 1;
    while (json[end] !== '"') end += json[end] === "\\" ? 2 : 1;
    strings.push({ start: i, end, key: json.slice(end + 1).trimStart().startsWith(":") });
    i = end;
  }
  const counts = { inKey: 0, inValue: 0 };
  let at = 0;
  for (const piece of pieces.slice(0, -1)) {
    at += piece.length;
    const inside = strings.find((s) => s.start < at && at <= s.end);
    if (inside?.key) counts.inKey += 1;
    else if (inside) counts.inValue += 1;
  }
  return counts;
}

const toolInput = { file_path: "/tmp/dir with space/ünïcode 🎉.ts", limit: 20, flags: { a: [1, "two"], b: null } };

describe("streaming (raw events)", () => {
  test("sends the documented event grammar and round-trips text, tool input and thinking", async () => {
    const scripted = reply().thinking("Let me look at the file first.").text("I'll read it now.").toolUse("Read", toolInput);
    const fake = await start({ script: [scripted] });
    const stream = await sdkClient(fake).messages.create({ ...params(), stream: true });
    const events: RawMessageStreamEvent[] = [];
    for await (const event of stream) events.push(event);

    const start0 = events[0];
    if (start0?.type !== "message_start") throw new Error("first event must be message_start");
    expect(start0.message.id).toStartWith("msg_");
    expect(start0.message.model).toBe("claude-test-1");
    expect(start0.message.content).toEqual([]);
    expect(start0.message.usage.output_tokens).toBe(1);
    const cache = fake.requests[0]?.cache;
    const expected = scripted
      .events({
        model: "claude-test-1",
        messageId: start0.message.id,
        input: { input_tokens: cache?.inputTokens ?? -1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
      })
      .filter((e) => e.type !== "ping");
    expect(events).toEqual(expected as RawMessageStreamEvent[]);
    expect(events.filter((e) => e.type === "content_block_start").length).toBe(3);

    const deltas = (index: number): string[] =>
      events.flatMap((e) => {
        if (e.type !== "content_block_delta" || e.index !== index) return [];
        const d = e.delta;
        if (d.type === "text_delta") return [d.text];
        if (d.type === "thinking_delta") return [d.thinking];
        if (d.type === "input_json_delta") return [d.partial_json];
        if (d.type === "signature_delta") return [`<sig:${d.signature}>`];
        return [];
      });
    const thinking = deltas(0);
    expect(thinking.slice(0, -1).join("")).toBe("Let me look at the file first.");
    expect(thinking.at(-1)).toStartWith("<sig:");
    expect(deltas(1).join("")).toBe("I'll read it now.");
    expect(deltas(1).length).toBeGreaterThan(1);

    const json = deltas(2);
    expect(json[0]).toBe("");
    expect<unknown>(JSON.parse(json.join(""))).toEqual(toolInput);
    // Cut inside a key and inside a string value, as the API does.
    expect(json.length).toBeGreaterThan(5);
    const cuts = cutsInsideStrings(json);
    expect(cuts.inKey).toBeGreaterThan(0);
    expect(cuts.inValue).toBeGreaterThan(0);

    const toolStart = events.find((e) => e.type === "content_block_start" && e.index === 2);
    expect<unknown>(toolStart).toEqual({
      type: "content_block_start",
      index: 2,
      content_block: { type: "tool_use", id: scripted.toolUseIds[0] ?? "", name: "Read", input: {} },
    });
    const delta = events.find((e) => e.type === "message_delta");
    expect<unknown>(delta).toEqual({
      type: "message_delta",
      delta: { stop_reason: "tool_use", stop_sequence: null, stop_details: null },
      usage: {
        output_tokens: scripted.outputTokens,
        input_tokens: fake.requests[0]?.cache?.inputTokens ?? -1,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
      },
    });
    expect(fake.violations).toEqual([]);
  });

  test("pings are on the wire and the SDK skips them", async () => {
    const fake = await start({ script: [reply().text("hello")] });
    const response = await fetch(`${fake.url}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": "k", "anthropic-version": "2023-06-01", "content-type": "application/json" },
      body: JSON.stringify({ ...params(), stream: true }),
    });
    expect(response.headers.get("content-type")).toStartWith("text/event-stream");
    expect(response.headers.get("request-id")).toStartWith("req_");
    const records = parseSse(await response.text());
    expect(records.map((r) => r.event)).toEqual([
      "message_start",
      "content_block_start",
      "ping",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "ping",
      "message_delta",
      "message_stop",
    ]);
    for (const record of records) expect((JSON.parse(record.data) as { type: unknown }).type).toBe(record.event);
  });

  test("wire chunking and pauses between records do not change what the SDK sees", async () => {
    const text = "A longer answer, with punctuation; quotes \" and newlines\n\nand emoji 🎉.";
    const fake = await start({
      script: [reply().text(text).toolUse("Bash", { command: "echo 'hi' && ls" })],
      wireChunkChars: 13,
      eventDelayMs: 0,
    });
    const message = await sdkClient(fake).messages.stream(params()).finalMessage();
    expect<unknown>(message.content).toEqual([
      { type: "text", text },
      { type: "tool_use", id: expect.stringMatching(/^toolu_/), name: "Bash", input: { command: "echo 'hi' && ls" } },
    ]);
  });

  test("a pause between records still streams every event", async () => {
    const fake = await start({ script: [reply().text("slow but steady")], eventDelayMs: 2 });
    const message = await sdkClient(fake).messages.stream(params()).finalMessage();
    expect<unknown>(message.content).toEqual([{ type: "text", text: "slow but steady" }]);
  });
});

describe("SSE text", () => {
  test("toSse() frames each event as `event: <type>` + `data: <json>` and parseSse() reads it back", () => {
    const scripted = reply().text("multi\nline 🎉").toolUse("Read", toolInput);
    const events = scripted.events({ model: "m", messageId: "msg_1" });
    const text = toSseText(events);
    expect(text.startsWith('event: message_start\ndata: {"type":"message_start"')).toBe(true);
    expect(text.endsWith('event: message_stop\ndata: {"type":"message_stop"}\n\n')).toBe(true);
    const parsed = parseSse(text).map((record) => JSON.parse(record.data) as unknown);
    expect(parsed).toEqual(events);
    expect(parseSse(text.replaceAll("\n", "\r\n")).length).toBe(events.length);
    expect(scripted.toSse({ model: "m", messageId: "msg_1" })).toBe(text);
  });

  test("text is cut into several pieces but never inside a character", () => {
    const pieces = splitText("🎉🎉🎉 naïve text with emoji 👩‍💻 and more");
    expect(pieces.length).toBeGreaterThan(3);
    for (const piece of pieces) expect(piece).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
    expect(pieces.join("")).toBe("🎉🎉🎉 naïve text with emoji 👩‍💻 and more");
  });
});

describe("messages.stream() and non-streaming create", () => {
  test("finalMessage() equals the scripted message", async () => {
    const scripted = reply().thinking("plan", "sig-123").redactedThinking("b3BhcXVl").text("Done.").stop("end_turn");
    const fake = await start({ script: [scripted] });
    const message = await sdkClient(fake).messages.stream(params()).finalMessage();
    expect<unknown>(message.content).toEqual([
      { type: "thinking", thinking: "plan", signature: "sig-123" },
      { type: "redacted_thinking", data: "b3BhcXVl" },
      { type: "text", text: "Done." },
    ]);
    expect(message.stop_reason).toBe("end_turn");
    expect(message.usage.output_tokens).toBe(scripted.outputTokens);
  });

  test("non-streaming create returns the JSON Message with the same content", async () => {
    const scripted = reply().text("Two tools:").toolUse("Read", toolInput).toolUse("Bash", { command: "pwd" });
    const fake = await start({ script: [scripted] });
    const { data, response, request_id } = await sdkClient(fake).messages.create(params()).withResponse();
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(request_id).toBe("req_fake0000000000000001");
    expect<unknown>(data.content).toEqual([
      { type: "text", text: "Two tools:" },
      { type: "tool_use", id: scripted.toolUseIds[0] ?? "", name: "Read", input: toolInput },
      { type: "tool_use", id: scripted.toolUseIds[1] ?? "", name: "Bash", input: { command: "pwd" } },
    ]);
    expect(data.stop_reason).toBe("tool_use");
    expect(new Set(scripted.toolUseIds).size).toBe(2);
    expect(fake.requests[0]?.stream).toBe(false);
  });

  test("stop reason, stop sequence and usage overrides are honoured", async () => {
    const fake = await start({
      script: [reply().text("cut").stop("stop_sequence", { sequence: "###" }).usage({ input_tokens: 7, output_tokens: 3, cache_read_input_tokens: 100 })],
    });
    const message = await sdkClient(fake).messages.stream(params()).finalMessage();
    expect(message.stop_reason).toBe("stop_sequence");
    expect(message.stop_sequence).toBe("###");
    expect(message.usage).toMatchObject({ input_tokens: 7, output_tokens: 3, cache_read_input_tokens: 100, cache_creation_input_tokens: 0 });
  });

  test("the beta client and the ?beta=true query are served too", async () => {
    const fake = await start({ script: [reply().text("beta ok"), reply().text("query ok")] });
    const message = await sdkClient(fake).beta.messages.create(params());
    expect<unknown>(message.content).toEqual([{ type: "text", text: "beta ok" }]);
    // Older SDKs post beta calls to /v1/messages?beta=true; 1.14 uses the plain path.
    const response = await fetch(`${fake.url}/v1/messages?beta=true`, {
      method: "POST",
      headers: { "x-api-key": "k", "anthropic-version": "2023-06-01", "content-type": "application/json" },
      body: JSON.stringify(params()),
    });
    expect<unknown>(((await response.json()) as { content: unknown }).content).toEqual([{ type: "text", text: "query ok" }]);
    expect(fake.requests.map((r) => [r.path, r.query])).toEqual([
      ["/v1/messages", {}],
      ["/v1/messages", { beta: "true" }],
    ]);
    expect(fake.violations).toEqual([]);
  });
});

describe("recording and the script", () => {
  test("records body, headers, auth kind and times", async () => {
    const fake = await start({ script: [reply().text("a"), reply().text("b")] });
    // SDK 1.14 sends apiKey as "Authorization: Bearer"; x-api-key is what curl-style clients send.
    await fetch(`${fake.url}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": "k", "anthropic-version": "2023-06-01", "content-type": "application/json" },
      body: JSON.stringify(params()),
    });
    await sdkClient(fake).messages.create({ ...params(), stream: true });
    const [first, second] = fake.requests;
    expect(first).toMatchObject({ n: 1, endpoint: "messages", method: "POST", auth: "x-api-key", stream: false, step: 0, violations: [] });
    expect<unknown>(first?.body).toEqual({ ...params() });
    expect(first?.headers["anthropic-version"]).toBe("2023-06-01");
    expect(second).toMatchObject({ n: 2, auth: "bearer", stream: true, step: 1, violations: [] });
    expect(second?.headers.authorization).toBe("Bearer test");
    for (const r of fake.requests) expect(r.answeredAt).toBeGreaterThanOrEqual(r.receivedAt);
    expect(fake.answerMs()).toBeGreaterThanOrEqual(0);
    expect(fake.remainingSteps()).toBe(0);
  });

  test("a request with no credentials gets 401 authentication_error", async () => {
    const fake = await start({ script: [reply().text("never")] });
    const response = await fetch(`${fake.url}/v1/messages`, {
      method: "POST",
      headers: { "anthropic-version": "2023-06-01", "content-type": "application/json" },
      body: JSON.stringify(params()),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      type: "error",
      error: { type: "authentication_error", message: "x-api-key header is required" },
      request_id: "req_fake0000000000000001",
    });
    expect(fake.requests[0]?.auth).toBeNull();
    expect(fake.remainingSteps()).toBe(1);
  });

  test("a request beyond the script is a 500 and a violation", async () => {
    const fake = await start({ script: [reply().text("only one")] });
    const client = sdkClient(fake);
    await client.messages.create(params());
    const error = await client.messages.create(params()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(fake.violations).toEqual([
      "request #2 (POST /v1/messages): unexpected request #2: the script has 1 steps and all were used",
    ]);
  });

  test("a function step answers from what the client sent", async () => {
    const first = reply().toolUse("Bash", { command: "cat answer.txt" });
    const fake = await start({
      script: [first, (request) => reply().text(`The file says: ${toolResults(request)[0]?.text ?? "?"}`)],
    });
    const client = sdkClient(fake);
    const call = await client.messages.create(params());
    const toolUse = call.content[0];
    if (toolUse?.type !== "tool_use") throw new Error("expected a tool_use block");
    const answer = await client.messages
      .stream(
        params([
          { role: "user", content: "what is in answer.txt?" },
          { role: "assistant", content: call.content },
          { role: "user", content: [{ type: "tool_result", tool_use_id: toolUse.id, content: [{ type: "text", text: "42" }] }] },
        ]),
      )
      .finalMessage();
    expect<unknown>(answer.content).toEqual([{ type: "text", text: "The file says: 42" }]);
    expect(fake.violations).toEqual([]);
  });

  test("enqueue() extends the script", async () => {
    const fake = await start({});
    fake.enqueue(reply().text("late"));
    expect(fake.remainingSteps()).toBe(1);
    const message = await sdkClient(fake).messages.create(params());
    expect<unknown>(message.content).toEqual([{ type: "text", text: "late" }]);
  });

  test("count_tokens answers the deterministic estimate without consuming a step", async () => {
    const fake = await start({ script: [reply().text("unused")] });
    const { model, messages, tools } = params();
    const counted = await sdkClient(fake).messages.countTokens({ model, messages, tools });
    expect(counted).toEqual({ input_tokens: estimateInputTokens(JSON.parse(JSON.stringify({ model, messages, tools })) as JsonObject) });
    expect(counted.input_tokens).toBeGreaterThan(0);
    expect(fake.requests[0]).toMatchObject({ endpoint: "count_tokens", step: null, violations: [] });
    expect(fake.remainingSteps()).toBe(1);
  });

  test("an unknown path is a 404 and a violation", async () => {
    const fake = await start({});
    const response = await fetch(`${fake.url}/v1/complete`, { method: "POST", headers: { "x-api-key": "k" }, body: "{}" });
    expect(response.status).toBe(404);
    expect(response.headers.get("request-id")).toBe("req_fake0000000000000001");
    expect(fake.violations).toEqual(["request #1 (POST /v1/complete): no such endpoint: POST /v1/complete"]);
  });
});
