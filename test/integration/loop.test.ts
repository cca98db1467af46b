import { describe, expect, test } from "bun:test";
import { lastUserReminders, messagesOf, reply, toolResults } from "../fake-anthropic/index.ts";
import { probeTool, runScriptedLoop } from "./loop-harness.ts";

describe("loop: stop reasons", () => {
  test("max_tokens on text asks the model to continue instead of ending", async () => {
    const run = await runScriptedLoop(
      [
        reply().text("The first half").stop("max_tokens"),
        (request) => reply().text(/cut off/.test(lastUserReminders(request).join()) ? " and the second half." : "no nudge seen"),
      ],
      [],
    );
    expect(run.server.violations).toEqual([]);
    expect(run.outcome).toMatchObject({ reason: "completed", finalText: " and the second half.", numTurns: 2 });
    const second = messagesOf(run.server.requests[1] as never).map((message) => message.role);
    expect(second).toEqual(["user", "assistant", "user"]);
  });

  test("a tool call cut off by max_tokens is not run; the model is asked to retry smaller", async () => {
    const calls: string[] = [];
    const run = await runScriptedLoop(
      [
        reply().text("Writing the file.").toolUseCutOff("Probe", '{"tag":"very long inp').stop("max_tokens"),
        (request) => reply().text(/Probe was cut off/.test(lastUserReminders(request).join()) ? "retrying smaller" : "no note"),
      ],
      [probeTool("Probe", "write", undefined, calls)],
    );
    expect(run.server.violations).toEqual([]);
    expect(calls).toEqual([]);
    expect(run.outcome.finalText).toBe("retrying smaller");
    const assistant = messagesOf(run.server.requests[1] as never)[1];
    expect(assistant?.content.map((block) => block.type)).toEqual(["text"]);
  });

  test("pause_turn re-issues the request with the paused content", async () => {
    const run = await runScriptedLoop([reply().text("Searching…").stop("pause_turn"), reply().text("Done.")], []);
    expect(run.server.violations).toEqual([]);
    expect(run.outcome).toMatchObject({ reason: "completed", finalText: "Done.", numTurns: 2 });
    expect(messagesOf(run.server.requests[1] as never).at(-1)?.role).toBe("assistant");
  });

  test("refusal ends the turn with a clear notice", async () => {
    const run = await runScriptedLoop([reply().text("I can't help with that.").stop("refusal")], []);
    expect(run.outcome).toMatchObject({ reason: "refusal", stopReason: "refusal", finalText: "I can't help with that." });
    expect(run.events.some((event) => event.type === "notice" && /declined/.test(event.message))).toBe(true);
  });

  test("thinking blocks go back verbatim, signature included", async () => {
    const run = await runScriptedLoop(
      [reply().thinking("Plan: probe first.", "sig-123").toolUse("Probe", {}), reply().text("Finished.")],
      [probeTool("Probe", "read")],
    );
    expect(run.server.violations).toEqual([]);
    const assistant = messagesOf(run.server.requests[1] as never)[1];
    expect(assistant?.content[0]).toEqual({ type: "thinking", thinking: "Plan: probe first.", signature: "sig-123" });
  });

  test("usage is summed over every round-trip", async () => {
    const run = await runScriptedLoop(
      [
        reply().toolUse("Probe", {}).usage({ input_tokens: 100, output_tokens: 10, cache_read_input_tokens: 5, cache_creation_input_tokens: 0 }),
        reply().text("ok").usage({ input_tokens: 50, output_tokens: 7, cache_read_input_tokens: 0, cache_creation_input_tokens: 3 }),
      ],
      [probeTool("Probe", "read")],
    );
    expect(run.outcome.usage).toEqual({ inputTokens: 150, outputTokens: 17, cacheReadInputTokens: 5, cacheCreationInputTokens: 3 });
  });
});

describe("loop: tool batches", () => {
  test("read-only calls in one reply run concurrently and return one message, in order", async () => {
    let started = 0;
    const waitForAll = async () => {
      started += 1;
      // Each call waits until all three have started: sequential execution would never get there.
      for (let i = 0; i < 200 && started < 3; i++) await Bun.sleep(5);
      return started >= 3 ? "concurrent" : "sequential";
    };
    const run = await runScriptedLoop(
      [
        reply().toolUse("Probe", { tag: "a" }, "toolu_a").toolUse("Probe", { tag: "b" }, "toolu_b").toolUse("Probe", { tag: "c" }, "toolu_c"),
        reply().text("all read"),
      ],
      [probeTool("Probe", "read", waitForAll)],
    );
    expect(run.server.violations).toEqual([]);
    const results = toolResults(run.server.requests[1] as never).map((result) => [result.toolUseId, result.text]);
    expect(results).toEqual([
      ["toolu_a", "concurrent"],
      ["toolu_b", "concurrent"],
      ["toolu_c", "concurrent"],
    ]);
    expect(run.events.filter((event) => event.type === "tool_results").length).toBe(1);
  });

  test("a mutating call splits the batch and runs alone, in reply order", async () => {
    const calls: string[] = [];
    const run = await runScriptedLoop(
      [
        reply()
          .toolUse("Look", { tag: "1" })
          .toolUse("Look", { tag: "2" })
          .toolUse("Change", { tag: "3" })
          .toolUse("Look", { tag: "4" }),
        reply().text("done"),
      ],
      [probeTool("Look", "read", undefined, calls), probeTool("Change", "write", undefined, calls)],
    );
    expect(run.server.violations).toEqual([]);
    expect(calls.indexOf("Change:3")).toBeGreaterThan(Math.max(calls.indexOf("Look:1"), calls.indexOf("Look:2")));
    expect(calls.indexOf("Look:4")).toBeGreaterThan(calls.indexOf("Change:3"));
    expect(toolResults(run.server.requests[1] as never).map((result) => result.text)).toEqual(["ok 1", "ok 2", "ok 3", "ok 4"]);
  });

  test("an abort while tools run answers every call and ends the turn", async () => {
    const controller = new AbortController();
    const slow = async (_input: unknown, signal: AbortSignal) => {
      controller.abort();
      await Bun.sleep(1);
      return signal.aborted ? "saw abort" : "finished";
    };
    const run = await runScriptedLoop(
      [reply().toolUse("Slow", {}, "toolu_1").toolUse("Slow", {}, "toolu_2")],
      [probeTool("Slow", "exec", slow)],
      { signal: controller.signal },
    );
    expect(run.outcome.reason).toBe("aborted_tools");
    const last = run.state.messages.at(-1);
    expect(last?.role).toBe("user");
    const ids = (last?.content as Array<{ type: string; tool_use_id?: string }>).map((block) => block.tool_use_id);
    expect(ids).toEqual(["toolu_1", "toolu_2"]);
  });
});
