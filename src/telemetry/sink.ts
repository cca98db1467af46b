/**
 * Turns the session's event stream into Claude Code's metrics and events. It knows nothing of
 * OpenTelemetry: it calls a `SignalPort` (the SDK adapter in otel-sdk.ts, or a recording fake in
 * tests) with metric and event names and their attributes.
 */
import type { AgentEvent } from "../loop/events.ts";
import type { AssistantMessage, TokenUsage } from "../model/types.ts";
import { isSystemNote } from "../util/system-note.ts";
import type { Attributes, StandardAttributes } from "./attributes.ts";
import { CODE_EDIT_TOOLS, languageOf, linesChanged } from "./edits.ts";
import { byteSize, type DecisionSource, denialSource, detailAttributes, gitOutcome, resultSize, turnedAwayBeforeGate } from "./tool-facts.ts";

export type MetricName =
  | "claude_code.session.count"
  | "claude_code.lines_of_code.count"
  | "claude_code.pull_request.count"
  | "claude_code.commit.count"
  | "claude_code.cost.usage"
  | "claude_code.token.usage"
  | "claude_code.code_edit_tool.decision";

export type EventName = "user_prompt" | "assistant_response" | "api_request" | "api_error" | "tool_decision" | "tool_result" | "compaction";

export interface SignalPort {
  add(metric: MetricName, value: number, attributes: Attributes): void;
  /** `name` without the `claude_code.` prefix (it is the `event.name` attribute; the record is `claude_code.<name>`). */
  emit(name: EventName, attributes: Attributes): void;
}

export interface SinkOptions {
  standard: StandardAttributes;
  logUserPrompts: boolean;
  logAssistantResponses: boolean;
  logToolDetails: boolean;
  /** The main conversation's model now (it can change with /model). */
  model: () => string;
  /** The effort level the main conversation's requests carry, if any (it can change with /effort). */
  effort: () => string | undefined;
  startType: "fresh" | "resume" | "continue";
  costUSD: (model: string, usage: TokenUsage) => number;
  /** Monotonic milliseconds, for durations. */
  now: () => number;
  /** Wall clock, for `event.timestamp`. */
  clock: () => Date;
  newId: () => string;
}

const REDACTED = "<REDACTED>";
/** Built-in helper types are named as they are; the user's own become `custom` (as Claude Code redacts them). */
const BUILTIN_AGENTS: ReadonlySet<string> = new Set(["general-purpose", "Explore", "Plan", "statusline-setup", "output-style-setup"]);

/** One conversation's request in flight: the main one or a helper's. */
interface Requests {
  startedAt: number | undefined;
  attempts: number;
}

interface Origin {
  /** Metrics' `query_source`: `main` or `subagent`. */
  source: "main" | "subagent";
  /** Events' `query_source`: `repl_main_thread`, or the helper's type (redacted like `agent.name`). */
  eventSource: string;
  agentName?: string;
  key: string;
}

interface ToolCallState {
  name: string;
  input: unknown;
  startedAt: number;
  denied: boolean;
}

const MAIN: Origin = { source: "main", eventSource: "repl_main_thread", key: "main" };

function promptText(content: AgentEvent & { type: "turn_start" }): string | undefined {
  const blocks = typeof content.message.content === "string" ? [{ type: "text" as const, text: content.message.content }] : content.message.content;
  const texts = blocks.flatMap((block) => (block.type === "text" && !isSystemNote(block.text) ? [block.text] : []));
  const typedSomething = blocks.some((block) => block.type !== "text" && block.type !== "tool_result");
  return texts.length > 0 || typedSomething ? texts.join("\n") : undefined;
}

function replyText(message: AssistantMessage): string {
  return message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
}

export class TelemetrySink {
  private sequence = 0;
  private promptId: string | undefined;
  /** Between a turn's end and the next user prompt; loop nudges inside a turn are not prompts. */
  private awaitingPrompt = true;
  private readonly requests = new Map<string, Requests>();
  private readonly calls = new Map<string, ToolCallState>();
  /** The model each conversation last replied with, for the lines its edits changed. */
  private readonly models = new Map<string, string>();
  private compactingSince: number | undefined;

  constructor(
    private readonly port: SignalPort,
    private readonly options: SinkOptions,
  ) {}

  /** `claude_code.session.count`, once, when the session opens. */
  start(): void {
    this.port.add("claude_code.session.count", 1, { ...this.options.standard.metric, start_type: this.options.startType });
  }

  handle(event: AgentEvent, origin: Origin = MAIN): void {
    switch (event.type) {
      case "turn_start":
        if (origin === MAIN) this.userPrompt(event);
        return;
      case "request_start":
        this.requests.set(origin.key, { startedAt: this.options.now(), attempts: 1 });
        return;
      case "api_retry": {
        const request = this.requests.get(origin.key);
        if (request) request.attempts += 1;
        return;
      }
      case "assistant_message":
        this.apiRequest(event.message, origin);
        return;
      case "turn_end":
        if (event.outcome.error) this.apiError(event.outcome.error, origin);
        if (origin === MAIN) this.awaitingPrompt = true;
        return;
      case "tool_start":
        this.calls.set(event.id, { name: event.name, input: event.input, startedAt: this.options.now(), denied: false });
        return;
      case "permission_denied":
        this.denied(event.id, event.name, event.input, denialSource(event.reason));
        return;
      case "tool_end":
        this.toolEnded(event, origin);
        return;
      case "status":
        if (event.status === "compacting" && origin === MAIN) this.compactingSince = this.options.now();
        return;
      case "compact_boundary":
        if (origin === MAIN) this.compacted(event.trigger, event.preTokens);
        return;
      case "subagent": {
        const agentName = BUILTIN_AGENTS.has(event.agentType) ? event.agentType : "custom";
        this.handle(event.event, { source: "subagent", eventSource: agentName, agentName, key: event.agentId });
        return;
      }
      default:
        return;
    }
  }

  private eventAttributes(name: EventName): Attributes {
    this.sequence += 1;
    return {
      ...this.options.standard.event,
      "event.name": name,
      "event.timestamp": this.options.clock().toISOString(),
      "event.sequence": this.sequence,
      ...(this.promptId ? { "prompt.id": this.promptId } : {}),
    };
  }

  private userPrompt(event: AgentEvent & { type: "turn_start" }): void {
    if (!this.awaitingPrompt) return;
    const text = promptText(event);
    // Helper notices between turns are the session's words, not the user's.
    if (text === undefined) return;
    this.awaitingPrompt = false;
    this.promptId = this.options.newId();
    this.port.emit("user_prompt", {
      ...this.eventAttributes("user_prompt"),
      prompt_length: text.length,
      prompt: this.options.logUserPrompts ? text : REDACTED,
    });
  }

  private requestAttributes(model: string, origin: Origin): Attributes {
    return { model, query_source: origin.source, ...this.effortOf(origin), ...(origin.agentName ? { "agent.name": origin.agentName } : {}) };
  }

  /** Helpers choose their own effort, which their events do not carry: only the main conversation's is known. */
  private effortOf(origin: Origin): Attributes {
    const effort = origin === MAIN ? this.options.effort() : undefined;
    return effort ? { effort } : {};
  }

  private apiRequest(message: AssistantMessage, origin: Origin): void {
    const model = message.model || this.options.model();
    this.models.set(origin.key, model);
    const request = this.requests.get(origin.key);
    const durationMs = request?.startedAt === undefined ? 0 : Math.round(this.options.now() - request.startedAt);
    this.requests.delete(origin.key);
    const { usage } = message;
    const cost = this.options.costUSD(model, usage);
    const metric = { ...this.options.standard.metric, ...this.requestAttributes(model, origin) };
    const tokens: Array<[string, number]> = [
      ["input", usage.inputTokens],
      ["output", usage.outputTokens],
      ["cacheRead", usage.cacheReadInputTokens],
      ["cacheCreation", usage.cacheCreationInputTokens],
    ];
    for (const [type, count] of tokens) this.port.add("claude_code.token.usage", count, { ...metric, type });
    this.port.add("claude_code.cost.usage", cost, metric);
    this.port.emit("api_request", {
      ...this.eventAttributes("api_request"),
      model,
      cost_usd: cost,
      duration_ms: durationMs,
      input_tokens: usage.inputTokens,
      output_tokens: usage.outputTokens,
      cache_read_tokens: usage.cacheReadInputTokens,
      cache_creation_tokens: usage.cacheCreationInputTokens,
      speed: "normal",
      query_source: origin.eventSource,
      ...this.effortOf(origin),
      ...(origin.agentName ? { "agent.name": origin.agentName } : {}),
    });
    const text = replyText(message);
    if (text === "") return;
    this.port.emit("assistant_response", {
      ...this.eventAttributes("assistant_response"),
      response_length: text.length,
      response: this.options.logAssistantResponses ? text : REDACTED,
      model,
      query_source: origin.eventSource,
    });
  }

  private apiError(error: { message: string; status: number | null }, origin: Origin): void {
    const request = this.requests.get(origin.key);
    this.requests.delete(origin.key);
    // An interrupted request is the user's doing, not an API failure.
    if (request === undefined) return;
    this.port.emit("api_error", {
      ...this.eventAttributes("api_error"),
      model: this.options.model(),
      error: error.message,
      ...(error.status !== null ? { status_code: error.status } : {}),
      duration_ms: request.startedAt === undefined ? 0 : Math.round(this.options.now() - request.startedAt),
      attempt: request.attempts,
      speed: "normal",
      query_source: origin.eventSource,
      ...this.effortOf(origin),
    });
  }

  private compacted(trigger: "auto" | "manual", preTokens: number): void {
    const since = this.compactingSince;
    this.compactingSince = undefined;
    this.port.emit("compaction", {
      ...this.eventAttributes("compaction"),
      trigger,
      success: "true",
      ...(since !== undefined ? { duration_ms: Math.round(this.options.now() - since) } : {}),
      pre_tokens: preTokens,
    });
  }

  private decision(id: string, name: string, input: unknown, decision: "accept" | "reject", source: DecisionSource): void {
    this.port.emit("tool_decision", {
      ...this.eventAttributes("tool_decision"),
      tool_name: name,
      tool_use_id: id,
      decision,
      source,
      ...(this.options.logToolDetails ? detailAttributes(name, input, false) : {}),
    });
    if (!CODE_EDIT_TOOLS.has(name)) return;
    const path = typeof input === "object" && input !== null ? ((input as Record<string, unknown>).file_path ?? (input as Record<string, unknown>).notebook_path) : undefined;
    this.port.add("claude_code.code_edit_tool.decision", 1, { ...this.options.standard.metric, tool_name: name, decision, source, language: languageOf(path) });
  }

  private denied(id: string, name: string, input: unknown, source: DecisionSource): void {
    const call = this.calls.get(id);
    if (call) call.denied = true;
    this.decision(id, name, input, "reject", source);
  }

  private toolEnded(event: AgentEvent & { type: "tool_end" }, origin: Origin): void {
    const call = this.calls.get(event.id);
    this.calls.delete(event.id);
    if (call?.denied || (event.isError && turnedAwayBeforeGate(event.content))) return;
    const input = call?.input;
    // The executor ran it, so the gate allowed it: by rules or mode (`config`) as far as the stream tells.
    this.decision(event.id, event.name, input, "accept", "config");
    this.port.emit("tool_result", {
      ...this.eventAttributes("tool_result"),
      tool_name: event.name,
      tool_use_id: event.id,
      success: event.isError ? "false" : "true",
      duration_ms: call ? Math.round(this.options.now() - call.startedAt) : 0,
      decision_type: "accept",
      decision_source: "config",
      tool_input_size_bytes: byteSize(input),
      tool_result_size_bytes: resultSize(event.content),
      ...(this.options.logToolDetails ? detailAttributes(event.name, input, true) : {}),
      ...(this.options.logToolDetails && event.isError && typeof event.content === "string" ? { error: event.content } : {}),
    });
    if (event.isError) return;
    const made = gitOutcome(event.name, input);
    if (made) this.port.add(made === "commit" ? "claude_code.commit.count" : "claude_code.pull_request.count", 1, this.options.standard.metric);
    if (!CODE_EDIT_TOOLS.has(event.name)) return;
    const lines = linesChanged(event.name, event.display, event.data);
    if (!lines) return;
    const model = this.models.get(origin.key) ?? this.options.model();
    if (lines.added > 0) this.port.add("claude_code.lines_of_code.count", lines.added, { ...this.options.standard.metric, type: "added", model });
    if (lines.removed > 0) this.port.add("claude_code.lines_of_code.count", lines.removed, { ...this.options.standard.metric, type: "removed", model });
  }
}
