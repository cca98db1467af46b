/**
 * The model seam. The loop only sees `StreamFn`; the real implementation (client.ts) drives
 * `@anthropic-ai/sdk`, tests may drive the same SDK against the fake server.
 * Wire types are the SDK's own, imported as types only (erased at build time).
 */
import type {
  AssistantMessageParam,
  ContentBlock,
  ContentBlockParam,
  UserMessageParam,
  RawMessageStreamEvent,
  StopReason,
  TextBlockParam,
  Tool as ApiTool,
  ToolResultBlockParam,
  ToolUnion,
  Usage,
} from "@anthropic-ai/sdk/resources/messages";

/** What a request may offer: client tools, and server tools the API runs itself (web search). */
export type RequestTool = ToolUnion;

/** A conversation message: the SDK also allows mid-conversation `system` messages, clew does not. */
export type MessageParam = UserMessageParam | AssistantMessageParam;

export type {
  ApiTool,
  ContentBlock,
  ContentBlockParam,
  RawMessageStreamEvent,
  StopReason,
  TextBlockParam,
  ToolResultBlockParam,
  Usage,
};

export interface ThinkingConfig {
  type: "enabled" | "adaptive";
  budget_tokens?: number;
}

/** `output_config.effort`: how much the model spends (thinking, tool calls) on a reply. */
export type EffortLevel = "low" | "medium" | "high" | "xhigh" | "max";

export interface ModelRequest {
  model: string;
  maxTokens: number;
  system: TextBlockParam[];
  tools: RequestTool[];
  messages: MessageParam[];
  thinking?: ThinkingConfig;
  effort?: EffortLevel;
}

/** A complete assistant reply, exactly as the API produced it (thinking blocks verbatim). */
export interface AssistantMessage {
  id: string;
  model: string;
  content: ContentBlock[];
  stopReason: StopReason | null;
  usage: TokenUsage;
  /** tool_use blocks whose streamed input was not valid JSON (typically cut off by max_tokens). */
  malformedToolUseIds: string[];
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
  /** `usage.server_tool_use.web_search_requests`: searches the API ran for this reply (billed apart). */
  webSearchRequests?: number;
}

export const zeroUsage = (): TokenUsage => ({
  inputTokens: 0,
  outputTokens: 0,
  cacheReadInputTokens: 0,
  cacheCreationInputTokens: 0,
});

export function addUsage(total: TokenUsage, more: TokenUsage): TokenUsage {
  return {
    inputTokens: total.inputTokens + more.inputTokens,
    outputTokens: total.outputTokens + more.outputTokens,
    cacheReadInputTokens: total.cacheReadInputTokens + more.cacheReadInputTokens,
    cacheCreationInputTokens: total.cacheCreationInputTokens + more.cacheCreationInputTokens,
    ...((total.webSearchRequests ?? 0) + (more.webSearchRequests ?? 0) > 0 ? { webSearchRequests: (total.webSearchRequests ?? 0) + (more.webSearchRequests ?? 0) } : {}),
  };
}

export type ApiErrorCategory =
  | "authentication_failed"
  | "billing_error"
  | "rate_limit"
  | "overloaded"
  | "invalid_request"
  | "server_error"
  | "connection"
  | "stalled"
  | "prompt_too_long"
  | "aborted"
  | "unknown";

/** A failed attempt that will be retried after `delayMs`. */
export interface RetryInfo {
  attempt: number;
  maxRetries: number;
  delayMs: number;
  status: number | null;
  category: ApiErrorCategory;
  message: string;
  /** The request goes on with this model (`--fallback-model`) instead of waiting for the same one. */
  fallbackModel?: string;
}

/** What one model request produces, in order. Exactly one `message` or a thrown ApiFailure ends it. */
export type ModelEvent =
  | { type: "raw"; event: RawMessageStreamEvent }
  | { type: "text_delta"; index: number; text: string }
  | { type: "thinking_delta"; index: number; text: string }
  | ({ type: "retry" } & RetryInfo)
  | { type: "message"; message: AssistantMessage };

export type StreamFn = (request: ModelRequest, signal: AbortSignal) => AsyncIterable<ModelEvent>;

/** A model request that failed for good (after retries, or not retryable). */
export class ApiFailure extends Error {
  constructor(
    readonly category: ApiErrorCategory,
    readonly status: number | null,
    message: string,
  ) {
    super(message);
    this.name = "ApiFailure";
  }
}
