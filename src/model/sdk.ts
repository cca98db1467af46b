/**
 * The only module that imports the SDK's runtime, and it is itself only ever loaded with
 * `await import()`. Importing the one class clew uses statically here lets the bundler drop the
 * rest of the SDK (every API resource, tool runners, webhooks): a dynamic import of the SDK's own
 * entry points keeps all of their exports, ~300 KB of code loaded for nothing. Requests go through
 * the client's `post` (see client.ts), so not even the Messages resource is needed.
 */
import { BaseAnthropic } from "@anthropic-ai/sdk/client";

/**
 * clew always brings its own credentials (an `x-api-key` header or a bearer token, from the
 * environment paths.ts read), so the SDK must not look for others: its default credential chain
 * reads config files on disk when the client is built (~5 ms before the first request, measured)
 * and may even replace the base URL from them. This is the SDK's documented hook for that.
 */
export class ClewAnthropic extends BaseAnthropic {
  protected override _shouldResolveDefaultCredentials(): boolean {
    return false;
  }
}
