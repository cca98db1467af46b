/**
 * The only module that imports the SDK's runtime, and it is itself only ever loaded with
 * `await import()`. Importing the one class clew uses statically here lets the bundler drop the
 * rest of the SDK (every API resource, tool runners, webhooks): a dynamic import of the SDK's own
 * entry points keeps all of their exports, ~300 KB of code loaded for nothing. Not even the
 * Messages resource is needed: requests go through `streamPost` below.
 */
import { BaseAnthropic, type ClientOptions } from "@anthropic-ai/sdk/client";
import { Stream } from "@anthropic-ai/sdk/core/streaming";

type Fetch = NonNullable<ClientOptions["fetch"]>;

/**
 * clew always brings its own credentials (an `x-api-key` header or a bearer token, from the
 * environment paths.ts read), so the SDK must not look for others: its default credential chain
 * reads config files on disk when the client is built (~5 ms before the first request, measured)
 * and may even replace the base URL from them. This is the SDK's documented hook for that.
 */
export class ClewAnthropic extends BaseAnthropic {
  private readonly send: Fetch;

  constructor(options: ClientOptions) {
    super(options);
    this.send = options.fetch ?? fetch;
  }

  protected override _shouldResolveDefaultCredentials(): boolean {
    return false;
  }

  /**
   * One streaming POST made of the SDK's own parts: its URL, headers and auth (`buildRequest`),
   * its error for a non-2xx answer (`makeStatusError`) and its SSE stream. What the SDK's request
   * loop adds around them clew does not use — its retries and timeouts are clew's own (client.ts),
   * no middleware or tracing is registered — and cost ~0.25 ms a request (~0.8 ms on the first),
   * measured on the compiled binary.
   */
  async streamPost<Event>(path: string, body: string, headers: Record<string, string>, controller: AbortController): Promise<Stream<Event>> {
    const { req, url } = await this.buildRequest({ method: "post", path, body, headers, stream: true }, { retryCount: 0 });
    const response = await this.send(url, { ...req, method: "POST", signal: controller.signal });
    if (!response.ok) {
      const text = await response.text().catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
      const json = parseJson(text);
      throw this.makeStatusError(response.status, json ?? {}, json === undefined ? text : undefined, response.headers);
    }
    return Stream.fromSSEResponse<Event>(response, controller, this);
  }
}

function parseJson(text: string): object | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}
