import { describe, expect, test } from "bun:test";
import type { AgentEvent, LoopOutcome } from "../../../src/loop/events.ts";
import type { AssistantMessage, TokenUsage } from "../../../src/model/types.ts";
import { rejectedByHook, rejectedByUser } from "../../../src/permissions/reasons.ts";
import type { Attributes } from "../../../src/telemetry/attributes.ts";
import { TelemetrySink, type EventName, type MetricName, type SignalPort } from "../../../src/telemetry/sink.ts";
import { diffDisplay } from "../../../src/tools/shared/unified-diff.ts";
import { systemNote } from "../../../src/util/system-note.ts";

const S = { "session.id": "S", "user.id": "U" };
const bytes = (text: string) => new TextEncoder().encode(text).length;

function recording(effort?: string) {
  const metrics: Array<{ name: MetricName; value: number; attributes: Attributes }> = [];
  const events: Array<{ name: EventName; attributes: Attributes }> = [];
  const port: SignalPort = {
    add: (name, value, attributes) => metrics.push({ name, value, attributes }),
    emit: (name, attributes) => events.push({ name, attributes }),
  };
  let ticks = 0;
  let ids = 0;
  const sink = new TelemetrySink(port, {
    standard: { metric: S, event: S },
    logUserPrompts: false,
    logAssistantResponses: false,
    logToolDetails: false,
    model: () => "claude-main",
    effort: () => effort,
    startType: "resume",
    costUSD: (model, usage) => (model === "claude-main" ? 0.001 : 0.0001) * usage.outputTokens,
    // Every reading of the clock is 10 ms after the last one.
    now: () => (ticks += 10),
    clock: () => new Date(Date.UTC(2026, 0, 2, 3, 4, 5)),
    newId: () => `prompt-${++ids}`,
  });
  return { sink, metrics, events };
}

const usage = (input: number, output: number): TokenUsage => ({ inputTokens: input, outputTokens: output, cacheReadInputTokens: 3, cacheCreationInputTokens: 4 });

function message(model: string, text: string, tokens: TokenUsage): AssistantMessage {
  return { id: "msg_1", model, content: text ? [{ type: "text", text, citations: null }] : [], stopReason: "end_turn", usage: tokens, malformedToolUseIds: [] };
}

const outcome = (error?: LoopOutcome["error"]): LoopOutcome => ({ reason: error ? "api_error" : "completed", stopReason: null, numTurns: 1, finalText: "", usage: usage(0, 0), apiMs: 0, denials: [], ...(error ? { error } : {}) });
const prompt = (text: string): AgentEvent => ({ type: "turn_start", message: { role: "user", content: [{ type: "text", text }] } });
const editCall = { file_path: "/p/src/app.ts", old_string: "a\nb\n", new_string: "a\nc\nd\n" };
const eventShape = (name: EventName, sequence: number, promptId: string | undefined, rest: Attributes) => ({
  name,
  attributes: { ...S, "event.name": name, "event.timestamp": "2026-01-02T03:04:05.000Z", "event.sequence": sequence, ...(promptId ? { "prompt.id": promptId } : {}), ...rest },
});

describe("telemetry sink", () => {
  test("a prompt, a reply, an edit and a commit: Claude Code's metrics and events with their attributes", () => {
    const { sink, metrics, events } = recording();
    sink.start();
    for (const event of [
      prompt("fix it"),
      { type: "request_start", turn: 1 },
      { type: "api_retry", attempt: 1, maxRetries: 10, delayMs: 1, status: 529, category: "overloaded", message: "busy" },
      { type: "assistant_message", message: message("claude-main", "On it.", usage(100, 20)) },
      { type: "tool_start", id: "t1", name: "Edit", input: editCall },
      { type: "tool_end", id: "t1", name: "Edit", isError: false, content: "The file /p/src/app.ts has been updated successfully.", display: diffDisplay("/p/src/app.ts", "a\nb\n", "a\nc\nd\n", () => ""), data: {} },
      { type: "tool_start", id: "t2", name: "Bash", input: { command: "git commit -m fix" } },
      { type: "tool_end", id: "t2", name: "Bash", isError: false, content: "[main 1a2b3c] fix" },
    ] satisfies AgentEvent[]) sink.handle(event);

    expect(metrics).toEqual([
      { name: "claude_code.session.count", value: 1, attributes: { ...S, start_type: "resume" } },
      ...([["input", 100], ["output", 20], ["cacheRead", 3], ["cacheCreation", 4]] as const).map(([type, value]) => ({
        name: "claude_code.token.usage" as const, value, attributes: { ...S, model: "claude-main", query_source: "main", type },
      })),
      { name: "claude_code.cost.usage", value: 0.02, attributes: { ...S, model: "claude-main", query_source: "main" } },
      { name: "claude_code.code_edit_tool.decision", value: 1, attributes: { ...S, tool_name: "Edit", decision: "accept", source: "config", language: "TypeScript" } },
      { name: "claude_code.lines_of_code.count", value: 2, attributes: { ...S, type: "added", model: "claude-main" } },
      { name: "claude_code.lines_of_code.count", value: 1, attributes: { ...S, type: "removed", model: "claude-main" } },
      { name: "claude_code.commit.count", value: 1, attributes: S },
    ]);
    expect(events).toEqual([
      eventShape("user_prompt", 1, "prompt-1", { prompt_length: 6, prompt: "<REDACTED>" }),
      eventShape("api_request", 2, "prompt-1", {
        model: "claude-main", cost_usd: 0.02, duration_ms: 10, input_tokens: 100, output_tokens: 20, cache_read_tokens: 3, cache_creation_tokens: 4, speed: "normal", query_source: "repl_main_thread",
      }),
      eventShape("assistant_response", 3, "prompt-1", { response_length: 6, response: "<REDACTED>", model: "claude-main", query_source: "repl_main_thread" }),
      eventShape("tool_decision", 4, "prompt-1", { tool_name: "Edit", tool_use_id: "t1", decision: "accept", source: "config" }),
      eventShape("tool_result", 5, "prompt-1", {
        tool_name: "Edit", tool_use_id: "t1", success: "true", duration_ms: 10, decision_type: "accept", decision_source: "config",
        tool_input_size_bytes: bytes(JSON.stringify(editCall)), tool_result_size_bytes: bytes("The file /p/src/app.ts has been updated successfully."),
      }),
      eventShape("tool_decision", 6, "prompt-1", { tool_name: "Bash", tool_use_id: "t2", decision: "accept", source: "config" }),
      eventShape("tool_result", 7, "prompt-1", {
        tool_name: "Bash", tool_use_id: "t2", success: "true", duration_ms: 10, decision_type: "accept", decision_source: "config", tool_input_size_bytes: bytes('{"command":"git commit -m fix"}'), tool_result_size_bytes: bytes("[main 1a2b3c] fix"),
      }),
    ]);
  });

  test("denials: the user's and a hook's are told apart; the call gets no tool_result; a call turned away before the gate gets nothing", () => {
    const { sink, metrics, events } = recording();
    const write = { file_path: "/p/notes.md", content: "x" };
    for (const event of [
      prompt("go"),
      { type: "tool_start", id: "w1", name: "Write", input: write },
      { type: "permission_denied", id: "w1", name: "Write", input: write, reason: rejectedByUser({ toolName: "Write", access: "write", input: write, subject: "/p/notes.md" }).reason },
      { type: "tool_end", id: "w1", name: "Write", isError: true, content: "denied" },
      { type: "tool_start", id: "b1", name: "Bash", input: { command: "rm -rf /" } },
      { type: "permission_denied", id: "b1", name: "Bash", input: { command: "rm -rf /" }, reason: rejectedByHook({ toolName: "Bash", access: "exec", input: {}, subject: "rm -rf /" }, "no").reason },
      { type: "tool_end", id: "b1", name: "Bash", isError: true, content: "denied" },
      { type: "tool_start", id: "x1", name: "Frobnicate", input: {} },
      { type: "tool_end", id: "x1", name: "Frobnicate", isError: true, content: "Error: No such tool available: Frobnicate. Available tools: Bash." },
    ] satisfies AgentEvent[]) sink.handle(event);
    expect(events.map((event) => [event.name, event.attributes.tool_name, event.attributes.decision, event.attributes.source])).toEqual([
      ["user_prompt", undefined, undefined, undefined],
      ["tool_decision", "Write", "reject", "user_reject"],
      ["tool_decision", "Bash", "reject", "hook"],
    ]);
    expect(metrics).toEqual([
      { name: "claude_code.code_edit_tool.decision", value: 1, attributes: { ...S, tool_name: "Write", decision: "reject", source: "user_reject", language: "Markdown" } },
    ]);
  });

  test("prompts: loop nudges and helper notices are not prompts; each new prompt gets a new prompt.id; an API failure is one api_error with its attempts", () => {
    const { sink, events } = recording();
    for (const event of [
      prompt("first"),
      { type: "request_start", turn: 1 },
      prompt(systemNote("continue")),
      { type: "api_retry", attempt: 1, maxRetries: 2, delayMs: 1, status: 529, category: "overloaded", message: "busy" },
      { type: "api_retry", attempt: 2, maxRetries: 2, delayMs: 1, status: 529, category: "overloaded", message: "busy" },
      { type: "turn_end", outcome: outcome({ message: "Overloaded", status: 529, category: "overloaded" }) },
      prompt(systemNote("A helper finished.")),
      prompt("second"),
    ] satisfies AgentEvent[]) sink.handle(event);
    expect(events).toEqual([
      eventShape("user_prompt", 1, "prompt-1", { prompt_length: 5, prompt: "<REDACTED>" }),
      eventShape("api_error", 2, "prompt-1", { model: "claude-main", error: "Overloaded", status_code: 529, duration_ms: 10, attempt: 3, speed: "normal", query_source: "repl_main_thread" }),
      eventShape("user_prompt", 3, "prompt-2", { prompt_length: 6, prompt: "<REDACTED>" }),
    ]);
  });

  test("a compaction: one compaction event with its trigger, duration and the tokens before", () => {
    const { sink, events } = recording();
    sink.handle({ type: "status", status: "compacting" });
    sink.handle({ type: "compact_boundary", trigger: "manual", preTokens: 12_345, messages: [] });
    sink.handle({ type: "status", status: null });
    expect(events).toEqual([eventShape("compaction", 1, undefined, { trigger: "manual", success: "true", duration_ms: 10, pre_tokens: 12_345 })]);
  });

  test("the main conversation's effort level rides on its request metrics and events; a helper's is not known", () => {
    const { sink, metrics, events } = recording("high");
    sink.handle({ type: "request_start", turn: 1 });
    sink.handle({ type: "assistant_message", message: message("claude-main", "", usage(1, 1)) });
    sink.handle({ type: "subagent", parentToolUseId: "p", agentId: "a1", agentType: "Plan", description: "d", background: false, event: { type: "assistant_message", message: message("claude-small", "", usage(1, 1)) } });
    expect(metrics.filter((metric) => metric.name === "claude_code.cost.usage").map((metric) => metric.attributes.effort)).toEqual(["high", undefined]);
    expect(events.map((event) => event.attributes.effort)).toEqual(["high", undefined]);
  });

  test("a helper's request counts as query_source subagent, its type named only when built in (a user's own agent is `custom`)", () => {
    const { sink, metrics, events } = recording("high");
    const inner = (agentType: string, agentId: string, event: AgentEvent): AgentEvent => ({ type: "subagent", parentToolUseId: "p", agentId, agentType, description: "d", background: false, event });
    sink.handle(inner("Explore", "a1", { type: "request_start", turn: 1 }));
    sink.handle(inner("Explore", "a1", { type: "assistant_message", message: message("claude-small", "", usage(1, 2)) }));
    sink.handle(inner("my-reviewer", "a2", { type: "assistant_message", message: message("claude-small", "", usage(1, 2)) }));
    expect(metrics.filter((metric) => metric.name === "claude_code.cost.usage")).toEqual([
      { name: "claude_code.cost.usage", value: 0.0002, attributes: { ...S, model: "claude-small", query_source: "subagent", "agent.name": "Explore" } },
      { name: "claude_code.cost.usage", value: 0.0002, attributes: { ...S, model: "claude-small", query_source: "subagent", "agent.name": "custom" } },
    ]);
    expect(events.map((event) => [event.name, event.attributes.query_source, event.attributes["agent.name"]])).toEqual([
      ["api_request", "Explore", "Explore"],
      ["api_request", "custom", "custom"],
    ]);
  });
});
