import { afterEach, describe, expect, test } from "bun:test";
import { BadRequestError } from "@anthropic-ai/sdk";
import { checkRequest, reply, startFakeAnthropic, type FakeServer, type JsonObject } from "../../fake-anthropic/index.ts";
import { params, sdkClient } from "./sdk.ts";

const tools: JsonObject[] = [
  { name: "Read", input_schema: { type: "object", properties: { file_path: { type: "string" } } } },
  { name: "Bash", input_schema: { type: "object" } },
];

function body(messages: JsonObject[], extra: JsonObject = {}): JsonObject {
  return { model: "claude-test-1", max_tokens: 100, tools, messages, ...extra };
}

const user = (content: JsonObject["content"]): JsonObject => ({ role: "user", content });
const assistant = (content: JsonObject["content"]): JsonObject => ({ role: "assistant", content });
const toolUse = (id: string, name = "Read"): JsonObject => ({ type: "tool_use", id, name, input: { file_path: "/a" } });
const toolResult = (id: string, content: JsonObject["content"] = "ok"): JsonObject => ({ type: "tool_result", tool_use_id: id, content });
const text = (value: string, extra: JsonObject = {}): JsonObject => ({ type: "text", text: value, ...extra });
const cached = { cache_control: { type: "ephemeral" } };

describe("checkRequest", () => {
  test("a well-formed tool round trip has no violations", () => {
    const messages = [
      user("read /a and /b"),
      assistant([{ type: "thinking", thinking: "two reads", signature: "sig" }, text("Reading."), toolUse("toolu_1"), toolUse("toolu_2")]),
      user([toolResult("toolu_1"), toolResult("toolu_2", [text("contents")]), text("and hurry")]),
      assistant([{ type: "redacted_thinking", data: "b3BhcXVl" }, text("Done.")]),
      user("thanks"),
    ];
    expect(checkRequest(body(messages))).toEqual([]);
  });

  test("a tool_use without a tool_result in the next user message", () => {
    const messages = [user("go"), assistant([toolUse("toolu_1"), toolUse("toolu_2")]), user([toolResult("toolu_1")])];
    expect(checkRequest(body(messages))).toEqual([
      'messages[1]: tool_use "toolu_2" is not answered by a tool_result in the next user message',
    ]);
  });

  test("a tool_use answered with plain text only, and one left as the last message", () => {
    expect(checkRequest(body([user("go"), assistant([toolUse("toolu_1")]), user("never mind")]))).toEqual([
      'messages[1]: tool_use "toolu_1" is not answered by a tool_result in the next user message',
    ]);
    expect(checkRequest(body([user("go"), assistant([toolUse("toolu_1")])]))).toEqual([
      'messages[1]: tool_use "toolu_1" is not answered by a tool_result in the next user message',
    ]);
  });

  test("a tool_result after text", () => {
    const messages = [user("go"), assistant([toolUse("toolu_1")]), user([text("here:"), toolResult("toolu_1")])];
    expect(checkRequest(body(messages))).toEqual([
      'messages[2].content[1]: tool_result for "toolu_1" comes after other content; tool_result blocks must come first',
    ]);
  });

  test("a tool_result without a matching tool_use, and a repeated one", () => {
    const messages = [user("go"), assistant([toolUse("toolu_1")]), user([toolResult("toolu_1"), toolResult("toolu_1"), toolResult("toolu_9")])];
    expect(checkRequest(body(messages))).toEqual([
      'messages[2].content[1]: second tool_result for "toolu_1"',
      'messages[2].content[2]: tool_result for "toolu_9" has no matching tool_use in the previous assistant message',
    ]);
  });

  test("a tool_result answering a tool_use from an earlier turn", () => {
    const messages = [
      user("go"),
      assistant([toolUse("toolu_1")]),
      user([toolResult("toolu_1")]),
      assistant([text("ok")]),
      user([toolResult("toolu_1")]),
    ];
    expect(checkRequest(body(messages))).toEqual([
      'messages[4].content[0]: tool_result for "toolu_1" has no matching tool_use in the previous assistant message',
    ]);
  });

  test("duplicate tool_use ids", () => {
    const messages = [
      user("go"),
      assistant([toolUse("toolu_1")]),
      user([toolResult("toolu_1")]),
      assistant([toolUse("toolu_1")]),
      user([toolResult("toolu_1")]),
    ];
    expect(checkRequest(body(messages))).toEqual(['messages[3].content[0]: duplicate tool_use id "toolu_1"']);
  });

  test("history may call tools that are not in tools[] (removed since, or never offered), as the API accepts", () => {
    const messages = [user("go"), assistant([toolUse("toolu_1", "Frobnicate")]), user([toolResult("toolu_1")]), assistant([toolUse("toolu_2", "mcp__gone__tool")]), user([toolResult("toolu_2")])];
    expect(checkRequest(body(messages))).toEqual([]);
  });

  test("tool blocks in history with no tools defined at all are rejected, as by the API", () => {
    const messages = [user("go"), assistant([toolUse("toolu_1")]), user([toolResult("toolu_1")])];
    const expected = ["messages[1].content[0]: requests which include tool_use or tool_result blocks must define tools"];
    expect(checkRequest(body(messages, { tools: [] }))).toEqual(expected);
    const { tools: _omitted, ...withoutTools } = body(messages);
    expect(checkRequest(withoutTools)).toEqual(expected);
    expect(checkRequest(body([user("hi")], { tools: [] }))).toEqual([]);
  });

  test("a 5th cache_control breakpoint", () => {
    const request = body([user([text("a", cached), text("b", cached)]), assistant([text("c", cached)]), user([text("d", cached)])], {
      system: [text("sys", cached)],
    });
    expect(checkRequest(request)).toEqual([
      "5 cache_control breakpoints (at most 4): system[0], messages[0].content[0], messages[0].content[1], messages[1].content[0], messages[2].content[0]",
    ]);
    const four = body([user([text("a", cached), text("b", cached)]), assistant([text("c")]), user([text("d")])], {
      tools: tools.map((tool, i) => (i === 0 ? { ...tool, ...cached } : tool)),
      cache_control: { type: "ephemeral" },
    });
    expect(checkRequest(four)).toEqual([]);
  });

  test("a 1h breakpoint after a 5m one, and cache_control on thinking", () => {
    const messages = [
      user([text("a", cached), text("b", { cache_control: { type: "ephemeral", ttl: "1h" } })]),
      assistant([{ type: "thinking", thinking: "t", signature: "s", ...cached }, text("x")]),
      user("y"),
    ];
    expect(checkRequest(body(messages))).toEqual([
      "messages[1].content[0]: thinking blocks cannot carry cache_control",
      "messages[0].content[1]: a 1h cache_control must not follow a 5m one",
    ]);
  });

  test("tool definitions: schema object of type object without $schema, unique names", () => {
    const badTools: JsonObject[] = [
      { name: "A", input_schema: { $schema: "http://json-schema.org/draft-07/schema#", type: "object" } },
      { name: "B", input_schema: { type: "string" } },
      { name: "C" },
      { name: "A", input_schema: { type: "object" } },
      { name: "has space", input_schema: { type: "object" } },
      { type: "web_search_20250305", name: "web_search" },
    ];
    expect(checkRequest(body([user("hi")], { tools: badTools }))).toEqual([
      'tools[0] ("A"): input_schema must not carry a "$schema" key',
      'tools[1] ("B"): input_schema.type must be "object", got "string"',
      'tools[2] ("C"): input_schema must be an object',
      'tools[3]: duplicate tool name "A"',
      'tools[4]: tool name "has space" must match ^[a-zA-Z0-9_-]{1,128}$',
    ]);
  });

  test("empty text blocks, empty content, empty system text", () => {
    const messages = [user([text("")]), assistant([]), user([text("  \n")]), assistant(""), user("ok")];
    expect(checkRequest(body(messages, { system: [text("")] }))).toEqual([
      "system[0]: empty text block",
      "messages[0].content[0]: empty text block",
      "messages[1]: empty content array",
      "messages[2].content[0]: text block with only whitespace",
      "messages[3]: empty string content",
    ]);
  });

  test("roles must alternate starting with the user", () => {
    expect(checkRequest(body([assistant("hi"), user("a"), user("b"), { role: "system", content: "x" }]))).toEqual([
      'messages[0]: the first message must be from the user, got "assistant"',
      'messages[2]: roles must alternate, but messages[1] is also "user"',
      'messages[3]: role must be "user" or "assistant", got "system"',
    ]);
    expect(checkRequest(body([]))).toEqual(["messages must not be empty"]);
  });

  test("model, max_tokens and thinking signatures", () => {
    const messages = [user("go"), assistant([{ type: "thinking", thinking: "hmm", signature: "" }, text("x")]), user("y")];
    expect(checkRequest({ model: "", max_tokens: 0, messages })).toEqual([
      "model must be a non-empty string",
      "max_tokens must be a positive integer, got 0",
      "messages[1].content[0]: thinking block sent back without its signature",
    ]);
    expect(checkRequest({ model: "m", messages: [user("hi")] }, { endpoint: "count_tokens" })).toEqual([]);
  });
});

describe("on every request the server receives", () => {
  let server: FakeServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  test("violations are recorded per request and on the server, and the reply is still sent", async () => {
    server = await startFakeAnthropic({ script: [reply().text("fine")] });
    const message = await sdkClient(server).messages.create(
      params([{ role: "user", content: "go" }, { role: "assistant", content: [{ type: "tool_use", id: "toolu_x", name: "Grep", input: {} }] }, { role: "user", content: "?" }]),
    );
    expect<unknown>(message.content).toEqual([{ type: "text", text: "fine" }]);
    expect(server.violations).toEqual([
      'request #1 (POST /v1/messages): messages[1]: tool_use "toolu_x" is not answered by a tool_result in the next user message',
    ]);
    expect(server.requests[0]?.violations.length).toBe(1);
  });

  test("rejectInvalid answers like the API: 400 invalid_request_error, no step consumed", async () => {
    server = await startFakeAnthropic({ script: [reply().text("unused")], rejectInvalid: true });
    const error = await sdkClient(server)
      .messages.create({ ...params(), max_tokens: 100, messages: [{ role: "user", content: [{ type: "text", text: "" }] }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ type: "invalid_request_error", apiMessage: "messages[0].content[0]: empty text block" });
    expect(server.remainingSteps()).toBe(1);
  });

  test("a raw client without anthropic-version is flagged", async () => {
    server = await startFakeAnthropic({ script: [reply().text("ok")] });
    await fetch(`${server.url}/v1/messages`, { method: "POST", headers: { "x-api-key": "k" }, body: JSON.stringify(params()) });
    expect(server.violations).toEqual(["request #1 (POST /v1/messages): missing anthropic-version header"]);
  });
});
