/**
 * The one event stream. The loop emits these; the line UI, `-p text`, `-p json`, `-p stream-json`
 * and the transcript recorder are all consumers. No mode re-implements the loop.
 */
import type {
  ApiErrorCategory,
  AssistantMessage,
  ContentBlockParam,
  MessageParam,
  RawMessageStreamEvent,
  RetryInfo,
  StopReason,
  TokenUsage,
} from "../model/types.ts";
import type { ToolDisplay } from "../tools/types.ts";

export type TerminalReason =
  | "completed"
  | "max_turns"
  /** `--max-budget-usd` was reached. */
  | "max_budget"
  | "api_error"
  | "refusal"
  | "aborted_streaming"
  | "aborted_tools"
  | "prompt_too_long"
  /** A UserPromptSubmit hook blocked the prompt: nothing was sent. */
  | "prompt_blocked"
  /** A hook said `continue: false`. */
  | "hook_stopped"
  /** `--json-schema`: no answer matched the schema within the attempts allowed. */
  | "structured_output_retry_exhausted";

export interface PermissionDenial {
  tool_name: string;
  tool_use_id: string;
  tool_input: unknown;
  /** Why, as the model was told (clew's addition to Claude Code's shape): which rule, or which rule did not apply and why. */
  reason: string;
}

export interface LoopOutcome {
  reason: TerminalReason;
  /** Last API stop reason seen. */
  stopReason: StopReason | null;
  /** Model round-trips made in this turn. */
  numTurns: number;
  /** Text of the final assistant message (empty when none). */
  finalText: string;
  usage: TokenUsage;
  apiMs: number;
  error?: { message: string; status: number | null; category: ApiErrorCategory };
  denials: PermissionDenial[];
  /** `--json-schema`: the answer StructuredOutput took this turn (absent: none was given). */
  structuredOutput?: unknown;
}

export type AgentEvent =
  | { type: "turn_start"; message: MessageParam }
  | { type: "request_start"; turn: number }
  | { type: "raw_stream"; event: RawMessageStreamEvent }
  | { type: "text_delta"; text: string }
  | { type: "thinking_delta"; text: string }
  | ({ type: "api_retry" } & RetryInfo)
  | { type: "assistant_message"; message: AssistantMessage }
  | { type: "tool_start"; id: string; name: string; input: unknown }
  | {
      type: "tool_end";
      id: string;
      name: string;
      isError: boolean;
      /** Model-facing content, as sent in the tool_result block. */
      content: string | ContentBlockParam[];
      display?: ToolDisplay;
      data?: unknown;
    }
  /** The single user message carrying every tool_result of one assistant reply. */
  | { type: "tool_results"; message: MessageParam; data: Record<string, unknown> }
  | { type: "permission_denied"; id: string; name: string; input: unknown; reason: string }
  | { type: "notice"; level: "info" | "warning"; message: string }
  /** Context for the model appended to the newest user message (date, files changed on disk…). */
  | { type: "reminder"; text: string }
  /** History was replaced by a summary plus the most recent messages. */
  | {
      type: "compact_boundary";
      trigger: "auto" | "manual";
      preTokens: number;
      /** The complete new history, summary first. */
      messages: MessageParam[];
    }
  | { type: "status"; status: "compacting" | null }
  /** A hook started / finished (stream-json `system/hook_started`, `system/hook_response`; the transcript). */
  | { type: "hook_started"; frame: Record<string, unknown> }
  | { type: "hook_response"; frame: Record<string, unknown>; record: HookRunSummary }
  | { type: "turn_end"; outcome: LoopOutcome }
  /** Something a helper agent did (its own loop's event), tagged with the Agent call that started it. */
  | { type: "subagent"; parentToolUseId: string; agentId: string; agentType: string; description: string; background: boolean; event: AgentEvent };

/** What the transcript keeps of one hook run. */
export interface HookRunSummary {
  event: string;
  hookName: string;
  matcher?: string;
  command: string;
  durationMs: number;
  exitCode?: number;
  outcome: string;
  stderr: string;
}

export type Emit = (event: AgentEvent) => void;
