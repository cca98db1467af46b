// Web searches in the accounting: a streamed reply's `usage.server_tool_use.web_search_requests`
// becomes the message's webSearchRequests (its blocks kept verbatim), and the json result reports
// it as Claude Code does (`usage.server_tool_use`, `modelUsage[].webSearchRequests`) with each
// search priced at $0.01 in the cost.
import { describe, expect, test } from "bun:test";
import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import { buildResult } from "../../../src/app/result.ts";
import { UsageLedger } from "../../../src/app/usage-ledger.ts";
import type { LoopOutcome } from "../../../src/loop/events.ts";
import { MessageAccumulator } from "../../../src/model/accumulate.ts";
import { costUSD } from "../../../src/model/models.ts";
import { reply } from "../../fake-anthropic/index.ts";

describe("accumulating a reply with a web search", () => {
  test("the search call's streamed input is parsed, the result kept whole, the searches counted", () => {
    const scripted = reply()
      .webSearch("bun 1.4", [{ title: "Bun", url: "https://bun.sh/" }], "srvtoolu_01X")
      .citedText("Bun 1.4 is out.", [{ url: "https://bun.sh/", title: "Bun", citedText: "1.4 is out" }]);
    const accumulator = new MessageAccumulator();
    for (const event of scripted.events({ model: "claude-haiku-5-5", messageId: "msg_1" })) {
      if (event.type !== "ping") accumulator.add(event as unknown as RawMessageStreamEvent);
    }
    const message = accumulator.finish();
    expect(message.content).toEqual(scripted.message().content as unknown as typeof message.content);
    expect(message.usage.webSearchRequests).toBe(1);
    expect(message.malformedToolUseIds).toEqual([]);
  });

  test("a reply without searches has no webSearchRequests field", () => {
    const accumulator = new MessageAccumulator();
    for (const event of reply().text("hi").events()) if (event.type !== "ping") accumulator.add(event as unknown as RawMessageStreamEvent);
    expect(accumulator.finish().usage).toEqual({ inputTokens: 0, outputTokens: 1, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 });
  });
});

describe("the json result", () => {
  const outcome: LoopOutcome = {
    reason: "completed",
    stopReason: "end_turn",
    numTurns: 2,
    finalText: "done",
    usage: { inputTokens: 1000, outputTokens: 100, cacheReadInputTokens: 0, cacheCreationInputTokens: 0, webSearchRequests: 2 },
    apiMs: 10,
    denials: [],
  };

  test("reports searches in usage and modelUsage, and prices them", () => {
    const helper = { inputTokens: 500, outputTokens: 50, cacheReadInputTokens: 0, cacheCreationInputTokens: 0, webSearchRequests: 3 };
    const result = buildResult(outcome, { sessionId: "s", model: "claude-opus-5-5", durationMs: 20, maxTurns: undefined, helperUsage: { "claude-haiku-5-5": helper } });
    // Every search the session paid for, whichever request ran it (WebSearch runs them in side requests).
    expect(result.usage.server_tool_use).toEqual({ web_search_requests: 5, web_fetch_requests: 0 });
    expect(result.modelUsage["claude-opus-5-5"]?.webSearchRequests).toBe(2);
    expect(result.modelUsage["claude-haiku-5-5"]?.webSearchRequests).toBe(3);
    expect(result.modelUsage["claude-haiku-5-5"]?.costUSD).toBeCloseTo(costUSD("claude-haiku-5-5", helper) + 0.03, 10);
    expect(result.total_cost_usd).toBeCloseTo(costUSD("claude-opus-5-5", outcome.usage) + costUSD("claude-haiku-5-5", helper) + 0.05, 10);
  });

  test("without searches the fields are zero, as Claude Code reports them", () => {
    const plain = { ...outcome, usage: { inputTokens: 1, outputTokens: 1, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 } };
    const result = buildResult(plain, { sessionId: "s", model: "claude-opus-5-5", durationMs: 1, maxTurns: undefined });
    expect(result.usage.server_tool_use).toEqual({ web_search_requests: 0, web_fetch_requests: 0 });
    expect(result.modelUsage["claude-opus-5-5"]?.webSearchRequests).toBe(0);
  });

  test("the session ledger's cost includes searches", () => {
    const ledger = new UsageLedger(0.015);
    ledger.add("claude-haiku-5-5", { inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0, webSearchRequests: 1 }, false);
    expect(ledger.costUSD()).toBeCloseTo(0.01, 10);
    expect(ledger.exceeded()).toBe(false);
    ledger.add("claude-haiku-5-5", { inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0, webSearchRequests: 1 }, false);
    expect(ledger.models()["claude-haiku-5-5"]?.webSearchRequests).toBe(2);
    expect(ledger.exceeded()).toBe(true);
  });
});
