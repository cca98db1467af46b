/** One-line descriptions: a tool call's subject, result summaries, token counts, money, time. */
import { relative } from "node:path";
import { clip } from "./terminal.ts";

function field(input: unknown, name: string): string | undefined {
  if (typeof input !== "object" || input === null) return undefined;
  const value = (input as Record<string, unknown>)[name];
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  return undefined;
}

/** A path relative to the working directory when it is inside it, else as given. */
export function displayPath(path: string, cwd: string): string {
  if (!path.startsWith("/")) return path;
  const rel = relative(cwd, path);
  return rel === "" ? "." : rel.startsWith("..") ? path : rel;
}

/** Absolute paths inside the working directory shortened, e.g. in "Edited /repo/a.ts (+1 -1)". */
export function shortenPaths(text: string, cwd: string): string {
  if (cwd === "/" || cwd === "") return text;
  return text.split(`${cwd}/`).join("");
}

const SUBJECTS: Record<string, (input: unknown, cwd: string) => string | undefined> = {
  Read: (input, cwd) => {
    const path = field(input, "file_path");
    if (path === undefined) return undefined;
    const offset = field(input, "offset");
    const limit = field(input, "limit");
    const range = offset || limit ? ` (${offset ? `from line ${offset}` : ""}${offset && limit ? ", " : ""}${limit ? `${limit} lines` : ""})` : "";
    return `${displayPath(path, cwd)}${range}`;
  },
  Write: (input, cwd) => mapPath(field(input, "file_path"), cwd),
  Edit: (input, cwd) => mapPath(field(input, "file_path"), cwd),
  MultiEdit: (input, cwd) => mapPath(field(input, "file_path"), cwd),
  NotebookEdit: (input, cwd) => mapPath(field(input, "notebook_path"), cwd),
  Bash: (input) => {
    const command = field(input, "command");
    if (command === undefined) return undefined;
    const background = (input as { run_in_background?: unknown }).run_in_background === true ? " (background)" : "";
    return `${clip(command, 160)}${background}`;
  },
  Glob: (input, cwd) => withPlace(field(input, "pattern"), field(input, "path"), cwd),
  Grep: (input, cwd) => {
    const pattern = field(input, "pattern");
    if (pattern === undefined) return undefined;
    const glob = field(input, "glob");
    return withPlace(`"${clip(pattern, 80)}"${glob ? ` (${glob})` : ""}`, field(input, "path"), cwd);
  },
  BashOutput: (input) => field(input, "bash_id"),
  KillShell: (input) => field(input, "shell_id"),
  TodoWrite: (input) => {
    const todos = (input as { todos?: unknown }).todos;
    return Array.isArray(todos) ? `${todos.length} ${todos.length === 1 ? "item" : "items"}` : undefined;
  },
  WebFetch: (input) => field(input, "url"),
  WebSearch: (input) => field(input, "query"),
  Task: (input) => field(input, "description"),
  Agent: (input) => field(input, "description"),
};

function mapPath(path: string | undefined, cwd: string): string | undefined {
  return path === undefined ? undefined : displayPath(path, cwd);
}

function withPlace(what: string | undefined, path: string | undefined, cwd: string): string | undefined {
  if (what === undefined) return undefined;
  return path ? `${what} in ${displayPath(path, cwd)}` : what;
}

/** "src/x.ts", "npm test", "\"TODO\" in src": what a tool call is about, on one line. */
export function toolSubject(name: string, input: unknown, cwd: string): string {
  const known = SUBJECTS[name]?.(input, cwd);
  if (known !== undefined) return known;
  if (typeof input !== "object" || input === null) return "";
  const text = JSON.stringify(input);
  return text === "{}" ? "" : clip(text, 120);
}

/** The first sentence (or line) of a longer message, for one-line display. */
export function firstSentence(text: string, max = 200): string {
  const line = text.trim().split("\n")[0] ?? "";
  const end = line.search(/[.!?](\s|$)/);
  return clip(end > 0 ? line.slice(0, end + 1) : line, max);
}

/** 950 → "950", 12_345 → "12.3k", 2_500_000 → "2.5M". */
export function compactTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${Number((n / 1000).toFixed(1))}k`;
  return `${Number((n / 1_000_000).toFixed(1))}M`;
}

/** Exact count with thousands separators: 1234567 → "1,234,567". */
export function exactTokens(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

export function formatCost(usd: number): string {
  if (usd === 0) return "$0.00";
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  return `$${usd.toFixed(2)}`;
}

export function formatDuration(ms: number): string {
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)}s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes}m ${Math.round(seconds - minutes * 60)}s`;
}

/** "just now", "5m ago", "3h ago", "2d ago". */
export function relativeTime(thenMs: number, nowMs: number): string {
  const minutes = Math.floor((nowMs - thenMs) / 60_000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h ago`;
  return `${Math.floor(hours / 24)}d ago`;
}
