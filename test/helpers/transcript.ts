// Reads a transcript the way `--resume` does, for assertions in scenario tests.
import { readFileSync, statSync } from "node:fs";
import { rebuildMessages } from "../../src/store/rebuild.ts";
import { readTranscript } from "../../src/store/transcript.ts";
import type { MessageParam } from "../../src/model/types.ts";

export function transcriptLines(path: string): unknown[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as unknown);
}

export function transcriptMessages(path: string): MessageParam[] {
  return rebuildMessages(readTranscript(path).records);
}

export function fileMode(path: string): number {
  return statSync(path).mode & 0o777;
}

/** A request body's messages without cache breakpoints, comparable to stored history. */
export function withoutCacheControl(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCacheControl);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) if (key !== "cache_control") out[key] = withoutCacheControl(inner);
    return out;
  }
  return value;
}

/** Drops the text blocks clew adds for the model (<system-reminder>…), leaving what was said. */
export function withoutReminders<T>(value: T): T {
  if (Array.isArray(value)) {
    return value
      .filter((item) => !(item && typeof item === "object" && (item as { type?: unknown }).type === "text" && String((item as { text?: unknown }).text).startsWith("<system-reminder>")))
      .map((item) => withoutReminders(item)) as T;
  }
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) out[key] = withoutReminders(inner);
    return out as T;
  }
  return value;
}
