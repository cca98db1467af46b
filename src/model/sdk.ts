/**
 * The only module that imports the SDK's runtime, and it is itself only ever loaded with
 * `await import()`. Importing the one class clew uses statically here lets the bundler drop the
 * rest of the SDK (every API resource, tool runners, webhooks): a dynamic import of the SDK's own
 * entry points keeps all of their exports, ~300 KB of code loaded for nothing. Not even the
 * Messages resource is needed: requests go through `streamPost` below.
 */
import { BaseAnthropic, type ClientOptions } from "@anthropic-ai/sdk/client";
import { APIError } from "@anthropic-ai/sdk/core/error";
import { sseEventBatches } from "./sse.ts";

type Fetch = NonNullable<ClientOptions["fetch"]>;

/**
 * clew always brings its own credentials (an `x-api-key` header or a bearer token, from the
 * environment paths.ts read), so the SDK must not look for others: its default credential chain
 * reads config files on disk when the client is built (~5 ms before the first request, measured)
 * and may even replace the base URL from them. This is the SDK's documented hook for that.
 */
export class ClewAnthropic extends BaseAnthropic {
  private readonly send: Fetch;
  /** The last request's URL and init but its body, and the path and headers they were built for. */
  private built: { key: string; url: string; init: RequestInit } | undefined;

  constructor(options: ClientOptions) {
    super(options);
    this.send = options.fetch ?? fetch;
  }

  protected override _shouldResolveDefaultCredentials(): boolean {
    return false;
  }

  /**
   * One streaming POST made of the SDK's own parts: its URL, headers and auth (`buildRequest`),
   * its error for a non-2xx answer (`makeStatusError`); the SSE body is read by sse.ts. What the SDK's request
   * loop adds around them clew does not use — its retries and timeouts are clew's own (client.ts),
   * no middleware or tracing is registered — and cost ~0.25 ms a request (~0.8 ms on the first),
   * measured on the compiled binary. What `buildRequest` makes depends only on the client, the
   * path and the headers (clew's retries always send the SDK's retry count 0), so it is made again
   * only when those change: a key helper's new key, other betas.
   */
  async streamPost<Event>(path: string, body: string, headers: Record<string, string>, controller: AbortController): Promise<AsyncGenerator<Event[]>> {
    const key = `${path}\n${JSON.stringify(headers)}`;
    if (this.built?.key !== key) {
      const { req, url } = await this.buildRequest({ method: "post", path, body, headers, stream: true }, { retryCount: 0 });
      const { body: _body, signal: _signal, ...init } = req;
      this.built = { key, url, init: { ...init, method: "POST" } };
    }
    const response = await this.send(this.built.url, { ...this.built.init, body, signal: controller.signal });
    if (!response.ok) {
      const text = await response.text().catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
      const json = parseJson(text);
      throw this.makeStatusError(response.status, json ?? {}, json === undefined ? text : undefined, response.headers);
    }
    return sseEventBatches<Event>(response, controller, (data) => streamError(data, response.headers));
  }
}

/** An `error` record in a 200 stream, as the SDK's own stream reports it: its body's type included. */
export function streamError(data: string, headers: Headers): APIError {
  const body = parseJson(data);
  const error = body && "error" in body ? body.error : undefined;
  const type = typeof error === "object" && error !== null && "type" in error && typeof error.type === "string" ? (error.type as ErrorType) : undefined;
  return new APIError(undefined, body ?? data, undefined, headers, type);
}

type ErrorType = ConstructorParameters<typeof APIError>[4];

function parseJson(text: string): object | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}
