/**
 * The JSON body of a streaming Messages request, built from pieces serialized once each.
 *
 * Every request carries the whole conversation, so serializing it whole each time costs a session
 * O(steps²): at 30 steps it was ~0.2 ms of every step's ~2 ms, growing with the history. The
 * system prompt, the tool list and each message are serialized the first time they are sent and
 * reused while they are the same objects. Stored history is never edited in place (a change —
 * reminders, trimmed results, breakpoints — always makes a new message; see loop/history.ts and
 * context/cache-points.ts), and a piece whose array changed length is serialized again anyway.
 * The result parses to exactly what `JSON.stringify` of the request object gives.
 */
import type { ModelRequest } from "./types.ts";

interface Piece {
  json: string;
  /** The array the piece was serialized from, and its length then: an in-place push is noticed. */
  items: readonly unknown[] | undefined;
  length: number;
}

/** The array a value serializes, if it is one or holds one as its content (a message). */
function itemsOf(value: object): readonly unknown[] | undefined {
  if (Array.isArray(value)) return value;
  const content = (value as { content?: unknown }).content;
  return Array.isArray(content) ? content : undefined;
}

export class RequestEncoder {
  private readonly pieces = new WeakMap<object, Piece>();

  private json(value: object): string {
    const items = itemsOf(value);
    const known = this.pieces.get(value);
    if (known && known.items === items && known.length === (items?.length ?? 0)) return known.json;
    const json = JSON.stringify(value);
    this.pieces.set(value, { json, items, length: items?.length ?? 0 });
    return json;
  }

  /** The body `messages.create` would send for `request` with `stream: true`, keys in the same order. */
  encode(request: ModelRequest): string {
    const messages = request.messages.map((message) => this.json(message)).join(",");
    const thinking = request.thinking ? `,"thinking":${JSON.stringify(request.thinking)}` : "";
    const effort = request.effort ? `,"output_config":${JSON.stringify({ effort: request.effort })}` : "";
    return `{"model":${JSON.stringify(request.model)},"max_tokens":${JSON.stringify(request.maxTokens)},"system":${this.json(request.system)},"tools":${this.json(request.tools)},"messages":[${messages}],"stream":true${thinking}${effort}}`;
  }
}
