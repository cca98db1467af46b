/**
 * One GET with Bun's fetch: redirects followed only within the host (a redirect elsewhere comes
 * back as such, unfollowed), the body read up to a byte limit, everything within a time limit,
 * through the proxy the environment names.
 */
import { ToolError } from "../../util/errors.ts";
import { proxyFor } from "./web-proxy.ts";
import { isPermittedRedirect, redactUrl } from "./web-url.ts";

export interface FetchLimits {
  /** Bytes of body read; the rest is not downloaded. */
  maxBytes: number;
  /** The whole fetch, redirects and body included. */
  timeoutMs: number;
  maxRedirects: number;
}

export const DEFAULT_FETCH_LIMITS: FetchLimits = { maxBytes: 10 * 1024 * 1024, timeoutMs: 60_000, maxRedirects: 10 };

export interface FetchedBody {
  /** Where the body came from, after same-host redirects. */
  url: URL;
  status: number;
  statusText: string;
  contentType: string;
  body: Uint8Array;
  /** The body went on past `maxBytes`. */
  truncated: boolean;
}

export type FetchOutcome =
  | { kind: "body"; response: FetchedBody }
  | { kind: "redirect"; from: URL; to: URL; status: number; statusText: string };

export interface FetchOptions {
  env: Readonly<Record<string, string>>;
  signal: AbortSignal;
  limits: FetchLimits;
  userAgent: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const ACCEPT = "text/markdown, text/html;q=0.9, application/xhtml+xml;q=0.9, text/plain;q=0.8, application/json;q=0.8, */*;q=0.5";

async function readLimited(response: Response, maxBytes: number): Promise<{ body: Uint8Array; truncated: boolean }> {
  const reader = response.body?.getReader();
  if (!reader) return { body: new Uint8Array(0), truncated: false };
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.length > maxBytes) {
      chunks.push(value.subarray(0, maxBytes - size));
      size = maxBytes;
      truncated = true;
      await reader.cancel().catch(() => undefined);
      break;
    }
    chunks.push(value);
    size += value.length;
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.length;
  }
  return { body, truncated };
}

function networkError(error: unknown, url: URL, proxy: string | undefined): ToolError {
  const code = typeof error === "object" && error !== null && "code" in error ? String((error as { code: unknown }).code) : "";
  const text = error instanceof Error ? error.message : String(error);
  const via = proxy ? ` through the proxy ${redactUrl(proxy)}` : "";
  return new ToolError(`Could not fetch ${redactUrl(url)}${via}: ${code && !text.includes(code) ? `${code}: ` : ""}${text}`);
}

export async function fetchBody(start: URL, options: FetchOptions): Promise<FetchOutcome> {
  const timeout = AbortSignal.timeout(options.limits.timeoutMs);
  const signal = AbortSignal.any([options.signal, timeout]);
  const ms = options.limits.timeoutMs;
  const limit = ms < 1000 ? `${ms} ms` : `${ms % 1000 === 0 ? ms / 1000 : (ms / 1000).toFixed(1)} s`;
  const timedOut = () => new ToolError(`Fetching ${redactUrl(start)} took longer than ${limit} and was stopped.`);
  let url = start;
  for (let hop = 0; ; hop++) {
    const proxy = proxyFor(url, options.env);
    let response: Response;
    try {
      response = await fetch(url, {
        method: "GET",
        redirect: "manual",
        signal,
        headers: { "user-agent": options.userAgent, accept: ACCEPT, "accept-language": "en;q=0.9, *;q=0.5" },
        ...(proxy ? { proxy } : {}),
      });
    } catch (error) {
      if (timeout.aborted) throw timedOut();
      if (options.signal.aborted) throw error;
      throw networkError(error, url, proxy);
    }
    const location = response.headers.get("location");
    if (REDIRECTS.has(response.status) && location) {
      await response.body?.cancel().catch(() => undefined);
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new ToolError(`${redactUrl(url)} redirected to "${redactUrl(location)}", which is not a valid URL.`);
      }
      if (!isPermittedRedirect(url, next)) return { kind: "redirect", from: url, to: next, status: response.status, statusText: response.statusText };
      if (hop + 1 > options.limits.maxRedirects) throw new ToolError(`${redactUrl(start)} redirected more than ${options.limits.maxRedirects} times; the last target was ${redactUrl(next)}.`);
      url = next;
      continue;
    }
    try {
      const { body, truncated } = await readLimited(response, options.limits.maxBytes);
      return {
        kind: "body",
        response: { url, status: response.status, statusText: response.statusText, contentType: response.headers.get("content-type") ?? "", body, truncated },
      };
    } catch (error) {
      if (timeout.aborted) throw timedOut();
      if (options.signal.aborted) throw error;
      throw networkError(error, url, proxy);
    }
  }
}
