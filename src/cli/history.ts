/**
 * Prompt history, per project: one JSON line per submitted prompt in the project's state
 * directory, so Up recalls what was typed here before, across sessions.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

const KEEP = 500;

export function historyPath(projectStateDir: string): string {
  return join(projectStateDir, "history.jsonl");
}

/** Older entries first; unreadable lines are skipped. */
export function loadHistory(path: string): string[] {
  if (!existsSync(path)) return [];
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return [];
  }
  const entries: string[] = [];
  for (const line of text.split("\n").slice(-KEEP * 2)) {
    if (line.trim() === "") continue;
    try {
      const record = JSON.parse(line) as { display?: unknown };
      if (typeof record.display === "string" && record.display !== entries[entries.length - 1]) entries.push(record.display);
    } catch {
      // A line cut short by a crash: skip it.
    }
  }
  return entries.slice(-KEEP);
}

export function appendHistory(path: string, text: string, now: Date): void {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    appendFileSync(path, `${JSON.stringify({ display: text, timestamp: now.getTime() })}\n`, { mode: 0o600 });
  } catch {
    // History is a convenience; a read-only config dir must not break the session.
  }
}
