/**
 * A fake Anthropic Messages API on 127.0.0.1: each POST /v1/messages consumes the next script
 * step and is answered on the real wire format, so the real `@anthropic-ai/sdk` (and clew, via
 * ANTHROPIC_BASE_URL) runs against it unchanged. Every request is recorded and checked.
 */
import type { Server } from "bun";
import { PromptCache, estimateInputTokens, type CacheOptions } from "./cache.ts";
import type { Fault } from "./faults.ts";
import { checkRequest } from "./invariants.ts";
import type { Reply } from "./reply.ts";
import { errorResponse, jsonAnswer, jsonResponse, streamAnswer, type AnswerHooks } from "./respond.ts";
import type { Endpoint, JsonObject, RecordedRequest } from "./types.ts";

export type Step = Reply | Fault;
/** A step decided when its request arrives, e.g. from the tool_result content it carries. */
export type StepFn = (request: RecordedRequest) => Step | Promise<Step>;
export type ScriptStep = Step | StepFn;

export interface FakeAnthropicOptions {
  script?: readonly ScriptStep[];
  cache?: CacheOptions;
  /** Answer a request that breaks an invariant with a 400, as the API would. Default false. */
  rejectInvalid?: boolean;
  /** Pause between SSE records (or wire pieces, with wireChunkChars), in ms. Default 0: the whole body at once. */
  eventDelayMs?: number;
  /** Re-cut the SSE body into pieces of this many characters so records straddle reads. Default 0 (off). */
  wireChunkChars?: number;
  /**
   * Act as an endpoint without server tools (a gateway or local model behind ANTHROPIC_BASE_URL,
   * an API that lacks the tool version): a request offering one is a 400 before any script step
   * is used (a token count offering one is refused alike). `true` answers with the validation error
   * such endpoints give; a string replaces it.
   */
  rejectServerTools?: boolean | string;
  port?: number;
}

export interface FakeServer {
  /** Base URL, e.g. http://127.0.0.1:41234, for ANTHROPIC_BASE_URL or the SDK's baseURL. */
  url: string;
  requests: RecordedRequest[];
  violations: string[];
  /** Total time the server spent producing answers (received → last byte), for benchmarks. */
  answerMs(): number;
  /** Appends steps to the script. */
  enqueue(...steps: ScriptStep[]): void;
  /** Script steps not yet consumed. */
  remainingSteps(): number;
  close(): Promise<void>;
}

const now = (): number => performance.timeOrigin + performance.now();

const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function endpointOf(path: string): Endpoint {
  if (path === "/v1/messages") return "messages";
  if (path === "/v1/messages/count_tokens") return "count_tokens";
  return "other";
}

function authOf(headers: Record<string, string>): RecordedRequest["auth"] {
  if (headers["x-api-key"]) return "x-api-key";
  if (/^bearer\s+\S/i.test(headers.authorization ?? "")) return "bearer";
  return null;
}

/**
 * The tool types such an endpoint still knows. The API lists every tag it accepts in this error
 * (seen as "… expected tags: 'bash_20250124', 'custom', 'text_editor_20250124',
 * 'text_editor_20250429', 'text_editor_20250728', 'web_search_20250305'" when the type is unknown);
 * an endpoint without server tools lists the same minus web search.
 */
const CLIENT_TOOL_TAGS = "'bash_20250124', 'custom', 'text_editor_20250124', 'text_editor_20250429', 'text_editor_20250728'";

/** The error an endpoint that knows only client tools gives for the first server tool offered. */
function serverToolRefusal(body: JsonObject, setting: true | string): string | undefined {
  const tools = Array.isArray(body.tools) ? body.tools : [];
  const index = tools.findIndex((tool) => isObject(tool) && typeof tool.type === "string" && tool.type !== "custom");
  if (index < 0) return undefined;
  if (typeof setting === "string") return setting;
  const type = String((tools[index] as JsonObject).type);
  return `tools.${index}: Input tag '${type}' found using 'type' does not match any of the expected tags: ${CLIENT_TOOL_TAGS}`;
}

export async function startFakeAnthropic(options: FakeAnthropicOptions = {}): Promise<FakeServer> {
  const script: ScriptStep[] = [...(options.script ?? [])];
  const requests: RecordedRequest[] = [];
  const violations: string[] = [];
  const cache = new PromptCache(options.cache);
  const holds = new Set<() => void>();
  let cursor = 0;

  const hold = (signal: AbortSignal): Promise<void> =>
    new Promise<void>((resolve) => {
      if (signal.aborted) return resolve();
      const release = (): void => {
        holds.delete(release);
        signal.removeEventListener("abort", release);
        resolve();
      };
      holds.add(release);
      signal.addEventListener("abort", release, { once: true });
    });

  async function handle(request: Request, server: Server<undefined>): Promise<Response> {
    const receivedAt = now();
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, key) => {
      headers[key.toLowerCase()] = value;
    });
    const raw = await request.text();
    let body: JsonObject = {};
    let parseProblem: string | null = null;
    try {
      const parsed: unknown = raw === "" ? {} : JSON.parse(raw);
      if (isObject(parsed)) body = parsed;
      else parseProblem = "request body is not a JSON object";
    } catch (error) {
      parseProblem = `request body is not valid JSON: ${String(error)}`;
    }
    const record: RecordedRequest = {
      n: requests.length + 1,
      endpoint: endpointOf(url.pathname),
      method: request.method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers,
      auth: authOf(headers),
      body,
      stream: body.stream === true,
      receivedAt,
      answeredAt: null,
      step: null,
      clientAborted: false,
      cache: null,
      violations: [],
    };
    requests.push(record);
    const requestId = `req_fake${String(record.n).padStart(16, "0")}`;
    const violate = (problem: string): void => {
      record.violations.push(problem);
      violations.push(`request #${record.n} (${record.method} ${record.path}): ${problem}`);
    };
    const answered = (response: Response): Response => {
      record.answeredAt ??= now();
      return response;
    };
    const fail = (status: number, errorType: string, message: string, extra: Record<string, string> = {}): Response =>
      answered(errorResponse(status, errorType, message, requestId, extra));

    if (request.method !== "POST" || record.endpoint === "other") {
      violate(`no such endpoint: ${request.method} ${url.pathname}`);
      return fail(404, "not_found_error", `Not found: ${request.method} ${url.pathname}`);
    }
    if (!record.auth) return fail(401, "authentication_error", "x-api-key header is required");
    if (parseProblem) {
      violate(parseProblem);
      return fail(400, "invalid_request_error", parseProblem);
    }
    if (!headers["anthropic-version"]) violate("missing anthropic-version header");
    const endpoint = record.endpoint === "count_tokens" ? "count_tokens" : "messages";
    for (const problem of checkRequest(body, { endpoint })) violate(problem);
    if (options.rejectInvalid && record.violations.length > 0) {
      return fail(400, "invalid_request_error", record.violations.join("; "));
    }
    // Such an endpoint validates a token count's tools as it does a message's.
    const refusal = options.rejectServerTools ? serverToolRefusal(body, options.rejectServerTools) : undefined;
    if (refusal) return fail(400, "invalid_request_error", refusal);
    if (endpoint === "count_tokens") {
      return answered(jsonResponse({ input_tokens: estimateInputTokens(body) }, requestId));
    }

    const verdict = cache.evaluate(body);
    record.cache = verdict.stats;
    const entry = script[cursor];
    if (entry === undefined) {
      violate(`unexpected request #${record.n}: the script has ${script.length} steps and all were used`);
      return fail(500, "api_error", `fake-anthropic: unexpected request #${record.n} (script exhausted)`);
    }
    record.step = cursor;
    cursor += 1;
    let step: Step;
    try {
      step = typeof entry === "function" ? await entry(record) : entry;
    } catch (error) {
      violate(`script step ${record.step} threw: ${error instanceof Error ? error.message : String(error)}`);
      return fail(500, "api_error", "fake-anthropic: script step threw");
    }
    if (step.kind === "http") return fail(step.status, step.errorType, step.message, { ...step.headers });

    // A stalled stream must not be closed by Bun's idle timer; the client or close() ends it.
    server.timeout(request, 0);
    const hooks: AnswerHooks = {
      requestId,
      begin: verdict.commit,
      done: () => {
        record.answeredAt ??= now();
      },
      hold,
      clientLeft: () => {
        record.clientAborted = true;
      },
      signal: request.signal,
      eventDelayMs: options.eventDelayMs ?? 0,
      wireChunkChars: options.wireChunkChars ?? 0,
    };
    const reply = step.kind === "reply" ? step : step.reply;
    const fault = step.kind === "reply" ? null : step;
    const context = {
      model: typeof body.model === "string" ? body.model : "claude-fake",
      input: {
        input_tokens: verdict.stats.inputTokens,
        cache_read_input_tokens: verdict.stats.cacheReadInputTokens,
        cache_creation_input_tokens: verdict.stats.cacheCreationInputTokens,
        ephemeral_5m_input_tokens: verdict.stats.ephemeral5mInputTokens,
        ephemeral_1h_input_tokens: verdict.stats.ephemeral1hInputTokens,
      },
    };
    return record.stream ? streamAnswer(reply, fault, context, hooks) : jsonAnswer(reply, fault, context, hooks);
  }

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: options.port ?? 0,
    idleTimeout: 0,
    fetch: handle,
    // A bug in the fake itself must fail the test visibly, not hang or look like an API error.
    error(error) {
      violations.push(`fake-anthropic crashed: ${error.stack ?? error.message}`);
      return errorResponse(500, "api_error", `fake-anthropic crashed: ${error.message}`, "req_fake_crash");
    },
  });

  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    violations,
    answerMs: () => requests.reduce((sum, r) => sum + (r.answeredAt === null ? 0 : r.answeredAt - r.receivedAt), 0),
    enqueue: (...steps) => {
      script.push(...steps);
    },
    remainingSteps: () => script.length - cursor,
    close: async () => {
      for (const release of [...holds]) release();
      await server.stop(true);
    },
  };
}
