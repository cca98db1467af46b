/**
 * Server-sent-event framing and the chunking that makes deltas arrive the way the real API
 * sends them: text in several pieces, tool input as partial JSON cut at awkward places.
 */
import type { StreamEvent } from "./types.ts";

/** One SSE record: `event: <name>\ndata: <json>\n\n`; the JSON repeats the name in `type`. */
export function encodeEvent(event: StreamEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

export function toSseText(events: readonly StreamEvent[]): string {
  return events.map(encodeEvent).join("");
}

export interface SseRecord {
  event: string | null;
  data: string;
}

/** The inverse of toSseText, for tests and recordings (handles \n and \r\n line ends). */
export function parseSse(text: string): SseRecord[] {
  const records: SseRecord[] = [];
  let event: string | null = null;
  let data: string[] = [];
  for (const line of text.split(/\r\n|\n|\r/)) {
    if (line === "") {
      if (event !== null || data.length > 0) records.push({ event, data: data.join("\n") });
      event = null;
      data = [];
      continue;
    }
    const colon = line.indexOf(":");
    if (colon === 0) continue;
    const field = colon === -1 ? line : line.slice(0, colon);
    const rawValue = colon === -1 ? "" : line.slice(colon + 1);
    const value = rawValue.startsWith(" ") ? rawValue.slice(1) : rawValue;
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
  }
  if (event !== null || data.length > 0) records.push({ event, data: data.join("\n") });
  return records;
}

const TEXT_SIZES = [2, 7, 4, 11, 3, 17] as const;
// Small, uneven sizes: any non-trivial JSON object gets cut inside a key and inside a string.
const JSON_SIZES = [1, 4, 3, 9, 2, 6, 13, 5] as const;

/**
 * Cuts text into pieces of cycling sizes, counted in code points so a surrogate pair is never
 * split (the API never splits a character).
 */
export function splitBySizes(text: string, sizes: readonly number[] = TEXT_SIZES): string[] {
  const chars = Array.from(text);
  const pieces: string[] = [];
  let at = 0;
  for (let i = 0; at < chars.length; i++) {
    const size = Math.max(1, sizes[i % sizes.length] ?? 1);
    pieces.push(chars.slice(at, at + size).join(""));
    at += size;
  }
  return pieces;
}

export function splitText(text: string): string[] {
  return splitBySizes(text, TEXT_SIZES);
}

/** Partial JSON as the API streams it: an empty first delta, then awkwardly cut pieces. */
export function splitJson(json: string): string[] {
  return ["", ...splitBySizes(json, JSON_SIZES)];
}

/** Re-cuts encoded SSE text into byte-ish chunks so records straddle network reads. */
export function splitForWire(sse: string, chunkChars: number): string[] {
  if (chunkChars <= 0) return [sse];
  return splitBySizes(sse, [chunkChars]);
}
