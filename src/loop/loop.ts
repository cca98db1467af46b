/**
 * The agent loop: stream a reply → run the tools it asks for → send every result back in one
 * user message → repeat until the model stops. Pure orchestration: the model, the tools, the
 * permission gate and the clock all arrive through `deps`, and everything observable leaves
 * through `emit`. History stays valid at every exit (each tool_use answered).
 */
import {
  ApiFailure,
  addUsage,
  zeroUsage,
  type ApiTool,
  type AssistantMessage,
  type ContentBlockParam,
  type EffortLevel,
  type MessageParam,
  type ModelRequest,
  type StopReason,
  type StreamFn,
  type TextBlockParam,
  type ThinkingConfig,
  type TokenUsage,
} from "../model/types.ts";
import type { HookRunner } from "../hooks/outcomes.ts";
import type { Emit, LoopOutcome, PermissionDenial, TerminalReason } from "./events.ts";
import type { CallResult, ToolCall } from "./execute.ts";
import { systemNote } from "../util/system-note.ts";
import { normalizeMessages } from "./history.ts";
import { batchCalls, runBatches } from "./schedule.ts";

export interface ToolRunner {
  isReadOnly(name: string): boolean;
  execute(call: ToolCall, signal: AbortSignal, emit: Emit): Promise<CallResult>;
}

export interface LoopDeps {
  stream: StreamFn;
  tools: ToolRunner;
  /** Everything a request carries besides the messages; app/ changes model, effort and thinking mid-session. */
  request: { model: string; maxTokens: number; system: TextBlockParam[]; tools: ApiTool[]; thinking?: ThinkingConfig; effort?: EffortLevel };
  /** Final shaping of the messages just before sending (cache breakpoints). */
  prepare?: (messages: MessageParam[]) => MessageParam[];
  /**
   * Runs before every request with the usage of the previous reply: appends reminders to the
   * newest user message, compacts history when the window fills. Policy lives outside the loop.
   */
  beforeRequest?: (state: LoopState, lastUsage: TokenUsage | undefined, emit: Emit, signal: AbortSignal) => Promise<void>;
  limits: {
    maxTurns?: number;
    maxOutputRecoveries: number;
    stopHookBlockCap?: number;
    /** `--max-budget-usd` is spent (by this conversation or any other of the session): start no request. */
    budgetExceeded?: () => boolean;
  };
  now: () => number;
  /** Stop hooks (tool hooks run in the executor). */
  hooks?: HookRunner;
  /**
   * Whether every SSE event of a reply reaches `emit` as `raw_stream` (the interactive UI and
   * stream-json's partial messages read them); false for a consumer that never does, which spares
   * each of a reply's dozens of events a trip through every listener. Default true.
   */
  streamEvents?: boolean;
  /** `--json-schema`: the turn ends only once the StructuredOutput tool took a valid answer (tools/structured-output.ts). */
  finalOutput?: FinalOutputPort;
}

export interface FinalOutputPort {
  /** After a reply's tool calls: why the turn gives up (invalid answers used up the attempts), if it does. */
  exhausted(): string | undefined;
  /** When the model stopped: end the turn, remind it to answer, or give up. */
  atEnd(): { kind: "done" } | { kind: "remind"; text: string } | { kind: "exhausted"; message: string };
  /** The answer given this turn, taken by the turn's outcome. */
  take(): { value: unknown } | undefined;
}

export interface LoopState {
  messages: MessageParam[];
}

const CONTINUE_AFTER_CUTOFF = systemNote(
  "Your previous response was cut off because it reached the output token limit. Continue exactly where you stopped, without repeating what you already wrote.",
);

function cutOffToolNote(names: string[]): string {
  return systemNote(
    `Your call to ${names.join(", ")} was cut off by the output token limit before its input was complete, so it was not run. Retry with less output per call (for example, write a large file in several smaller steps).`,
  );
}

function textOf(message: AssistantMessage): string {
  return message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
}

type StreamResult = { message: AssistantMessage } | { failure: ApiFailure };

async function streamReply(deps: LoopDeps, messages: MessageParam[], emit: Emit, signal: AbortSignal): Promise<StreamResult> {
  // History goes back exactly as recorded, calls to tools no longer offered included: the API
  // accepts them, and rewriting them would teach the model to write calls as text.
  const normalized = normalizeMessages(messages);
  const request: ModelRequest = { ...deps.request, messages: deps.prepare ? deps.prepare(normalized) : normalized };
  try {
    for await (const event of deps.stream(request, signal)) {
      switch (event.type) {
        case "raw":
          if (deps.streamEvents !== false) emit({ type: "raw_stream", event: event.event });
          break;
        case "text_delta":
          emit({ type: "text_delta", text: event.text });
          break;
        case "thinking_delta":
          emit({ type: "thinking_delta", text: event.text });
          break;
        case "retry":
          emit({ ...event, type: "api_retry" });
          break;
        case "message":
          return { message: event.message };
      }
    }
    return { failure: new ApiFailure("connection", null, "The API stream ended without a message") };
  } catch (thrown) {
    if (thrown instanceof ApiFailure) return { failure: thrown };
    if (signal.aborted) return { failure: new ApiFailure("aborted", null, "Request aborted") };
    return { failure: new ApiFailure("unknown", null, thrown instanceof Error ? thrown.message : String(thrown)) };
  }
}

export async function runLoop(state: LoopState, deps: LoopDeps, emit: Emit, signal: AbortSignal): Promise<LoopOutcome> {
  let usage: TokenUsage = zeroUsage();
  let apiMs = 0;
  let numTurns = 0;
  let recoveries = 0;
  let stopReason: StopReason | null = null;
  let finalText = "";
  let lastUsage: TokenUsage | undefined;
  let stopBlocks = 0;
  const denials: PermissionDenial[] = [];

  const finish = (reason: TerminalReason, error?: LoopOutcome["error"]): LoopOutcome => {
    const answer = deps.finalOutput?.take();
    const outcome: LoopOutcome = { reason, stopReason, numTurns, finalText, usage, apiMs, denials, ...(error ? { error } : {}), ...(answer ? { structuredOutput: answer.value } : {}) };
    emit({ type: "turn_end", outcome });
    return outcome;
  };

  for (;;) {
    if (deps.limits.maxTurns !== undefined && numTurns >= deps.limits.maxTurns) {
      numTurns += 1; // Claude Code counts the round-trip it refused to make.
      return finish("max_turns");
    }
    if (deps.limits.budgetExceeded?.()) return finish("max_budget");
    numTurns += 1;
    await deps.beforeRequest?.(state, lastUsage, emit, signal);
    emit({ type: "request_start", turn: numTurns });
    const started = deps.now();
    const reply = await streamReply(deps, state.messages, emit, signal);
    apiMs += deps.now() - started;
    if ("failure" in reply) {
      const { failure } = reply;
      if (failure.category === "aborted" || signal.aborted) return finish("aborted_streaming");
      const reason: TerminalReason = failure.category === "prompt_too_long" ? "prompt_too_long" : "api_error";
      return finish(reason, { message: failure.message, status: failure.status, category: failure.category });
    }
    const { message } = reply;
    usage = addUsage(usage, message.usage);
    lastUsage = message.usage;
    stopReason = message.stopReason;
    emit({ type: "assistant_message", message });

    if (message.stopReason === "refusal") {
      finalText = textOf(message);
      emit({ type: "notice", level: "warning", message: "The model declined to continue with this request (stop reason: refusal)." });
      return finish("refusal");
    }

    const cutOff = new Set(message.malformedToolUseIds);
    const content = message.content.filter((block) => !(block.type === "tool_use" && cutOff.has(block.id)));
    state.messages.push({ role: "assistant", content: content as ContentBlockParam[] });
    const calls: ToolCall[] = content.flatMap((block) =>
      block.type === "tool_use" ? [{ id: block.id, name: block.name, input: block.input }] : [],
    );
    const cutOffNames = message.content.flatMap((block) => (block.type === "tool_use" && cutOff.has(block.id) ? [block.name] : []));

    if (calls.length > 0) {
      const results = await runBatches(
        batchCalls(calls, (call) => deps.tools.isReadOnly(call.name)),
        (call) => deps.tools.execute(call, signal, emit),
      );
      for (const result of results) if (result.denial) denials.push(result.denial);
      const blocks: ContentBlockParam[] = results.map((result) => result.block);
      if (cutOffNames.length > 0) blocks.push({ type: "text", text: cutOffToolNote(cutOffNames) });
      // Hook context goes after every result of the reply, as reminders (the results must come first).
      for (const text of results.flatMap((result) => result.context ?? [])) blocks.push({ type: "text", text: systemNote(text) });
      const resultMessage: MessageParam = { role: "user", content: blocks };
      state.messages.push(resultMessage);
      const data: Record<string, unknown> = {};
      for (const result of results) if (result.data !== undefined) data[result.block.tool_use_id] = result.data;
      emit({ type: "tool_results", message: resultMessage, data });
      if (signal.aborted) return finish("aborted_tools");
      const stopped = results.find((result) => result.stop !== undefined);
      if (stopped) {
        emit({ type: "notice", level: "warning", message: `A hook stopped the agent: ${stopped.stop}` });
        return finish("hook_stopped");
      }
      const gaveUp = deps.finalOutput?.exhausted();
      if (gaveUp !== undefined) {
        finalText = gaveUp;
        return finish("structured_output_retry_exhausted");
      }
      continue;
    }

    if (message.stopReason === "max_tokens" && recoveries < deps.limits.maxOutputRecoveries) {
      recoveries += 1;
      const note = cutOffNames.length > 0 ? cutOffToolNote(cutOffNames) : CONTINUE_AFTER_CUTOFF;
      const nudge: MessageParam = { role: "user", content: [{ type: "text", text: note }] };
      state.messages.push(nudge);
      emit({ type: "notice", level: "info", message: "The reply hit the output token limit; asking the model to continue." });
      emit({ type: "turn_start", message: nudge });
      continue;
    }
    if (message.stopReason === "pause_turn") continue;

    finalText = textOf(message);
    const required = deps.finalOutput?.atEnd();
    if (required?.kind === "exhausted") {
      finalText = required.message;
      return finish("structured_output_retry_exhausted");
    }
    if (required?.kind === "remind") {
      const reminder: MessageParam = { role: "user", content: [{ type: "text", text: required.text }] };
      state.messages.push(reminder);
      emit({ type: "turn_start", message: reminder });
      continue;
    }
    const held = await stopHooks(deps, finalText, stopBlocks, emit, signal);
    if (held === "stop") return finish("hook_stopped");
    if (held) {
      stopBlocks += 1;
      state.messages.push(held);
      emit({ type: "turn_start", message: held });
      continue;
    }
    return finish("completed");
  }
}

/**
 * Stop hooks when the model is done: a block (or context) continues the turn with the hook's
 * words as the next user message, up to a cap of consecutive blocks; `continue: false` stops.
 */
async function stopHooks(deps: LoopDeps, lastText: string, blocks: number, emit: Emit, signal: AbortSignal): Promise<MessageParam | "stop" | undefined> {
  const hooks = deps.hooks;
  if (!hooks?.hasHooks("Stop") || signal.aborted) return undefined;
  const outcome = await hooks.fire("Stop", { stop_hook_active: blocks > 0, last_assistant_message: lastText }, { signal });
  for (const message of [...outcome.systemMessages, ...outcome.errors]) emit({ type: "notice", level: "warning", message });
  if (outcome.stop) return "stop";
  const reasons = [...(outcome.block ? [outcome.block.reason] : []), ...outcome.additionalContext];
  if (reasons.length === 0) return undefined;
  if (blocks >= (deps.limits.stopHookBlockCap ?? 8)) {
    emit({ type: "notice", level: "warning", message: `Stop hooks blocked ${blocks} times in a row; stopping anyway.` });
    return undefined;
  }
  return { role: "user", content: [{ type: "text", text: `Stop hook feedback:\n${reasons.join("\n")}` }] };
}
