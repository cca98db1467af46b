/**
 * The real StreamFn: one streaming Messages API request through `@anthropic-ai/sdk`, with
 * clew's own retry policy (the SDK's retries are off so every attempt is visible), an idle
 * timeout on the stream body, and events normalised to ModelEvent.
 *
 * A failed attempt discards everything it streamed: the caller only ever appends the final
 * `message`, so a retry can never leave a partial or duplicate turn in history.
 */
import { applyCachePolicy, type CachePolicy } from "./cache-policy.ts";
import { MessageAccumulator } from "./accumulate.ts";
import { classifyError, retryDelayMs } from "./errors.ts";
import type { ApiKeyHelper } from "./key-helper.ts";
import { modelInfo, modelReasoning } from "./models.ts";
import { RequestEncoder } from "./request-json.ts";
import { ApiFailure, type ModelEvent, type ModelRequest, type RawMessageStreamEvent, type StreamFn } from "./types.ts";

export interface ModelClientOptions {
  apiKey?: string;
  authToken?: string;
  baseURL?: string;
  maxRetries: number;
  /**
   * CLAUDE_CODE_RETRY_WATCHDOG: 429 and 529 are retried past `maxRetries` (an unattended run
   * waits out a rate limit or an overload), for at most `maxWaitMs` of waiting when set.
   */
  retryWatchdog?: { maxWaitMs: number | undefined };
  /** Abort and retry an attempt when the stream body is silent this long. */
  idleTimeoutMs: number;
  requestTimeoutMs: number;
  headers: Record<string, string>;
  /**
   * Send `interleaved-thinking-2025-05-14` with budgeted thinking, so models that take a budget
   * (4.5 and older) may think between tool calls too; adaptive thinking interleaves by itself.
   */
  interleavedThinkingBeta?: boolean;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Called each time a request has been handed to fetch: the process waits for the API from here on. */
  onRequestSent?: () => void;
  /** Without a key or token: `apiKeyHelper`'s answer, sent as both `x-api-key` and a bearer token. */
  keyHelper?: ApiKeyHelper;
  /** The proxy the session's environment names for the endpoint (settings `env` included); none: direct. */
  proxy?: string;
  /** `--fallback-model` / `fallbackModel`, resolved: after three overloaded answers in a row a request goes on with the next. */
  fallbackModels?: readonly string[];
  /**
   * Whether each SSE event is yielded as a `raw` event too (the UI and stream-json's partial
   * messages read them). False spares a consumer that never does a promise round-trip per event.
   * Default true.
   */
  rawEvents?: boolean;
  /** DISABLE_PROMPT_CACHING / ENABLE_PROMPT_CACHING_1H: what becomes of a request's cache breakpoints (absent: as built, 5 min). */
  cachePolicy?: (model: string) => CachePolicy;
}

/** Overloaded answers in a row before a request moves to the next fallback model (as Claude Code does). */
const OVERLOADED_BEFORE_FALLBACK = 3;

/**
 * The request on `model`: its output cap fitted to that model, and thinking and effort left out
 * when the two models reason differently (a budget the other refuses would be a 400).
 */
function onFallback(request: ModelRequest, model: string): ModelRequest {
  const moved = { ...request, model, maxTokens: Math.min(request.maxTokens, modelInfo(model).maxOutputTokens) };
  if (JSON.stringify(modelReasoning(request.model)) === JSON.stringify(modelReasoning(model))) return moved;
  const { thinking: _thinking, effort: _effort, ...plain } = moved;
  return plain;
}

type Sdk = typeof import("./sdk.ts");
type ClewAnthropic = InstanceType<Sdk["ClewAnthropic"]>;
let sdkModule: Promise<Sdk> | undefined;

/**
 * Opens the connection to the endpoint now (DNS, TCP, TLS), so the first request, built a few
 * milliseconds later, finds it ready: against a remote API that is a TLS handshake off the first
 * answer. Not through a proxy, which the runtime's preconnect would go around.
 */
export function preconnect(baseURL: string | undefined, proxy: string | undefined): void {
  if (proxy) return;
  try {
    fetch.preconnect(baseURL ?? "https://api.anthropic.com");
  } catch {
    // A base URL fetch cannot parse fails the first request, which says so with the URL.
  }
}

/** Starts loading the SDK without waiting, so its parse time overlaps other start-up work. */
export function preloadSdk(): Promise<Sdk> {
  sdkModule ??= import("./sdk.ts");
  return sdkModule;
}

const INTERLEAVED_THINKING_BETA = "interleaved-thinking-2025-05-14";

/** The request's own `anthropic-beta` header when it needs a beta the session's headers lack. */
function requestBetas(request: ModelRequest, options: ModelClientOptions): Record<string, string> | undefined {
  if (!options.interleavedThinkingBeta || request.thinking?.type !== "enabled") return undefined;
  const key = Object.keys(options.headers).find((name) => name.toLowerCase() === "anthropic-beta");
  const betas = (key ? (options.headers[key] ?? "") : "").split(",").map((beta) => beta.trim()).filter(Boolean);
  if (betas.includes(INTERLEAVED_THINKING_BETA)) return undefined;
  return { [key ?? "anthropic-beta"]: [...betas, INTERLEAVED_THINKING_BETA].join(",") };
}

class StreamStalled extends Error {
  override name = "StreamStalled";
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** The runtime's fetch, and a word to `sent` once each request is on its way. */
function notifyingFetch(sent: () => void): typeof fetch {
  const notifying = (input: string | URL | Request, init?: RequestInit) => {
    const response = fetch(input, init);
    sent();
    return response;
  };
  return Object.assign(notifying, { preconnect: fetch.preconnect });
}

/** A StreamFn whose fallback model, once one was needed, holds until `newTurn()`. */
export type ModelStream = StreamFn & { newTurn(): void };

export function createStreamFn(options: ModelClientOptions): ModelStream {
  let client: ClewAnthropic | undefined;
  // The fallback a turn moved to: its later requests go there at once, as Claude Code's do.
  let fallenBack: { from: string; to: string } | undefined;
  const rawEvents = options.rawEvents !== false;
  const sleep = options.sleep ?? abortableSleep;
  const encoder = new RequestEncoder();

  async function getClient(): Promise<ClewAnthropic> {
    if (client) return client;
    const { ClewAnthropic } = await preloadSdk();
    // The bearer token outranks the key, as in Claude Code. An API key goes in `x-api-key`, the
    // header every Anthropic-compatible gateway checks (this SDK would send it as a bearer token).
    const keyHeader = !options.authToken && options.apiKey ? { "x-api-key": options.apiKey } : {};
    client = new ClewAnthropic({
      apiKey: null,
      authToken: options.authToken ?? null,
      baseURL: options.baseURL ?? null,
      maxRetries: 0,
      timeout: options.requestTimeoutMs,
      // Nothing in a clew process registers an OpenTelemetry tracer, so the SDK's span bookkeeping
      // on every request would record into a no-op.
      openTelemetry: false,
      ...(options.onRequestSent ? { fetch: notifyingFetch(options.onRequestSent) } : {}),
      // Bun's fetch takes the proxy per request; the process's own variables may not name it (settings `env`).
      ...(options.proxy ? { fetchOptions: { proxy: options.proxy } } : {}),
      defaultHeaders: { ...options.headers, ...keyHeader },
    });
    return client;
  }

  /**
   * One attempt's request, up to its response headers. Its idle timer, pushed back whenever the
   * API sends something (a timer and a promise race per SSE event cost more than the event itself),
   * measures only the API's silence: it is pushed back after the consumer has taken each event.
   * Until the headers come, the request timeout (API_TIMEOUT_MS) caps the wait too.
   */
  async function open(request: ModelRequest, signal: AbortSignal, attempt: AttemptState): Promise<AsyncIterable<RawMessageStreamEvent[]>> {
    const api = await getClient();
    const betaHeaders = requestBetas(request, options);
    const key = options.keyHelper ? await options.keyHelper.key() : undefined;
    const keyHeaders: Record<string, string> = key === undefined ? {} : { "x-api-key": key, authorization: `Bearer ${key}` };
    signal.addEventListener("abort", attempt.onOuterAbort, { once: true });
    attempt.idle = setTimeout(attempt.stall("The API sent no response headers in time"), Math.min(options.idleTimeoutMs, options.requestTimeoutMs));
    // The SDK's client sends it (headers, auth, errors, the SSE stream); the body comes
    // serialized, since most of it was serialized for the previous request already.
    const body = options.cachePolicy ? applyCachePolicy(encoder.encode(request), options.cachePolicy(request.model)) : encoder.encode(request);
    const stream = await api.streamPost<RawMessageStreamEvent>("/v1/messages", body, { "content-type": "application/json", ...betaHeaders, ...keyHeaders }, attempt.controller);
    clearTimeout(attempt.idle);
    attempt.idle = setTimeout(attempt.stall(`The API stream was silent for ${Math.round(options.idleTimeoutMs / 1000)}s`), options.idleTimeoutMs);
    return stream;
  }

  // One generator from the SDK's stream to the loop: each layer of async generators costs every
  // SSE event (dozens a reply) a promise round-trip.
  async function* streamMessage(asked: ModelRequest, signal: AbortSignal): AsyncGenerator<ModelEvent> {
    const held = fallenBack !== undefined && asked.model === fallenBack.from ? fallenBack.to : undefined;
    let request = held === undefined ? asked : onFallback(asked, held);
    let askedHelperAgain = false;
    let overloadedInARow = 0;
    /** Time spent waiting between attempts of this request (the watchdog's cap counts it). */
    let waitedMs = 0;
    let fallbacksUsed = held === undefined ? 0 : (options.fallbackModels?.indexOf(held) ?? -1) + 1;
    for (let attemptNumber = 0; ; attemptNumber++) {
      const attempt = new AttemptState(signal);
      try {
        const stream = await open(request, signal, attempt);
        const accumulator = new MessageAccumulator();
        for await (const events of stream) {
          for (const event of events) {
            accumulator.add(event);
            if (rawEvents) yield { type: "raw", event };
            if (event.type === "content_block_delta") {
              if (event.delta.type === "text_delta") yield { type: "text_delta", index: event.index, text: event.delta.text };
              if (event.delta.type === "thinking_delta") yield { type: "thinking_delta", index: event.index, text: event.delta.thinking };
            }
          }
          attempt.idle?.refresh();
        }
        if (!accumulator.complete) throw new Error("The API stream ended before message_stop (connection dropped)");
        attempt.close(signal);
        yield { type: "message", message: accumulator.finish() };
        return;
      } catch (caught) {
        attempt.close(signal);
        // Whatever the abort surfaced as (an abort error, a broken body), a stall is a stall.
        const thrown = attempt.stalled ?? caught;
        if (signal.aborted) throw new ApiFailure("aborted", null, "Request aborted");
        // The key helper's own failure says what to fix; retrying would run it again for nothing.
        if (thrown instanceof ApiFailure) throw thrown;
        const failure = classifyError(thrown);
        overloadedInARow = failure.category === "overloaded" ? overloadedInARow + 1 : 0;
        const fallback = options.fallbackModels?.[fallbacksUsed];
        if (fallback !== undefined && overloadedInARow >= OVERLOADED_BEFORE_FALLBACK) {
          yield { type: "retry", attempt: attemptNumber + 1, maxRetries: options.maxRetries, delayMs: 0, status: failure.status, category: failure.category, message: `${request.model} is overloaded; going on with the fallback model ${fallback}`, fallbackModel: fallback };
          fallenBack = { from: asked.model, to: fallback };
          request = onFallback(asked, fallback);
          fallbacksUsed++;
          overloadedInARow = 0;
          continue;
        }
        if (failure.status === 401 && options.keyHelper && !askedHelperAgain) {
          // A rotated key: the helper is asked once more, and the request goes again at once.
          askedHelperAgain = true;
          options.keyHelper.refuse();
          attemptNumber--;
          continue;
        }
        const watched = options.retryWatchdog !== undefined && (failure.status === 429 || failure.status === 529) && waitedMs < (options.retryWatchdog.maxWaitMs ?? Number.POSITIVE_INFINITY);
        if (!failure.retryable || (attemptNumber >= options.maxRetries && !watched)) {
          // Say where clew tried to go: a wrong ANTHROPIC_BASE_URL is the usual cause.
          const message =
            failure.category === "connection" || failure.category === "stalled"
              ? `${failure.message} (${options.baseURL ?? "https://api.anthropic.com"}; check ANTHROPIC_BASE_URL and the network)`
              : failure.message;
          throw new ApiFailure(failure.category, failure.status, message);
        }
        const delayMs = retryDelayMs(attemptNumber, failure.retryAfterMs);
        waitedMs += delayMs;
        yield {
          type: "retry",
          attempt: attemptNumber + 1,
          maxRetries: options.maxRetries,
          delayMs,
          status: failure.status,
          category: failure.category,
          message: failure.message,
        };
        try {
          await sleep(delayMs, signal);
        } catch {
          throw new ApiFailure("aborted", null, "Request aborted");
        }
      } finally {
        // A consumer that stops early (an abort, a `return`) ends the attempt too.
        attempt.close(signal);
      }
    }
  }

  return Object.assign(streamMessage, {
    newTurn: () => {
      fallenBack = undefined;
    },
  });
}

/** An attempt's abort controller and timers, released once it ends however it ends. */
class AttemptState {
  readonly controller = new AbortController();
  idle: ReturnType<typeof setTimeout> | undefined;
  stalled: StreamStalled | undefined;
  readonly onOuterAbort: () => void;

  constructor(signal: AbortSignal) {
    this.onOuterAbort = () => this.controller.abort(signal.reason);
  }

  stall(message: string): () => void {
    return () => {
      this.stalled = new StreamStalled(message);
      this.controller.abort(this.stalled);
    };
  }

  close(signal: AbortSignal): void {
    clearTimeout(this.idle);
    signal.removeEventListener("abort", this.onOuterAbort);
  }
}
