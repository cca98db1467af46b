/**
 * Classifies whatever the SDK or the network threw into a category, an HTTP status and a
 * retry decision. Pure: the SDK's error classes are recognised structurally, so this module
 * needs no runtime import of the SDK.
 */
import type { ApiErrorCategory } from "./types.ts";

export interface ClassifiedError {
  category: ApiErrorCategory;
  status: number | null;
  retryable: boolean;
  /** Server-requested delay from `retry-after` / `retry-after-ms`, when present. */
  retryAfterMs: number | null;
  message: string;
}

interface ErrorLike {
  status?: unknown;
  type?: unknown;
  headers?: unknown;
  error?: unknown;
  message?: unknown;
  name?: unknown;
}

function headerValue(headers: unknown, name: string): string | null {
  if (headers && typeof (headers as Headers).get === "function") return (headers as Headers).get(name);
  return null;
}

function retryAfter(headers: unknown): number | null {
  const ms = headerValue(headers, "retry-after-ms");
  if (ms !== null && Number.isFinite(Number(ms))) return Number(ms);
  const seconds = headerValue(headers, "retry-after");
  if (seconds === null) return null;
  if (Number.isFinite(Number(seconds))) return Number(seconds) * 1000;
  const date = Date.parse(seconds);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

/** The `error.type` inside an Anthropic error body, wherever the SDK put it. */
function apiErrorType(error: unknown): string | undefined {
  if (!error || typeof error !== "object") return undefined;
  const outer = error as { type?: unknown; error?: { type?: unknown } };
  if (outer.error && typeof outer.error.type === "string") return outer.error.type;
  return typeof outer.type === "string" && outer.type !== "error" ? outer.type : undefined;
}

function byStatus(status: number): ApiErrorCategory {
  if (status === 401) return "authentication_failed";
  if (status === 402) return "billing_error";
  if (status === 429) return "rate_limit";
  if (status === 529) return "overloaded";
  if (status >= 500) return "server_error";
  return "invalid_request";
}

function byType(type: string | undefined): ApiErrorCategory | undefined {
  switch (type) {
    case "overloaded_error":
      return "overloaded";
    case "rate_limit_error":
      return "rate_limit";
    case "api_error":
    case "timeout_error":
      return "server_error";
    case "authentication_error":
      return "authentication_failed";
    case "billing_error":
      return "billing_error";
    case "invalid_request_error":
      return "invalid_request";
    default:
      return undefined;
  }
}

export function classifyError(thrown: unknown): ClassifiedError {
  const error = (thrown ?? {}) as ErrorLike;
  const message = typeof error.message === "string" ? error.message : String(thrown);
  const status = typeof error.status === "number" ? error.status : null;
  const type = apiErrorType(error.error) ?? (typeof error.type === "string" ? error.type : undefined);
  if (status !== null) {
    const category = byType(type) ?? byStatus(status);
    const promptTooLong = status === 400 && /prompt is too long/i.test(message);
    const after = retryAfter(error.headers);
    // A 429 without retry-after is a spend cap that will not recover; fail fast.
    const retryable =
      status === 408 || status === 409 || status >= 500 || (status === 429 && after !== null) ||
      category === "overloaded";
    return { category: promptTooLong ? "prompt_too_long" : category, status, retryable, retryAfterMs: after, message };
  }
  // An `error` event inside an HTTP 200 stream carries a type but no status.
  const streamCategory = byType(type);
  if (streamCategory) {
    const retryable = streamCategory === "overloaded" || streamCategory === "server_error" || streamCategory === "rate_limit";
    return { category: streamCategory, status: null, retryable, retryAfterMs: null, message };
  }
  if (error.name === "StreamStalled") {
    return { category: "stalled", status: null, retryable: true, retryAfterMs: null, message };
  }
  if (/certificate|self[- ]signed|CERT_/i.test(message)) {
    return { category: "connection", status: null, retryable: false, retryAfterMs: null, message };
  }
  return { category: "connection", status: null, retryable: true, retryAfterMs: null, message };
}

/** Exponential backoff with ±25% jitter, or the server's retry-after when it sent one. */
export function retryDelayMs(attempt: number, retryAfterMs: number | null, random: () => number = Math.random): number {
  if (retryAfterMs !== null) return Math.min(retryAfterMs, 120_000);
  const base = Math.min(500 * 2 ** attempt, 32_000);
  return Math.round(base * (0.75 + random() * 0.5));
}
