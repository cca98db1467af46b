import { afterEach, describe, expect, test } from "bun:test";
import type { MessageParam, TextBlockParam } from "@anthropic-ai/sdk/resources/messages";
import {
  PromptCache,
  canonicalJson,
  estimateInputTokens,
  http,
  reply,
  startFakeAnthropic,
  type FakeServer,
  type JsonObject,
} from "../../fake-anthropic/index.ts";
import { params, sdkClient } from "./sdk.ts";

const ephemeral = { type: "ephemeral" } as const;
const system = [{ type: "text", text: "You are clew. ".repeat(40), cache_control: ephemeral }];
const tools = [{ name: "Read", input_schema: { type: "object" } }];

function request(messages: JsonObject[], extra: JsonObject = {}): JsonObject {
  return { model: "claude-test-1", max_tokens: 100, tools, system, messages, ...extra };
}
const user = (text: string, cached = false): JsonObject => ({
  role: "user",
  content: [{ type: "text", text, ...(cached ? { cache_control: ephemeral } : {}) }],
});
const assistant = (text: string): JsonObject => ({ role: "assistant", content: [{ type: "text", text }] });

const turn1 = [user("first question about the code base", true)];
const turn2 = [user("first question about the code base"), assistant("first answer"), user("second question", true)];

describe("PromptCache", () => {
  test("request 1 writes its prefix, request 2 reads it and writes only the new part", () => {
    const cache = new PromptCache();
    const first = cache.evaluate(request(turn1));
    first.commit();
    const total1 = estimateInputTokens(request(turn1));
    expect(first.stats).toEqual({
      totalTokens: total1,
      inputTokens: 0,
      cacheReadInputTokens: 0,
      cacheCreationInputTokens: total1,
      ephemeral5mInputTokens: total1,
      ephemeral1hInputTokens: 0,
      breakpoints: 2,
    });
    const second = cache.evaluate(request(turn2));
    const total2 = estimateInputTokens(request(turn2));
    // The breakpoint moved to the new last message; the lookback finds the old one.
    expect(second.stats).toEqual({
      totalTokens: total2,
      inputTokens: 0,
      cacheReadInputTokens: total1,
      cacheCreationInputTokens: total2 - total1,
      ephemeral5mInputTokens: total2 - total1,
      ephemeral1hInputTokens: 0,
      breakpoints: 2,
    });
  });

  test("nothing is readable before the earlier response began (no commit)", () => {
    const cache = new PromptCache();
    cache.evaluate(request(turn1));
    expect(cache.evaluate(request(turn1)).stats.cacheReadInputTokens).toBe(0);
  });

  test("tokens after the last breakpoint are plain input", () => {
    const cache = new PromptCache();
    const uncachedTail = [user("question", true), assistant("answer"), user("follow-up")];
    const { stats } = cache.evaluate(request(uncachedTail));
    const head = estimateInputTokens(request([user("question")]));
    expect(stats.cacheCreationInputTokens).toBe(head);
    expect(stats.inputTokens).toBe(stats.totalTokens - head);
    expect(stats.inputTokens).toBeGreaterThan(0);
  });

  test("a changed system prompt or tool list misses; a moved breakpoint alone does not", () => {
    const cache = new PromptCache();
    cache.evaluate(request(turn1)).commit();
    const otherSystem = [{ type: "text", text: "You are someone else.", cache_control: ephemeral }];
    expect(cache.evaluate(request(turn1, { system: otherSystem })).stats.cacheReadInputTokens).toBe(0);
    expect(cache.evaluate(request(turn1, { tools: [...tools, { name: "Bash", input_schema: { type: "object" } }] })).stats.cacheReadInputTokens).toBe(0);
    expect(cache.evaluate(request(turn1, { model: "claude-other" })).stats.cacheReadInputTokens).toBe(0);
    const systemOnly = cache.evaluate(request([user("first question about the code base")]));
    expect(systemOnly.stats.cacheReadInputTokens).toBe(estimateInputTokens(request([])));
  });

  test("the lookback reaches 20 blocks back from a breakpoint, not further", () => {
    const blocks = (n: number): JsonObject[] => Array.from({ length: n }, (_, i) => ({ type: "text", text: `block ${i}` }));
    const withTail = (n: number): JsonObject[] => [
      user("first question about the code base"),
      { role: "assistant", content: blocks(n) },
      user("next", true),
    ];
    const near = new PromptCache();
    near.evaluate(request(turn1)).commit();
    expect(near.evaluate(request(withTail(18))).stats.cacheReadInputTokens).toBe(estimateInputTokens(request(turn1)));
    const far = new PromptCache();
    far.evaluate(request(turn1)).commit();
    // The system breakpoint still hits; the message one is out of reach.
    expect(far.evaluate(request(withTail(25))).stats.cacheReadInputTokens).toBe(estimateInputTokens(request([])));
  });

  test("prefixes below minCacheableTokens are not cached at all", () => {
    const cache = new PromptCache({ minCacheableTokens: 100_000 });
    const first = cache.evaluate(request(turn1));
    first.commit();
    expect(first.stats).toMatchObject({ cacheReadInputTokens: 0, cacheCreationInputTokens: 0, inputTokens: first.stats.totalTokens });
    expect(cache.evaluate(request(turn1)).stats.cacheReadInputTokens).toBe(0);
  });

  test("1h breakpoints are billed as ephemeral_1h", () => {
    const cache = new PromptCache();
    const longSystem = [{ type: "text", text: "Stable instructions.", cache_control: { type: "ephemeral", ttl: "1h" } }];
    const { stats } = cache.evaluate(request(turn1, { system: longSystem }));
    const systemTokens = estimateInputTokens(request([], { system: longSystem }));
    expect(stats.ephemeral1hInputTokens).toBe(systemTokens);
    expect(stats.ephemeral5mInputTokens).toBe(stats.totalTokens - systemTokens);
  });

  test("a top-level cache_control caches up to the last block (automatic caching)", () => {
    const cache = new PromptCache();
    const bare = (messages: JsonObject[]): JsonObject => ({ model: "m", max_tokens: 10, messages, cache_control: ephemeral });
    const first = cache.evaluate(bare([user("a question")]));
    first.commit();
    expect(first.stats).toMatchObject({ breakpoints: 1, cacheCreationInputTokens: first.stats.totalTokens, inputTokens: 0 });
    const second = cache.evaluate(bare([user("a question"), assistant("an answer"), user("more")]));
    expect(second.stats.cacheReadInputTokens).toBe(first.stats.totalTokens);
  });

  test("canonical bytes ignore key order and cache_control", () => {
    expect(canonicalJson({ b: 1, a: { x: [2, "3"], cache_control: { type: "ephemeral" } } })).toBe('{"a":{"x":[2,"3"]},"b":1}');
  });
});

describe("through the server and the SDK", () => {
  let server: FakeServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const sdkSystem: TextBlockParam[] = [{ type: "text", text: "You are clew. ".repeat(40), cache_control: { type: "ephemeral" } }];
  const ask = (text: string, cached: boolean): MessageParam => ({
    role: "user",
    content: [{ type: "text", text, ...(cached ? { cache_control: { type: "ephemeral" as const } } : {}) }],
  });

  test("request 1 reports a cache write, request 2 a read of the same prefix", async () => {
    server = await startFakeAnthropic({ script: [reply().text("first answer"), reply().text("second answer")] });
    const client = sdkClient(server);
    const first = await client.messages.stream({ ...params([ask("question one", true)]), system: sdkSystem }).finalMessage();
    const second = await client.messages
      .stream({
        ...params([ask("question one", false), { role: "assistant", content: "first answer" }, ask("question two", true)]),
        system: sdkSystem,
      })
      .finalMessage();
    const [r1, r2] = server.requests;
    expect(first.usage).toMatchObject({
      input_tokens: 0,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: r1?.cache?.totalTokens,
      cache_creation: { ephemeral_5m_input_tokens: r1?.cache?.totalTokens, ephemeral_1h_input_tokens: 0 },
    });
    expect(second.usage).toMatchObject({
      input_tokens: 0,
      cache_read_input_tokens: r1?.cache?.totalTokens,
      cache_creation_input_tokens: (r2?.cache?.totalTokens ?? 0) - (r1?.cache?.totalTokens ?? 0),
    });
    expect(second.usage.cache_read_input_tokens).toBeGreaterThan(0);
    expect(server.violations).toEqual([]);
  });

  test("a request answered with an HTTP error writes nothing", async () => {
    server = await startFakeAnthropic({ script: [http(529), reply().text("ok")] });
    const client = sdkClient(server);
    const body = { ...params([ask("question", true)]), system: sdkSystem };
    await client.messages.create(body).catch(() => undefined);
    const message = await client.messages.create(body);
    expect(message.usage.cache_read_input_tokens).toBe(0);
    expect(message.usage.cache_creation_input_tokens).toBe(server.requests[1]?.cache?.totalTokens ?? -1);
  });

  test("a scripted usage overrides the simulation", async () => {
    server = await startFakeAnthropic({ script: [reply().text("ok").usage({ cache_read_input_tokens: 5, input_tokens: 1 })] });
    const message = await sdkClient(server).messages.create({ ...params([ask("q", true)]), system: sdkSystem });
    expect(message.usage).toMatchObject({
      cache_read_input_tokens: 5,
      input_tokens: 1,
      cache_creation_input_tokens: server.requests[0]?.cache?.cacheCreationInputTokens,
    });
  });
});
