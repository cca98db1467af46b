/**
 * Turning a scripted step into an HTTP Response: error JSON, the JSON Message, or an SSE body
 * that may end early in one of the fault modes.
 */
import { errorBody, statusForErrorType, type StreamFault } from "./faults.ts";
import type { RenderContext, Reply } from "./reply.ts";
import { encodeEvent, splitForWire } from "./sse.ts";
import type { StreamEvent } from "./types.ts";

export interface AnswerHooks {
  requestId: string;
  /** Called when the response body begins (the point from which cache writes are readable). */
  begin(): void;
  /** Called when the server has produced its last byte (or starts stalling). */
  done(): void;
  /** Holds a stalled response open; resolves when the client leaves or the server closes. */
  hold(signal: AbortSignal): Promise<void>;
  /** Called when the client disconnects before the body is complete. */
  clientLeft(): void;
  signal: AbortSignal;
  eventDelayMs: number;
  wireChunkChars: number;
}

const encoder = new TextEncoder();

export function jsonResponse(body: unknown, requestId: string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", "request-id": requestId, ...headers },
  });
}

export function errorResponse(
  status: number,
  errorType: string,
  message: string,
  requestId: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(errorBody(errorType, message, requestId), {
    status,
    headers: { "content-type": "application/json", "request-id": requestId, ...headers },
  });
}

type Ending = "complete" | "error-event" | "reset" | "clean-end" | "stall";

const endingOf = (fault: StreamFault | null): Ending => {
  if (!fault) return "complete";
  return ({ midStreamError: "error-event", drop: "reset", truncate: "clean-end", stall: "stall" } as const)[fault.kind];
};

/** The events sent before the fault: the first `afterEvents` non-ping events and pings among them. */
export function eventsBeforeFault(events: readonly StreamEvent[], afterEvents: number): StreamEvent[] {
  const sent: StreamEvent[] = [];
  let visible = 0;
  for (const event of events) {
    if (visible >= afterEvents) break;
    sent.push(event);
    if (event.type !== "ping") visible += 1;
  }
  return sent;
}

export function streamAnswer(reply: Reply, fault: StreamFault | null, context: RenderContext, hooks: AnswerHooks): Response {
  const all = reply.events(context);
  const events = fault ? eventsBeforeFault(all, fault.afterEvents) : all;
  if (fault?.kind === "midStreamError") {
    events.push({ type: "error", error: { type: fault.errorType, message: fault.message } });
  }
  const text = events.map(encodeEvent);
  const pieces = hooks.wireChunkChars > 0 ? splitForWire(text.join(""), hooks.wireChunkChars) : text;
  const startsMessage = events.some((event) => event.type === "message_start");
  return new Response(bodyStream(pieces, endingOf(fault), fault?.resetDelayMs ?? 0, startsMessage, hooks), {
    status: 200,
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      "request-id": hooks.requestId,
    },
  });
}

/**
 * A non-streaming request meeting a stream fault: a mid-stream error becomes the matching HTTP
 * error, drop/truncate cut the JSON body in half, stall sends nothing.
 */
export function jsonAnswer(reply: Reply, fault: StreamFault | null, context: RenderContext, hooks: AnswerHooks): Response {
  if (fault?.kind === "midStreamError") {
    hooks.done();
    return errorResponse(statusForErrorType(fault.errorType), fault.errorType, fault.message, hooks.requestId);
  }
  const body = JSON.stringify(reply.message(context));
  const headers = { "content-type": "application/json", "request-id": hooks.requestId };
  if (!fault) {
    hooks.begin();
    hooks.done();
    return new Response(body, { status: 200, headers });
  }
  const cut = fault.kind === "stall" || fault.afterEvents === 0 ? "" : body.slice(0, Math.floor(body.length / 2));
  return new Response(bodyStream(cut ? [cut] : [], endingOf(fault), fault.resetDelayMs, false, hooks), { status: 200, headers });
}

function bodyStream(
  pieces: readonly string[],
  ending: Ending,
  resetDelayMs: number,
  startsMessage: boolean,
  hooks: AnswerHooks,
): ReadableStream<Uint8Array> {
  const left = new AbortController();
  let finished = false;
  left.signal.addEventListener("abort", () => {
    if (!finished) hooks.clientLeft();
  });
  const onAbort = (): void => left.abort();
  if (hooks.signal.aborted) left.abort();
  hooks.signal.addEventListener("abort", onAbort, { once: true });
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      try {
        for (const [i, piece] of pieces.entries()) {
          if (left.signal.aborted) return;
          if (i === 0 && startsMessage) hooks.begin();
          controller.enqueue(encoder.encode(piece));
          if (hooks.eventDelayMs > 0 && i < pieces.length - 1) await Bun.sleep(hooks.eventDelayMs);
        }
        if (left.signal.aborted) return;
        if (ending === "reset") {
          // Give the client time to read what was sent: a reset discards unread bytes.
          await Bun.sleep(resetDelayMs);
          hooks.done();
          finished = true;
          // Erroring with undefined makes Bun reset the connection without logging a stack.
          controller.error(undefined);
          return;
        }
        if (ending === "stall") {
          hooks.done();
          await hooks.hold(left.signal);
          if (left.signal.aborted) return;
          finished = true;
          controller.error(undefined);
          return;
        }
        hooks.done();
        finished = true;
        controller.close();
      } catch {
        // The client went away mid-write; nothing is left to answer.
      } finally {
        finished = true;
        hooks.signal.removeEventListener("abort", onAbort);
        hooks.done();
      }
    },
    cancel() {
      left.abort();
    },
  });
}
