/**
 * Cache files clew writes and reads on every start: JSON with every non-ASCII character escaped,
 * so the reader decodes the bytes as latin1 — a plain copy — instead of validating UTF-8.
 */
import { readFileSync } from "node:fs";

export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Parses a file written with `asciiJson` (throws as JSON.parse and readFileSync do). */
export function readAsciiJson(path: string): unknown {
  return JSON.parse(readFileSync(path, "latin1"));
}
