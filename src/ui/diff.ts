/**
 * Diffs for the screen: a tool's unified diff (display.diff) coloured line by line, and a
 * preview of an edit that has not run yet (for the approval prompt), built from the tool input.
 */
import type { Theme } from "./theme.ts";

const MAX_DIFF_LINES = 40;

function bounded(lines: string[], max: number, theme: Theme): string[] {
  if (lines.length <= max) return lines;
  return [...lines.slice(0, max), theme.dim(`… ${lines.length - max} more lines`)];
}

/** Hunks of a unified diff, coloured; the `---`/`+++` header is left out (the tool line names the file). */
export function colorDiff(diff: string, theme: Theme, max = MAX_DIFF_LINES): string[] {
  const lines = diff.split("\n").filter((line) => !line.startsWith("--- ") && !line.startsWith("+++ ") && line !== "");
  const styled = lines.map((line) => {
    if (line.startsWith("@@")) return theme.cyan(line);
    if (line.startsWith("+")) return theme.green(line);
    if (line.startsWith("-")) return theme.red(line);
    return theme.dim(line);
  });
  return bounded(styled, max, theme);
}

function stringField(input: unknown, name: string): string | undefined {
  if (typeof input !== "object" || input === null) return undefined;
  const value = (input as Record<string, unknown>)[name];
  return typeof value === "string" ? value : undefined;
}

function linesOf(text: string): string[] {
  const lines = text.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** What an Edit/Write call would change, as -/+ lines; undefined for other tools. */
export function editPreview(toolName: string, input: unknown, theme: Theme, max = MAX_DIFF_LINES): string[] | undefined {
  if (toolName === "Edit") {
    const before = stringField(input, "old_string");
    const after = stringField(input, "new_string");
    if (before === undefined || after === undefined) return undefined;
    const removed = before === "" ? [] : linesOf(before).map((line) => theme.red(`-${line}`));
    const added = linesOf(after).map((line) => theme.green(`+${line}`));
    return bounded([...removed, ...added], max, theme);
  }
  if (toolName === "Write") {
    const content = stringField(input, "content");
    if (content === undefined) return undefined;
    return bounded(linesOf(content).map((line) => theme.green(`+${line}`)), max, theme);
  }
  return undefined;
}
