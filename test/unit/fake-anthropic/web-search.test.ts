// The fake's server-side web search, checked with the real SDK: the blocks and events as the API
// streams them (server_tool_use with its input as partial JSON, the result whole in its start
// event, citations as citations_delta, searches in the final usage), the history rules the API
// enforces on them, and an endpoint without server tools.
import { describe, expect, test } from "bun:test";
import type { MessageParam, RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import { BadRequestError } from "@anthropic-ai/sdk";
import { checkRequest, reply, type JsonObject } from "../../fake-anthropic/index.ts";
import { fakeServerPerTest, params, sdkClient } from "./sdk.ts";

const start = fakeServerPerTest();
const webSearchTool = { type: "web_search_20250305" as const, name: "web_search" as const, max_uses: 8 };
const hits = [
  { title: "zod — TypeScript-first schema validation", url: "https://zod.dev/", pageAge: "2 days ago" },
  { title: "Changelog | Zod", url: "https://zod.dev/changelog" },
];
const scripted = () =>
  reply()
    .webSearch("zod 4 release date", hits, "srvtoolu_01A")
    .citedText("Zod 4 is stable.", [{ url: "https://zod.dev/changelog", title: "Changelog | Zod", citedText: "Zod 4 is now stable" }]);

describe("web search on the wire", () => {
  test("streams the search call, its results and cited text as the API does; the SDK's message equals the JSON one", async () => {
    const fake = await start({ script: [scripted(), scripted()] });
    const client = sdkClient(fake);
    const stream = await client.messages.create({ ...params(), tools: [webSearchTool], stream: true });
    const events: RawMessageStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    const shapes = events.map((event) => (event.type === "content_block_start" ? `start:${event.content_block.type}` : event.type === "content_block_delta" ? `delta:${event.delta.type}` : event.type));
    expect(shapes).toEqual([
      "message_start",
      "start:server_tool_use",
      ...shapes.slice(2, shapes.indexOf("content_block_stop")).map(() => "delta:input_json_delta"),
      "content_block_stop",
      "start:web_search_tool_result",
      "content_block_stop",
      "start:text",
      "delta:citations_delta",
      ...shapes.slice(shapes.indexOf("delta:citations_delta") + 1, shapes.lastIndexOf("content_block_stop")).map(() => "delta:text_delta"),
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    const first = events[1];
    if (first?.type !== "content_block_start") throw new Error("expected a block start");
    expect(first.content_block).toEqual({ type: "server_tool_use", id: "srvtoolu_01A", name: "web_search", input: {}, caller: { type: "direct" } });
    const opening = events[0];
    if (opening?.type !== "message_start") throw new Error("expected message_start");
    expect(opening.message.usage.server_tool_use).toBeUndefined();
    const delta = events.find((event) => event.type === "message_delta");
    if (delta?.type !== "message_delta") throw new Error("expected message_delta");
    expect(delta.usage.server_tool_use).toEqual({ web_search_requests: 1, web_fetch_requests: 0 });
    expect(delta.delta.stop_reason).toBe("end_turn");

    const json = await client.messages.create({ ...params(), tools: [webSearchTool] });
    expect(json.content).toEqual([
      { type: "server_tool_use", id: "srvtoolu_01A", name: "web_search", input: { query: "zod 4 release date" }, caller: { type: "direct" } },
      {
        type: "web_search_tool_result",
        tool_use_id: "srvtoolu_01A",
        caller: { type: "direct" },
        content: [
          { type: "web_search_result", url: "https://zod.dev/", title: hits[0]?.title ?? "", encrypted_content: Buffer.from("page:https://zod.dev/").toString("base64"), page_age: "2 days ago" },
          { type: "web_search_result", url: "https://zod.dev/changelog", title: "Changelog | Zod", encrypted_content: Buffer.from("page:https://zod.dev/changelog").toString("base64"), page_age: null },
        ],
      },
      {
        type: "text",
        text: "Zod 4 is stable.",
        citations: [{ type: "web_search_result_location", url: "https://zod.dev/changelog", title: "Changelog | Zod", cited_text: "Zod 4 is now stable", encrypted_index: Buffer.from("index:https://zod.dev/changelog#Zod 4 is now stable").toString("base64") }],
      },
    ]);
    expect(json.usage.server_tool_use).toEqual({ web_search_requests: 1, web_fetch_requests: 0 });
    expect(fake.violations).toEqual([]);
  });

  test("a failed search is an error object inside a 200 reply", async () => {
    const fake = await start({ script: [reply().webSearchError("x".repeat(600), "query_too_long", "srvtoolu_02").text("The query was too long.")] });
    const json = await sdkClient(fake).messages.create({ ...params(), tools: [webSearchTool] });
    expect(json.content[1]).toEqual({ type: "web_search_tool_result", tool_use_id: "srvtoolu_02", caller: { type: "direct" }, content: { type: "web_search_tool_result_error", error_code: "query_too_long" } });
  });

  test("an endpoint without server tools answers 400 before using the script; client tools alone pass", async () => {
    const fake = await start({ script: [reply().text("fine")], rejectServerTools: true });
    const client = sdkClient(fake);
    const refused = await client.messages.create({ ...params(), tools: [webSearchTool] }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(BadRequestError);
    expect((refused as BadRequestError).error).toEqual({
      type: "error",
      error: { type: "invalid_request_error", message: "tools.0: Input tag 'web_search_20250305' found using 'type' does not match any of the expected tags: 'bash_20250124', 'custom', 'text_editor_20250124', 'text_editor_20250429', 'text_editor_20250728'" },
      request_id: "req_fake0000000000000001",
    });
    expect(fake.remainingSteps()).toBe(1);
    const ok = await client.messages.create(params());
    expect(ok.content as unknown[]).toEqual([{ type: "text", text: "fine" }]);
  });
});

describe("history with server tool blocks", () => {
  const body = (messages: unknown): JsonObject => ({ model: "m", max_tokens: 10, tools: [webSearchTool], messages }) as unknown as JsonObject;
  const assistant = () => JSON.parse(JSON.stringify(scripted().message().content)) as JsonObject[];
  const conversation = (content: JsonObject[]): MessageParam[] => [
    { role: "user", content: "when was zod 4 released?" },
    { role: "assistant", content } as unknown as MessageParam,
    { role: "user", content: "thanks" },
  ];

  test("sent back verbatim, the blocks are accepted", () => {
    expect(checkRequest(body(conversation(assistant())))).toEqual([]);
  });

  test("a paused turn may end with the search call; the continued message may not", () => {
    const paused = assistant().slice(0, 1);
    expect(checkRequest(body([{ role: "user", content: "q" }, { role: "assistant", content: paused }]))).toEqual([]);
    expect(checkRequest(body(conversation(paused)))).toEqual(['messages[1]: server_tool_use "srvtoolu_01A" has no web_search_tool_result after it in the same message']);
  });

  test("stripped, moved or orphaned blocks are reported as the API rejects them", () => {
    const stripped = assistant();
    delete ((stripped[1]?.content as JsonObject[])[0] as JsonObject).encrypted_content;
    expect(checkRequest(body(conversation(stripped)))).toEqual(["messages[1].content[1].content[0]: web_search_result without its encrypted_content"]);
    const orphan = assistant().slice(1);
    expect(checkRequest(body(conversation(orphan)))).toEqual(['messages[1].content[0]: web_search_tool_result for "srvtoolu_01A" has no matching server_tool_use before it in the same message']);
    const inUser = [{ role: "user", content: assistant().slice(0, 2) }];
    expect(checkRequest(body(inUser))).toEqual([
      "messages[0].content[0]: server_tool_use in a user message",
      "messages[0].content[1]: web_search_tool_result in a user message",
    ]);
    const badId = assistant();
    (badId[0] as JsonObject).id = "toolu_01";
    (badId[1] as JsonObject).tool_use_id = "toolu_01";
    expect(checkRequest(body(conversation(badId)))).toEqual(['messages[1].content[0]: server_tool_use id must start with "srvtoolu_", got "toolu_01"']);
  });
});
