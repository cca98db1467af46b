// clew's SSE reader against the SDK's own stream, on the same bytes cut into network chunks at
// every kind of boundary: each must give the same events, and fail the same way.
import { describe, expect, test } from "bun:test";
import { APIError } from "@anthropic-ai/sdk/core/error";
import { Stream } from "@anthropic-ai/sdk/core/streaming";
import { streamError } from "../../../src/model/sdk.ts";
import { sseEventBatches } from "../../../src/model/sse.ts";

const encoder = new TextEncoder();

const headers = new Headers({ "content-type": "text/event-stream", "request-id": "req_1" });

/** How sdk.ts reads an error record: the SDK's APIError. */
const errorRecord = (data: string) => streamError(data, headers);

function responseOf(chunks: readonly Uint8Array[]): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  return new Response(body, { headers });
}

async function ours(chunks: readonly Uint8Array[]): Promise<{ events: unknown[]; batches: number } | { error: unknown }> {
  const events: unknown[] = [];
  let batches = 0;
  try {
    for await (const batch of sseEventBatches<unknown>(responseOf(chunks), new AbortController(), errorRecord)) {
      batches++;
      events.push(...batch);
    }
    return { events, batches };
  } catch (error) {
    return { error };
  }
}

async function sdks(chunks: readonly Uint8Array[]): Promise<{ events: unknown[] } | { error: unknown }> {
  const events: unknown[] = [];
  try {
    for await (const event of Stream.fromSSEResponse<unknown>(responseOf(chunks), new AbortController())) events.push(event);
    return { events };
  } catch (error) {
    return { error };
  }
}

/** Every way to cut `text`'s bytes in two (inside a UTF-8 sequence too), plus one chunk per byte. */
function cuttings(text: string): Uint8Array[][] {
  const bytes = encoder.encode(text);
  const cuts: Uint8Array[][] = [[bytes], Array.from(bytes, (_, at) => bytes.subarray(at, at + 1))];
  for (let at = 1; at < bytes.length; at++) cuts.push([bytes.subarray(0, at), bytes.subarray(at)]);
  return cuts;
}

const messageStart = { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", content: [], model: "m", stop_reason: null, usage: { input_tokens: 1, output_tokens: 0 } } };
const delta = { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "héllo 🌍\\n" } };

const record = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

describe("sseEventBatches reads what the SDK's stream reads", () => {
  const bodies: Record<string, string> = {
    "a plain reply": record("message_start", messageStart) + record("ping", { type: "ping" }) + record("content_block_delta", delta) + record("message_stop", { type: "message_stop" }),
    "CRLF line ends and a comment": `: keep-alive\r\n\r\n${record("message_start", messageStart).replaceAll("\n", "\r\n")}${record("message_stop", { type: "message_stop" }).replaceAll("\n", "\r\n")}`,
    "lone CR line ends": record("content_block_delta", delta).replaceAll("\n", "\r"),
    "a byte-order mark, data split over lines, no space after the colon": `\ufeffevent:content_block_delta\ndata:{"type":"content_block_delta",\ndata: "index":0,"delta":{"type":"text_delta","text":"x"}}\n\n`,
    "a nameless record and unknown fields": `data: {"ignored":true}\n\nid: 7\nretry: 10\nevent: message_stop\ndata: {"type":"message_stop"}\n\n`,
    "a last record without its blank line (dropped)": `${record("message_start", messageStart)}event: message_stop\ndata: {"type":"message_stop"}`,
  };

  for (const [name, body] of Object.entries(bodies)) {
    test(name, async () => {
      const expected = await sdks([encoder.encode(body)]);
      expect("events" in expected && expected.events.length).toBeGreaterThan(0);
      for (const chunks of cuttings(body)) {
        const result = await ours(chunks);
        expect("events" in result ? result.events : result).toEqual("events" in expected ? expected.events : expected);
      }
    });
  }

  test("an error record throws the SDK's APIError with the body's type, after the events before it", async () => {
    const body = record("message_start", messageStart) + record("error", { type: "error", error: { type: "overloaded_error", message: "Overloaded" } });
    for (const chunks of cuttings(body)) {
      const events: unknown[] = [];
      const thrown = await (async () => {
        try {
          for await (const batch of sseEventBatches<unknown>(responseOf(chunks), new AbortController(), errorRecord)) events.push(...batch);
        } catch (error) {
          return error;
        }
      })();
      const theirs = await sdks(chunks);
      expect(thrown).toBeInstanceOf(APIError);
      expect("error" in theirs && theirs.error).toBeInstanceOf(APIError);
      const [mine, sdk] = [thrown as APIError, (theirs as { error: APIError }).error];
      expect({ type: mine.type, message: mine.message, status: mine.status, requestID: mine.requestID }).toEqual({ type: sdk.type, message: sdk.message, status: sdk.status, requestID: sdk.requestID });
      expect(mine.type).toBe("overloaded_error");
    }
  });

  test("events a chunk completes come in one batch", async () => {
    const body = record("message_start", messageStart) + record("content_block_delta", delta) + record("message_stop", { type: "message_stop" });
    expect(await ours([encoder.encode(body)])).toEqual({ events: [messageStart, JSON.parse(JSON.stringify(delta)), { type: "message_stop" }], batches: 1 });
  });

  test("bad JSON in a record fails as the SDK's does", async () => {
    const body = "event: content_block_delta\ndata: {not json\n\n";
    const mine = await ours([encoder.encode(body)]);
    const theirs = await sdks([encoder.encode(body)]);
    expect("error" in mine && mine.error).toBeInstanceOf(SyntaxError);
    expect("error" in theirs && theirs.error).toBeInstanceOf(SyntaxError);
  });

  test("a consumer that stops early aborts the request", async () => {
    const controller = new AbortController();
    const body = record("message_start", messageStart) + record("message_stop", { type: "message_stop" });
    for await (const batch of sseEventBatches<unknown>(responseOf([encoder.encode(body)]), controller, errorRecord)) {
      expect(batch.length).toBe(2);
      break;
    }
    expect(controller.signal.aborted).toBe(true);
  });

  test("a stream read to its end leaves the request alone", async () => {
    const controller = new AbortController();
    for await (const batch of sseEventBatches<unknown>(responseOf([encoder.encode(record("message_stop", { type: "message_stop" }))]), controller, errorRecord)) expect(batch).toEqual([{ type: "message_stop" }]);
    expect(controller.signal.aborted).toBe(false);
  });
});
