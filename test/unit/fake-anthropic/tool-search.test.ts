import { describe, expect, test } from "bun:test";
import type { MessageParam, Tool } from "@anthropic-ai/sdk/resources/messages";
import {
  PromptCache,
  canonicalJson,
  checkRequest,
  deferredToolNames,
  estimateInputTokens,
  reply,
  tokensOfText,
  toolReferences,
  type JsonObject,
} from "../../fake-anthropic/index.ts";
import { fakeServerPerTest, readTool, sdkClient } from "./sdk.ts";

const ephemeral = { type: "ephemeral" } as const;
const system = [{ type: "text", text: "You are clew. ".repeat(40), cache_control: ephemeral }];
const searchTool = { name: "ToolSearch", description: "Loads deferred tools.", input_schema: { type: "object", properties: { query: { type: "string" } } } };
const deferredTool = (name: string, description = `${name} does remote work.`): JsonObject => ({
  name,
  description,
  input_schema: { type: "object", properties: { id: { type: "string" } } },
  defer_loading: true,
});
const weather = deferredTool("mcp__w__weather");
const stocks = deferredTool("mcp__s__stocks");

const search = (id: string, names: string[]): JsonObject[] => [
  { role: "user", content: [{ type: "text", text: "what is the weather?" }] },
  { role: "assistant", content: [{ type: "tool_use", id, name: "ToolSearch", input: { query: "weather" } }] },
  {
    role: "user",
    content: [{ type: "tool_result", tool_use_id: id, content: names.map((name) => ({ type: "tool_reference", tool_name: name })), cache_control: ephemeral }],
  },
];

const body = (tools: JsonObject[], messages: JsonObject[]): JsonObject => ({ model: "claude-test-1", max_tokens: 100, system, tools, messages });

describe("invariants: tool search", () => {
  test("deferred tools and tool_reference blocks to them are accepted", () => {
    expect(checkRequest(body([searchTool, weather, stocks], search("t1", ["mcp__w__weather"])))).toEqual([]);
  });

  test("every tool deferred is the API's 400", () => {
    expect(checkRequest(body([weather, stocks], [{ role: "user", content: "hi" }]))).toEqual([
      "All tools have defer_loading set. At least one tool must be non-deferred.",
    ]);
  });

  test("a reference to a tool not in tools[] is the API's 400", () => {
    expect(checkRequest(body([searchTool, weather], search("t1", ["mcp__w__weather", "unknown_tool"])))).toEqual([
      "Tool reference 'unknown_tool' has no corresponding tool definition",
    ]);
  });

  test("a reference to a tool that is not deferred, or without a name, is refused", () => {
    expect(checkRequest(body([searchTool, weather], search("t1", ["ToolSearch"])))).toEqual([
      "messages[2].content[0].content[0]: tool_reference 'ToolSearch' names a tool without defer_loading: true; only deferred tools can be referenced",
    ]);
    const nameless = search("t1", []);
    (nameless[2]?.content as JsonObject[])[0] = { type: "tool_result", tool_use_id: "t1", content: [{ type: "tool_reference" }] };
    expect(checkRequest(body([searchTool, weather], nameless))).toEqual(['messages[2].content[0].content[0]: tool_reference without a string "tool_name"']);
  });

  test("a deferred tool with cache_control is the API's 400", () => {
    expect(checkRequest(body([searchTool, { ...weather, cache_control: ephemeral }], [{ role: "user", content: "hi" }]))).toEqual([
      "Tool 'mcp__w__weather' cannot have both defer_loading=true and cache_control set. Tools with defer_loading cannot use prompt caching.",
    ]);
  });
});

describe("prompt cache: deferred tools", () => {
  const hello: JsonObject[] = [{ role: "user", content: [{ type: "text", text: "hello there", cache_control: ephemeral }] }];

  test("deferred definitions are not billed and not part of the key until referenced", () => {
    expect(estimateInputTokens(body([searchTool, weather, stocks], hello))).toBe(estimateInputTokens(body([searchTool], hello)));
    const cache = new PromptCache();
    cache.evaluate(body([searchTool, weather], hello)).commit();
    // A server connecting (one more deferred tool) or going away changes nothing cached.
    const more = cache.evaluate(body([searchTool, weather, stocks], hello)).stats;
    expect(more.cacheReadInputTokens).toBe(more.totalTokens);
    const fewer = cache.evaluate(body([searchTool], hello)).stats;
    expect(fewer.cacheReadInputTokens).toBe(fewer.totalTokens);
  });

  test("a tool_reference carries the referenced definition's tokens at its position", () => {
    const withRef = estimateInputTokens(body([searchTool, weather, stocks], search("t1", ["mcp__w__weather"])));
    const without = estimateInputTokens(body([searchTool, weather, stocks], search("t1", [])));
    const definition = tokensOfText(`\u001e${canonicalJson(weather)}`);
    // The reference block itself adds a few tokens; the expanded definition adds its own.
    expect(withRef - without).toBeGreaterThanOrEqual(definition);
    expect(withRef - without).toBeLessThanOrEqual(definition + tokensOfText(canonicalJson({ type: "tool_reference", tool_name: "mcp__w__weather" })) + 1);
  });

  test("the prefix before a reference is read from cache; a changed referenced definition rewrites from the reference on", () => {
    const cache = new PromptCache();
    const messages = search("t1", ["mcp__w__weather"]);
    const first = cache.evaluate(body([searchTool, weather], messages));
    first.commit();
    const again = cache.evaluate(body([searchTool, weather], messages)).stats;
    expect(again.cacheReadInputTokens).toBe(again.totalTokens);
    const changed = cache.evaluate(body([searchTool, deferredTool("mcp__w__weather", "Weather, now with forecasts.")], messages)).stats;
    // Tools and system (the system breakpoint) still hit; everything from the reference on is new.
    const prefix = estimateInputTokens(body([searchTool], []));
    expect(changed.cacheReadInputTokens).toBe(prefix);
    expect(changed.cacheCreationInputTokens).toBe(changed.totalTokens - prefix);
  });
});

describe("wire: tool search through the real SDK", () => {
  const serve = fakeServerPerTest();
  const tools = [readTool, { ...(weather as unknown as Tool), defer_loading: true }] as Tool[];
  const history = (name: string): MessageParam[] => [
    { role: "user", content: "weather?" },
    { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "Read", input: { file_path: "x" } }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: [{ type: "tool_reference", tool_name: name }] }] },
  ];

  test("a valid request is answered and recorded with its deferred tools and references", async () => {
    const server = await serve({ script: [reply().text("sunny")] });
    const message = await sdkClient(server).messages.create({ model: "claude-test-1", max_tokens: 100, tools, messages: history("mcp__w__weather") });
    expect(message.content.map((block) => (block.type === "text" ? block.text : block.type))).toEqual(["sunny"]);
    expect(server.violations).toEqual([]);
    const recorded = server.requests[0];
    if (!recorded) throw new Error("no request recorded");
    expect(deferredToolNames(recorded)).toEqual(["mcp__w__weather"]);
    expect(toolReferences(recorded)).toEqual(["mcp__w__weather"]);
  });

  test("rejectInvalid answers an unresolved reference with the API's 400", async () => {
    const server = await serve({ script: [reply().text("unused")], rejectInvalid: true });
    const failure = await sdkClient(server)
      .messages.create({ model: "claude-test-1", max_tokens: 100, tools, messages: history("unknown_tool") })
      .then(() => undefined, (error: unknown) => error);
    expect(failure).toMatchObject({ status: 400, error: { type: "error", error: { type: "invalid_request_error", message: "Tool reference 'unknown_tool' has no corresponding tool definition" } } });
    expect(server.remainingSteps()).toBe(1);
  });
});
