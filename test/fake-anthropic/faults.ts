/**
 * Fault steps: what can go wrong between the client and the API, each reproduced on the wire
 * the way the real service (or the network) does it.
 *
 * `afterEvents` counts the stream events a client can see, i.e. not `ping`s (which the SDK drops):
 * `afterEvents: 1` sends just `message_start`.
 */
import type { Reply } from "./reply.ts";

export type ErrorType =
  | "invalid_request_error"
  | "authentication_error"
  | "billing_error"
  | "permission_error"
  | "not_found_error"
  | "conflict_error"
  | "request_too_large"
  | "rate_limit_error"
  | "api_error"
  | "timeout_error"
  | "overloaded_error";

export interface HttpFault {
  readonly kind: "http";
  readonly status: number;
  readonly errorType: ErrorType | string;
  readonly message: string;
  readonly headers: Readonly<Record<string, string>>;
}

export interface StreamFault {
  /**
   * - midStreamError: HTTP 200, some events, then `event: error` and a clean end.
   * - drop: some events, then the connection is reset (no message_stop, no clean end).
   * - truncate: some events, then the body ends cleanly without message_stop.
   * - stall: some events, then silence with the connection held open.
   */
  readonly kind: "midStreamError" | "drop" | "truncate" | "stall";
  readonly reply: Reply;
  readonly afterEvents: number;
  readonly errorType: ErrorType | string;
  readonly message: string;
  /** drop only: how long to wait after the last event before resetting (see dropConnection). */
  readonly resetDelayMs: number;
}

export type Fault = HttpFault | StreamFault;

const DEFAULT_ERROR_TYPE: Readonly<Record<number, ErrorType>> = {
  400: "invalid_request_error",
  401: "authentication_error",
  402: "billing_error",
  403: "permission_error",
  404: "not_found_error",
  409: "conflict_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  504: "timeout_error",
  529: "overloaded_error",
};

const DEFAULT_MESSAGE: Readonly<Record<string, string>> = {
  rate_limit_error: "Number of request tokens has exceeded your per-minute rate limit",
  overloaded_error: "Overloaded",
  api_error: "Internal server error",
  authentication_error: "invalid x-api-key",
  invalid_request_error: "Invalid request",
};

export const errorTypeForStatus = (status: number): ErrorType | string =>
  DEFAULT_ERROR_TYPE[status] ?? (status >= 500 ? "api_error" : "invalid_request_error");

/** The HTTP status the API uses for an error type (used when a stream fault hits a non-streaming request). */
export function statusForErrorType(errorType: string): number {
  for (const [status, type] of Object.entries(DEFAULT_ERROR_TYPE)) {
    if (type === errorType) return Number(status);
  }
  return 500;
}

export interface HttpFaultOptions {
  /** Seconds, sent as the `retry-after` header. Omit for a 429 that will not recover (spend cap). */
  retryAfter?: number | string;
  errorType?: ErrorType | string;
  message?: string;
  /** Extra response headers, e.g. anthropic-ratelimit-*. */
  headers?: Record<string, string>;
}

/** An error response: `{"type":"error","error":{type,message},"request_id"}` with the given status. */
export function http(status: number, options: HttpFaultOptions = {}): HttpFault {
  const errorType = options.errorType ?? errorTypeForStatus(status);
  const headers: Record<string, string> = { ...options.headers };
  if (options.retryAfter !== undefined) headers["retry-after"] = String(options.retryAfter);
  return {
    kind: "http",
    status,
    errorType,
    message: options.message ?? DEFAULT_MESSAGE[errorType] ?? `Fake ${errorType}`,
    headers,
  };
}

export const rateLimited = (retryAfter?: number, options: Omit<HttpFaultOptions, "retryAfter"> = {}): HttpFault =>
  http(429, retryAfter === undefined ? options : { ...options, retryAfter });

export const overloaded = (options: HttpFaultOptions = {}): HttpFault => http(529, options);

export const serverError = (options: HttpFaultOptions = {}): HttpFault => http(500, options);

function streamFault(
  kind: StreamFault["kind"],
  reply: Reply,
  afterEvents: number,
  options: { errorType?: ErrorType | string; message?: string; resetDelayMs?: number } = {},
): StreamFault {
  const errorType = options.errorType ?? "overloaded_error";
  return {
    kind,
    reply,
    afterEvents: Math.max(0, Math.floor(afterEvents)),
    errorType,
    message: options.message ?? DEFAULT_MESSAGE[errorType] ?? `Fake ${errorType}`,
    resetDelayMs: options.resetDelayMs ?? 250,
  };
}

/**
 * HTTP 200, `afterEvents` events of `reply`, then `event: error` (overloaded_error by default)
 * and the end of the body. A non-streaming request gets the matching HTTP error instead.
 */
export const midStreamError = (
  reply: Reply,
  afterEvents: number,
  options: { errorType?: ErrorType | string; message?: string } = {},
): StreamFault => streamFault("midStreamError", reply, afterEvents, options);

/**
 * `afterEvents` events, then a connection reset. The reset waits `resetDelayMs` (default 250)
 * after the last event: a TCP reset makes the receiving kernel discard bytes the client has
 * not read yet, so resetting at once would also swallow the events meant to arrive.
 */
export const dropConnection = (
  reply: Reply,
  afterEvents: number,
  options: { resetDelayMs?: number } = {},
): StreamFault => streamFault("drop", reply, afterEvents, options);

/** `afterEvents` events, then a clean end of the body with no message_stop. */
export const truncate = (reply: Reply, afterEvents: number): StreamFault => streamFault("truncate", reply, afterEvents);

/** `afterEvents` events, then nothing until the client aborts or the server closes. */
export const stall = (reply: Reply, afterEvents: number): StreamFault => streamFault("stall", reply, afterEvents);

/** Error body exactly as the API sends it. */
export function errorBody(errorType: string, message: string, requestId: string): string {
  return JSON.stringify({ type: "error", error: { type: errorType, message }, request_id: requestId });
}
