/**
 * Each fault, seen from the real SDK. These tests pin down how `@anthropic-ai/sdk` surfaces
 * every failure mode, which is what clew's model client has to handle.
 */
import { describe, expect, test } from "bun:test";
import {
  AnthropicError,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  InternalServerError,
  OverloadedError,
  RateLimitError,
} from "@anthropic-ai/sdk";
import { Anthropic } from "@anthropic-ai/sdk";
import {
  dropConnection,
  eventsBeforeFault,
  http,
  midStreamError,
  overloaded,
  rateLimited,
  reply,
  stall,
  truncate,
  type FakeServer,
} from "../../fake-anthropic/index.ts";
import { fakeServerPerTest, params, sdkClient } from "./sdk.ts";

const start = fakeServerPerTest();

/** Iterates a raw stream, returning the event types seen and what (if anything) was thrown. */
async function drain(fake: FakeServer, signal?: AbortSignal): Promise<{ seen: string[]; error: unknown }> {
  const seen: string[] = [];
  try {
    const stream = await sdkClient(fake).messages.create({ ...params(), stream: true }, signal ? { signal } : {});
    for await (const event of stream) seen.push(event.type);
    return { seen, error: null };
  } catch (error) {
    return { seen, error };
  }
}

// Long enough for the stalled events to arrive even on a loaded machine, short enough to keep the suite quick.
const abortSoon = (): AbortSignal => AbortSignal.timeout(1_000);

/** Waits (a bounded number of event-loop turns) for the server to notice the client left. */
/** Polls (bounded, generously: CI machines can be slow) until the fake saw the client go. */
async function sawClientLeave(fake: FakeServer, index = 0, limitMs = 4_000): Promise<boolean> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (fake.requests[index]?.clientAborted) return true;
    await Bun.sleep(5);
  }
  return false;
}

describe("HTTP errors", () => {
  test("429 is a RateLimitError whose retry-after header is readable", async () => {
    const fake = await start({ script: [rateLimited(7)] });
    const error = await sdkClient(fake).messages.create(params()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    if (!(error instanceof RateLimitError)) return;
    expect(error.status).toBe(429);
    expect(error.headers.get("retry-after")).toBe("7");
    expect(error.type).toBe("rate_limit_error");
    expect(error.requestID).toBe("req_fake0000000000000001");
    expect(error.error).toEqual({
      type: "error",
      error: { type: "rate_limit_error", message: "Number of request tokens has exceeded your per-minute rate limit" },
      request_id: "req_fake0000000000000001",
    });
  });

  test("a spend-cap 429 carries no retry-after", async () => {
    const fake = await start({ script: [http(429, { message: "spend limit reached" })] });
    const error = await sdkClient(fake).messages.create({ ...params(), stream: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    if (error instanceof RateLimitError) expect(error.headers.get("retry-after")).toBeNull();
  });

  test("529 is an OverloadedError, for streaming requests too (before any event)", async () => {
    const fake = await start({ script: [overloaded()] });
    const { seen, error } = await drain(fake);
    expect(seen).toEqual([]);
    expect(error).toBeInstanceOf(OverloadedError);
    expect(error).toMatchObject({ status: 529, type: "overloaded_error", apiMessage: "Overloaded" });
  });

  test("500 is an InternalServerError with type api_error", async () => {
    const fake = await start({ script: [http(500)] });
    const error = await sdkClient(fake).messages.stream(params()).finalMessage().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 500, type: "api_error" });
  });

  test("the SDK's own retries consume script steps", async () => {
    const fake = await start({
      script: [overloaded({ headers: { "retry-after-ms": "1" } }), rateLimited(0, { headers: { "retry-after-ms": "1" } }), reply().text("third time")],
    });
    const client = new Anthropic({ apiKey: "test", baseURL: fake.url, maxRetries: 2 });
    const message = await client.messages.create(params());
    expect<unknown>(message.content).toEqual([{ type: "text", text: "third time" }]);
    expect(fake.requests.map((r) => [r.step, r.headers["x-stainless-retry-count"]])).toEqual([
      [0, "0"],
      [1, "1"],
      [2, "2"],
    ]);
  });
});

describe("mid-stream error event", () => {
  test("raw iteration yields the events sent, then throws APIError(type overloaded_error)", async () => {
    const fake = await start({ script: [midStreamError(reply().text("partial answer"), 3)] });
    const { seen, error } = await drain(fake);
    expect(seen).toEqual(["message_start", "content_block_start", "content_block_delta"]);
    expect(error).toBeInstanceOf(APIError);
    expect(error).not.toBeInstanceOf(OverloadedError);
    expect(error).toMatchObject({
      status: undefined,
      type: "overloaded_error",
      apiMessage: "Overloaded",
      message: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
    });
  });

  test("messages.stream().finalMessage() rejects with the same APIError", async () => {
    const fake = await start({ script: [midStreamError(reply().text("x"), 1, { errorType: "api_error", message: "boom" })] });
    const error = await sdkClient(fake).messages.stream(params()).finalMessage().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toMatchObject({ type: "api_error", apiMessage: "boom" });
  });

  test("a non-streaming request gets the matching HTTP error instead", async () => {
    const fake = await start({ script: [midStreamError(reply().text("x"), 2)] });
    const error = await sdkClient(fake).messages.create(params()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OverloadedError);
  });

  test("the wire carries the error record after the chosen events", async () => {
    const fake = await start({ script: [midStreamError(reply().text("hi"), 2)] });
    const response = await fetch(`${fake.url}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": "k", "anthropic-version": "2023-06-01" },
      body: JSON.stringify({ ...params(), stream: true }),
    });
    const body = await response.text();
    expect(response.status).toBe(200);
    expect(body).toEndWith(
      'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n',
    );
    expect(body.match(/^event: \w+/gm)).toEqual(["event: message_start", "event: content_block_start", "event: error"]);
  });
});

describe("dropped connection", () => {
  test("raw iteration yields the events sent, then throws the fetch error (ECONNRESET)", async () => {
    const fake = await start({ script: [dropConnection(reply().text("never finished"), 3)] });
    const { seen, error } = await drain(fake);
    expect(seen).toEqual(["message_start", "content_block_start", "content_block_delta"]);
    // Not wrapped: the body is read after the SDK's request/retry layer has returned.
    expect(error).toBeInstanceOf(TypeError);
    expect(error).not.toBeInstanceOf(AnthropicError);
    expect(error).toMatchObject({ code: "ECONNRESET" });
  });

  test("messages.stream() wraps it in an AnthropicError with the TypeError as cause", async () => {
    const fake = await start({ script: [dropConnection(reply().toolUse("Bash", { command: "ls" }), 4)] });
    const error = await sdkClient(fake).messages.stream(params()).finalMessage().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AnthropicError);
    expect(error).not.toBeInstanceOf(APIError);
    expect(error).toMatchObject({ cause: { code: "ECONNRESET" } });
  });

  test("a non-streaming request fails reading the body", async () => {
    const fake = await start({ script: [dropConnection(reply().text("x"), 1)] });
    const error = await sdkClient(fake).messages.create(params()).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "ECONNRESET" });
  });
});

describe("truncated body (clean end, no message_stop)", () => {
  test("raw iteration just ends: the client must notice the missing message_stop itself", async () => {
    const fake = await start({ script: [truncate(reply().text("cut short"), 3)] });
    const { seen, error } = await drain(fake);
    expect(seen).toEqual(["message_start", "content_block_start", "content_block_delta"]);
    expect(error).toBeNull();
  });

  test("messages.stream() notices and rejects", async () => {
    const fake = await start({ script: [truncate(reply().text("cut short"), 3)] });
    const error = await sdkClient(fake).messages.stream(params()).finalMessage().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AnthropicError);
    expect(error).toMatchObject({ message: "stream ended without producing a Message with role=assistant" });
  });

  test("a non-streaming request gets half a JSON body: a SyntaxError", async () => {
    const fake = await start({ script: [truncate(reply().text("cut short"), 1)] });
    const error = await sdkClient(fake).messages.create(params()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SyntaxError);
  });
});

describe("stall", () => {
  test("raw iteration: aborting ends the loop WITHOUT an error (check signal.aborted)", async () => {
    const fake = await start({ script: [stall(reply().text("waiting"), 2)] });
    const signal = abortSoon();
    const { seen, error } = await drain(fake, signal);
    expect(seen).toEqual(["message_start", "content_block_start"]);
    expect(error).toBeNull();
    expect(signal.aborted).toBe(true);
    expect(await sawClientLeave(fake)).toBe(true);
  });

  test("messages.stream(): aborting rejects with APIUserAbortError", async () => {
    const fake = await start({ script: [stall(reply().text("waiting"), 2)] });
    const error = await sdkClient(fake).messages.stream(params(), { signal: abortSoon() }).finalMessage().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIUserAbortError);
  });

  test("stream.abort() on the helper rejects with APIUserAbortError", async () => {
    const fake = await start({ script: [stall(reply().text("waiting"), 1)] });
    const stream = sdkClient(fake).messages.stream(params());
    stream.on("streamEvent", (event) => {
      if (event.type === "message_start") stream.abort();
    });
    expect(await stream.finalMessage().catch((e: unknown) => e)).toBeInstanceOf(APIUserAbortError);
  });

  test("before any event: create() itself waits, and aborting rejects it", async () => {
    const fake = await start({ script: [stall(reply().text("waiting"), 0)] });
    const { seen, error } = await drain(fake, abortSoon());
    expect(seen).toEqual([]);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(await sawClientLeave(fake)).toBe(true);
  });

  test("non-streaming: the SDK timeout fires (APIConnectionTimeoutError)", async () => {
    const fake = await start({ script: [stall(reply().text("waiting"), 1)] });
    const error = await sdkClient(fake).messages.create(params(), { timeout: 50 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(await sawClientLeave(fake)).toBe(true);
  });

  test("closing the server resets the held connection", async () => {
    const fake = await start({ script: [stall(reply().text("waiting"), 2)] });
    const stream = await sdkClient(fake).messages.create({ ...params(), stream: true });
    const seen: string[] = [];
    const reading = (async () => {
      for await (const event of stream) {
        seen.push(event.type);
        if (seen.length === 2) void fake.close();
      }
    })();
    expect(await reading.then(() => null, (e: unknown) => e)).toMatchObject({ code: "ECONNRESET" });
    expect(seen).toEqual(["message_start", "content_block_start"]);
    const after = await sdkClient(fake).messages.create(params()).catch((e: unknown) => e);
    expect(after).toBeInstanceOf(APIConnectionError);
  });

  test("the server stops counting answer time when it starts stalling", async () => {
    const fake = await start({ script: [stall(reply().text("waiting"), 2)] });
    await drain(fake, abortSoon());
    expect(fake.requests[0]?.answeredAt).not.toBeNull();
  });

  test("a completed answer is not reported as abandoned", async () => {
    const fake = await start({ script: [reply().text("all of it")] });
    await drain(fake);
    expect(await sawClientLeave(fake, 0, 300)).toBe(false);
  });
});

test("afterEvents counts the events a client sees, not pings", () => {
  const events = reply().text("hello").events({ model: "m" });
  expect(events.map((e) => e.type).slice(0, 4)).toEqual(["message_start", "content_block_start", "ping", "content_block_delta"]);
  expect(eventsBeforeFault(events, 3).map((e) => e.type)).toEqual(["message_start", "content_block_start", "ping", "content_block_delta"]);
  expect(eventsBeforeFault(events, 0)).toEqual([]);
});
