/**
 * Auto memory: the index file `MEMORY.md` of the project's memory folder is loaded at session
 * start, cut to its first 200 lines or 25 KB, whichever is smaller. Topic files stay on disk for
 * the model to read with ordinary tools. The caller computes the folder
 * (`<config dir>/projects/<encoded repo root>/memory/`, or `autoMemoryDirectory`).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { InstructionFile } from "./instruction-reader.ts";

export const MEMORY_INDEX_FILE = "MEMORY.md";
export const MEMORY_INDEX_MAX_LINES = 200;
export const MEMORY_INDEX_MAX_BYTES = 25 * 1024;

export interface TruncatedText {
  text: string;
  truncated: boolean;
}

/** The longest prefix within both limits, ending at a line break whenever one fits. */
export function truncateMemoryIndex(text: string): TruncatedText {
  const tooManyLines = countLines(text) > MEMORY_INDEX_MAX_LINES;
  const withinLines = tooManyLines ? text.split("\n").slice(0, MEMORY_INDEX_MAX_LINES).join("\n") : text;
  const bytes = Buffer.from(withinLines, "utf8");
  if (bytes.length <= MEMORY_INDEX_MAX_BYTES) return { text: withinLines, truncated: tooManyLines };
  const window = bytes.subarray(0, MEMORY_INDEX_MAX_BYTES);
  const lastBreak = window.lastIndexOf(0x0a);
  // A single line longer than the limit is cut mid-line; a split character is dropped.
  const cut = lastBreak > 0 ? window.subarray(0, lastBreak) : window;
  return { text: cut.toString("utf8").replace(/\uFFFD$/, ""), truncated: true };
}

function countLines(text: string): number {
  return text === "" ? 0 : text.replace(/\n$/, "").split("\n").length;
}

/** `<memoryDir>/MEMORY.md` as an instruction file, or undefined when there is none. */
export function loadAutoMemory(options: { memoryDir: string }): InstructionFile | undefined {
  const path = join(options.memoryDir, MEMORY_INDEX_FILE);
  let text: string;
  try {
    text = readFileSync(path, "utf8").replace(/\r\n/g, "\n");
  } catch {
    return undefined;
  }
  const { text: kept, truncated } = truncateMemoryIndex(text);
  if (!truncated) return { path, label: "memory", reason: "start", content: text };
  const note =
    `[${MEMORY_INDEX_FILE} was truncated: it has ${countLines(text)} lines (${Buffer.byteLength(text)} bytes) and only ` +
    `the first ${MEMORY_INDEX_MAX_LINES} lines or ${MEMORY_INDEX_MAX_BYTES / 1024} KB are loaded. The full file is ${path}. ` +
    `Keep it a short index, one line per memory, with details in topic files.]`;
  return { path, label: "memory", reason: "start", content: `${kept.replace(/\n+$/, "")}\n\n${note}` };
}
