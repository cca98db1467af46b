import { describe, expect, test } from "bun:test";
import { ContextManager } from "../../../src/app/context-manager.ts";
import type { AgentEvent } from "../../../src/loop/events.ts";
import type { LoopDeps } from "../../../src/loop/loop.ts";
import type { MessageParam, ModelEvent } from "../../../src/model/types.ts";
import { FileTracker } from "../../../src/tools/shared/file-tracker.ts";

const call = (id: string): MessageParam => ({ role: "assistant", content: [{ type: "tool_use", id, name: "Read", input: {} }] });
const result = (id: string, size: number): MessageParam => ({ role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "x".repeat(size) }] });

function manager(summaries: string[]) {
  const requests: number[] = [];
  const deps = {
    stream: async function* (): AsyncGenerator<ModelEvent> {
      requests.push(1);
      const text = summaries.shift() ?? "summary";
      yield { type: "message", message: { id: "m", model: "m", content: [{ type: "text", text, citations: null }], stopReason: "end_turn", usage: { inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 }, malformedToolUseIds: [] } };
    },
    request: { model: "m", maxTokens: 1000, system: [], tools: [] },
  } as unknown as LoopDeps;
  const context = new ContextManager(
    { windowTokens: 10_000, compactPercent: 80, autoCompact: true, files: new FileTracker(), transcriptPath: () => undefined, now: () => new Date(2026, 10, 30) },
    () => deps,
  );
  return { context, requests };
}

describe("context manager", () => {
  test("when shortening old tool results is enough, it does that instead of a summary request", async () => {
    const { context, requests } = manager([]);
    const messages: MessageParam[] = [{ role: "user", content: [{ type: "text", text: "go" }] }];
    for (const id of ["a", "b", "c", "d"]) messages.push(call(id), result(id, id === "a" ? 34_000 : 400));
    const events: AgentEvent[] = [];
    const state = { messages };
    await context.beforeRequest(state, undefined, (event) => events.push(event), new AbortController().signal);
    expect(requests.length).toBe(0);
    expect(events.some((event) => event.type === "notice" && /shortened older tool results/.test(event.message))).toBe(true);
    const first = (state.messages[2]?.content as Array<{ content: string }>)[0]?.content ?? "";
    expect(first.length).toBeLessThan(2_500);
    expect((state.messages.at(-1)?.content as Array<{ type: string }>).map((block) => block.type)).toEqual(["tool_result", "text"]);
  });

  test("when recent messages alone fill the window, it compacts with a summary request", async () => {
    const { context, requests } = manager(["Summary of the work."]);
    const messages: MessageParam[] = [{ role: "user", content: [{ type: "text", text: "go" }] }, call("a"), result("a", 40_000)];
    const events: AgentEvent[] = [];
    await context.beforeRequest({ messages }, undefined, (event) => events.push(event), new AbortController().signal);
    expect(requests.length).toBe(1);
    expect(events.find((event) => event.type === "compact_boundary")).toMatchObject({ trigger: "auto" });
    expect(JSON.stringify(messages[0])).toContain("Summary of the work.");
  });
});
