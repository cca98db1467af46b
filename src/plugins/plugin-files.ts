/**
 * File-system helpers the plugin loader shares: reading a JSON file into a result (never a throw),
 * and the path rules every manifest and entry path obeys (plugins.md §4): relative to the plugin
 * root, `./`-prefixed, never escaping the root.
 */
import { readFileSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import type { PluginProblem, ProblemLevel } from "./types.ts";

export type JsonRead = { kind: "missing" } | { kind: "invalid"; message: string } | { kind: "ok"; value: unknown };

export function readJson(path: string): JsonRead {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { kind: "missing" };
    return { kind: "invalid", message: `cannot read it (${code ?? String(error)})` };
  }
  try {
    // A byte-order mark is invisible in editors and makes JSON.parse fail; real files carry one now and then.
    return { kind: "ok", value: JSON.parse(text.replace(/^\uFEFF/, "")) as unknown };
  } catch (error) {
    return { kind: "invalid", message: error instanceof Error ? error.message : String(error) };
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function isDirectory(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false;
  }
}

export function exists(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

/** The real path when it resolves (symlinks followed), else the path itself: two names for one file compare equal. */
export function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

export function isInside(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/** Collects problems about one file with a shared prefix, so every finding names the file. */
export class ProblemList {
  readonly items: PluginProblem[] = [];

  add(level: ProblemLevel, code: string, file: string, message: string, field?: string): void {
    this.items.push({ level, code, file, message, ...(field === undefined ? {} : { field }) });
  }

  addAll(problems: readonly PluginProblem[]): void {
    this.items.push(...problems);
  }
}

/**
 * A path field's value as a list of path strings: a string, an array of strings, or — seen in
 * real manifests (Dev-GOM `spec-kit`), not in the spec — a map of `{ name: { source: "./x.md" } }`.
 * Returns undefined for any other shape (the caller reports it).
 */
export function pathValues(value: unknown): string[] | undefined {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.every((item) => typeof item === "string") ? (value as string[]) : undefined;
  if (isObject(value)) {
    const sources = Object.values(value).map((item) => (isObject(item) && typeof item.source === "string" ? item.source : undefined));
    return sources.every((item) => item !== undefined) ? (sources as string[]) : undefined;
  }
  return undefined;
}

export type ResolvedPath = { ok: true; path: string } | { ok: false; message: string };

/**
 * One manifest path, resolved against the plugin root. `./x` is the documented form; `.` means
 * the root (accepted for every field, since a root path is unambiguous); a bare `x` is resolved
 * the same way with a warning by the caller. Absolute paths and `..` escapes are refused.
 */
export function resolvePluginPath(root: string, value: string): ResolvedPath {
  if (value.trim() === "") return { ok: false, message: "is empty; give a path such as \"./skills\"" };
  if (isAbsolute(value)) return { ok: false, message: `"${value}" is absolute; paths are relative to the plugin root and start with "./"` };
  const path = resolve(root, value);
  if (!isInside(path, root)) return { ok: false, message: `"${value}" escapes the plugin folder; keep component files inside the plugin` };
  return { ok: true, path };
}

/** Whether a path is written the documented way (`./…`, or `.` for the root). */
export function isDotRelative(value: string): boolean {
  return value === "." || value.startsWith("./");
}
