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
  /** The previous request's messages' JSON, all of it joined, and where each one ends in it. */
  private sent: { pieces: string[]; joined: string; ends: number[] } = { pieces: [], joined: "", ends: [] };

  private json(value: object): string {
    const items = itemsOf(value);
    const known = this.pieces.get(value);
    if (known && known.items === items && known.length === (items?.length ?? 0)) return known.json;
    const json = JSON.stringify(value);
    this.pieces.set(value, { json, items, length: items?.length ?? 0 });
    return json;
  }

  /**
   * The messages' JSON, comma-joined. Each request repeats the previous one's messages but for the
   * newest two or three (the breakpoints moved), so the common run of the same objects is taken
   * from the previous join as it is; from the first message whose JSON differs on, the rest is
   * joined anew.
   */
  private joinedMessages(messages: readonly object[]): string {
    const before = this.sent;
    const pieces = messages.map((message) => this.json(message));
    let same = 0;
    // The same string object when nothing changed (a pointer compare); equal text is as good when something did.
    while (same < pieces.length && same < before.pieces.length && pieces[same] === before.pieces[same]) same++;
    const ends = before.ends.slice(0, same);
    let joined = same === 0 ? "" : before.joined.slice(0, ends[same - 1]);
    for (let index = same; index < pieces.length; index++) {
      joined += `${index === 0 ? "" : ","}${pieces[index]}`;
      ends.push(joined.length);
    }
    this.sent = { pieces, joined, ends };
    return joined;
  }

  /** The body `messages.create` would send for `request` with `stream: true`, keys in the same order. */
  encode(request: ModelRequest): string {
    const messages = this.joinedMessages(request.messages);
    const thinking = request.thinking ? `,"thinking":${JSON.stringify(request.thinking)}` : "";
    const effort = request.effort ? `,"output_config":${JSON.stringify({ effort: request.effort })}` : "";
    return `{"model":${JSON.stringify(request.model)},"max_tokens":${JSON.stringify(request.maxTokens)},"system":${this.json(request.system)},"tools":${this.json(request.tools)},"messages":[${messages}],"stream":true${thinking}${effort}}`;
  }
}
