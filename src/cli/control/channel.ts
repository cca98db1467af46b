/**
 * The control channel of a stream-json session, both directions: clew's own requests to the
 * caller (`can_use_tool`, `mcp_message`) wait for the `control_response` with their id; the
 * caller's requests are answered with one success or error response each.
 */
import type { ControlRequestBody, ControlResponseBody } from "./input.ts";

export type Frame = Record<string, unknown> & { type: string };

/** A control request the caller answered with an error, or that could not be answered. */
export class ControlRequestError extends Error {}

interface Waiting {
  subtype: string;
  resolve: (response: Record<string, unknown>) => void;
  reject: (error: Error) => void;
}

export class ControlChannel {
  private readonly waiting = new Map<string, Waiting>();
  private closedWith: string | undefined;

  constructor(private readonly write: (frame: Frame) => void) {}

  /** Sends a request to the caller; resolves with its `response`, rejects on an error answer or abort. */
  request(request: ControlRequestBody, signal?: AbortSignal): Promise<Record<string, unknown>> {
    if (this.closedWith !== undefined) return Promise.reject(new ControlRequestError(this.closedWith));
    const requestId = crypto.randomUUID();
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        if (!this.waiting.delete(requestId)) return;
        this.write({ type: "control_cancel_request", request_id: requestId });
        reject(new ControlRequestError(`the ${request.subtype} request was cancelled`));
      };
      if (signal?.aborted) {
        reject(new ControlRequestError(`the ${request.subtype} request was cancelled`));
        return;
      }
      signal?.addEventListener("abort", onAbort, { once: true });
      const done = () => signal?.removeEventListener("abort", onAbort);
      this.waiting.set(requestId, {
        subtype: request.subtype,
        resolve: (response) => {
          done();
          resolve(response);
        },
        reject: (error) => {
          done();
          reject(error);
        },
      });
      this.write({ type: "control_request", request_id: requestId, request });
    });
  }

  /** Routes the caller's answer to the request waiting for it; false when no request has that id. */
  settle(response: ControlResponseBody): boolean {
    const waiting = this.waiting.get(response.request_id);
    if (!waiting) return false;
    this.waiting.delete(response.request_id);
    if (response.subtype === "success") waiting.resolve(response.response ?? {});
    else waiting.reject(new ControlRequestError(`the caller answered ${waiting.subtype} with an error: ${response.error}`));
    return true;
  }

  succeed(requestId: string, response: Record<string, unknown> = {}): void {
    this.write({ type: "control_response", response: { subtype: "success", request_id: requestId, response } });
  }

  fail(requestId: string, error: string): void {
    this.write({ type: "control_response", response: { subtype: "error", request_id: requestId, error } });
  }

  /** Standard input ended: nobody can answer any more, so every waiting request fails now. */
  close(reason: string): void {
    this.closedWith = reason;
    for (const [id, waiting] of this.waiting) {
      this.waiting.delete(id);
      waiting.reject(new ControlRequestError(reason));
    }
  }
}
