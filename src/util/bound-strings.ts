import { truncateMiddle } from "./truncate.ts";

/**
 * A copy of a JSON-like value whose strings are at most `maxChars` long (head and tail kept),
 * so structured tool output can go into transcripts and stream-json without carrying a huge
 * file or command output whole.
 */
export function boundStrings(value: unknown, maxChars: number): unknown {
  if (typeof value === "string") return truncateMiddle(value, maxChars);
  if (Array.isArray(value)) return value.map((item) => boundStrings(item, maxChars));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) out[key] = boundStrings(inner, maxChars);
    return out;
  }
  return value;
}
