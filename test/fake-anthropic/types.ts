/**
 * Wire shapes the fake produces and records. They are written out here rather than taken from
 * `@anthropic-ai/sdk` so the fake states the protocol itself: if the SDK drifts from the wire
 * format, tests against the fake notice instead of silently following along.
 */

export type Json = null | boolean | number | string | Json[] | JsonObject;
export interface JsonObject {
  [key: string]: Json;
}

export type StopReason =
  | "end_turn"
  | "max_tokens"
  | "stop_sequence"
  | "tool_use"
  | "pause_turn"
  | "refusal"
  | "model_context_window_exceeded";

/** Where a cited passage comes from: a web search result (the only citations the fake produces). */
export interface WebSearchCitation {
  type: "web_search_result_location";
  url: string;
  title: string;
  /** Opaque; clients send it back unchanged. */
  encrypted_index: string;
  cited_text: string;
}

export interface TextBlock {
  type: "text";
  text: string;
  /** Present (non-empty) only on text that cites search results. */
  citations?: WebSearchCitation[];
}
export interface ToolUseBlock {
  type: "tool_use";
  id: string;
  name: string;
  input: JsonObject;
}
export interface ThinkingBlock {
  type: "thinking";
  thinking: string;
  signature: string;
}
export interface RedactedThinkingBlock {
  type: "redacted_thinking";
  data: string;
}
/** Who made a server tool call: the model itself (`direct`), as the API marks every such block. */
export interface Caller {
  type: "direct";
}

/** A call the API runs itself (web search); its result follows in the same message. */
export interface ServerToolUseBlock {
  type: "server_tool_use";
  id: string;
  name: "web_search";
  input: JsonObject;
  caller: Caller;
}

export interface WebSearchResult {
  type: "web_search_result";
  url: string;
  title: string;
  /** Opaque page content for citations; clients send it back unchanged. */
  encrypted_content: string;
  page_age: string | null;
}

export type WebSearchErrorCode = "invalid_tool_input" | "unavailable" | "max_uses_exceeded" | "too_many_requests" | "query_too_long" | "request_too_large";

export interface WebSearchToolResultBlock {
  type: "web_search_tool_result";
  tool_use_id: string;
  content: WebSearchResult[] | { type: "web_search_tool_result_error"; error_code: WebSearchErrorCode };
  caller: Caller;
}

export type ContentBlock = TextBlock | ToolUseBlock | ThinkingBlock | RedactedThinkingBlock | ServerToolUseBlock | WebSearchToolResultBlock;

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
  /** Present when the reply ran server tools: each search is billed. */
  server_tool_use?: ServerToolUsage;
  service_tier: "standard";
}

export interface ServerToolUsage {
  web_search_requests: number;
  web_fetch_requests: number;
}

/** What a scripted reply may pin down; anything left out comes from the cache simulation. */
export interface UsageOverride {
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
}

export interface Message {
  id: string;
  type: "message";
  role: "assistant";
  model: string;
  content: ContentBlock[];
  stop_reason: StopReason | null;
  stop_sequence: string | null;
  stop_details: JsonObject | null;
  usage: Usage;
}

export type BlockDelta =
  | { type: "text_delta"; text: string }
  | { type: "input_json_delta"; partial_json: string }
  | { type: "thinking_delta"; thinking: string }
  | { type: "signature_delta"; signature: string }
  | { type: "citations_delta"; citation: WebSearchCitation };

export type StreamEvent =
  | { type: "message_start"; message: Message }
  | { type: "content_block_start"; index: number; content_block: ContentBlock }
  | { type: "content_block_delta"; index: number; delta: BlockDelta }
  | { type: "content_block_stop"; index: number }
  | {
      type: "message_delta";
      delta: { stop_reason: StopReason; stop_sequence: string | null; stop_details: JsonObject | null };
      usage: {
        output_tokens: number;
        input_tokens: number;
        cache_creation_input_tokens: number;
        cache_read_input_tokens: number;
        server_tool_use?: ServerToolUsage;
      };
    }
  | { type: "message_stop" }
  | { type: "ping" }
  | { type: "error"; error: { type: string; message: string } };

/** The prompt-cache simulation's verdict on one request (see cache.ts). */
export interface CacheStats {
  /** Every input token: the three fields below add up to this. */
  totalTokens: number;
  inputTokens: number;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
  ephemeral5mInputTokens: number;
  ephemeral1hInputTokens: number;
  /** cache_control breakpoints the request carried (a top-level cache_control counts as one). */
  breakpoints: number;
}

export type Endpoint = "messages" | "count_tokens" | "other";

export interface RecordedRequest {
  /** 1-based arrival number across all endpoints; violations quote it as "request #n". */
  n: number;
  endpoint: Endpoint;
  method: string;
  /** Path without the query, e.g. "/v1/messages". */
  path: string;
  query: Record<string, string>;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** Which credential header the client sent; null when it sent none (answered 401). */
  auth: "x-api-key" | "bearer" | null;
  /** The parsed JSON body ({} when the body was not JSON). */
  body: JsonObject;
  stream: boolean;
  /** Epoch milliseconds (sub-millisecond precision). */
  receivedAt: number;
  /** When the last byte of the answer was handed to the socket; null while still answering. */
  answeredAt: number | null;
  /** Index of the script step this request consumed; null when it consumed none. */
  step: number | null;
  /** The client went away (abort, timeout) before the answer was complete, e.g. during a stall. */
  clientAborted: boolean;
  cache: CacheStats | null;
  /** This request's own violations (also appended, prefixed, to FakeServer.violations). */
  violations: string[];
}
