/**
 * Read/Edit path rules with gitignore semantics (minimatch): `//abs`, `~/x`, `/x` (relative to
 * the rule's settings source), `x` and `./x` (relative to cwd); bare names match at any depth;
 * a pattern that matches a directory matches everything inside it. A path is checked as written,
 * after resolving `..`, and after resolving symlinks: deny if any form matches, allow only if
 * every resolved form does.
 */
import { globLibrary } from "../util/glob-library.ts";
import { basename, dirname, isAbsolute, join, normalize, resolve } from "node:path";
import type { PermissionRule } from "./rules.ts";
import type { PermissionContext } from "./types.ts";
import { expandHome } from "../util/expand-home.ts";

export type PathContext = Pick<PermissionContext, "cwd" | "homeDir" | "realpath" | "workingDirs">;

/** The forms of one path a rule is checked against. */
export interface PathForms {
  /** As the model wrote it, made absolute without resolving `..`. */
  written: string;
  /** `..` and `.` resolved. */
  resolved: string;
  /** Symlinks resolved (for a path that does not exist yet: its nearest existing ancestor's). */
  real: string;
}

const MATCH_OPTIONS = { dot: true, nonegate: true, nocomment: true } as const;


/** The real path of `path`, or of its nearest existing ancestor joined with the rest. */
export function realpathDeep(path: string, realpath: PathContext["realpath"]): string {
  const direct = realpath(path);
  if (direct !== undefined) return direct;
  const parent = dirname(path);
  if (parent === path) return path;
  return join(realpathDeep(parent, realpath), basename(path));
}

export function pathForms(path: string, context: PathContext): PathForms {
  const expanded = expandHome(path, context.homeDir);
  const written = isAbsolute(expanded) ? expanded : `${context.cwd.replace(/\/+$/, "")}/${expanded}`;
  const resolved = resolve(context.cwd, expanded);
  return { written, resolved, real: realpathDeep(resolved, context.realpath) };
}

/** Whether a pattern's single directory segment (`secrets/**`) should match at any depth. */
function isSingleSegmentDir(segments: readonly string[]): boolean {
  const [first, ...rest] = segments;
  return first !== undefined && !first.includes("**") && rest.length > 0 && rest.every((segment) => /^\*+$/.test(segment));
}

/** The absolute minimatch pattern a rule stands for. */
export function absolutePattern(rule: PermissionRule, context: PathContext): string | undefined {
  if (rule.target.kind !== "path") return undefined;
  const pattern = rule.target.pattern;
  if (pattern.startsWith("//")) return normalize(pattern.slice(1));
  if (pattern === "~" || pattern.startsWith("~/")) return normalize(expandHome(pattern, context.homeDir));
  if (pattern.startsWith("/")) return normalize(join(rule.source.root, pattern));
  const relative = pattern.replace(/^(\.\/)+/, "");
  if (relative === "" || relative === ".") return normalize(context.cwd);
  const segments = relative.split("/").filter((segment) => segment !== "");
  const anyDepth = segments.length === 1 || (rule.kind !== "allow" && isSingleSegmentDir(segments));
  return normalize(join(context.cwd, anyDepth ? "**" : "", segments.join("/")));
}

/** Whether `pattern` matches `path` or a directory containing it (gitignore: an ignored dir ignores its contents). */
function matchesPathOrAncestor(path: string, pattern: string): boolean {
  for (let current = path; ; current = dirname(current)) {
    if (globLibrary().minimatch(current, pattern, MATCH_OPTIONS)) return true;
    if (dirname(current) === current) return false;
  }
}

/** Deny/ask semantics: any form of the path matching is enough. */
export function pathMatchesAny(rule: PermissionRule, forms: PathForms, context: PathContext): boolean {
  if (rule.target.kind === "any") return true;
  const pattern = absolutePattern(rule, context);
  if (pattern === undefined) return false;
  return [forms.written, forms.resolved, forms.real].some((path) => matchesPathOrAncestor(path, pattern));
}

/** Allow semantics: the resolved path and its symlink target must both match. */
export function pathMatchesAll(rule: PermissionRule, forms: PathForms, context: PathContext): boolean {
  if (rule.target.kind === "any") return true;
  const pattern = absolutePattern(rule, context);
  if (pattern === undefined) return false;
  return [forms.resolved, forms.real].every((path) => matchesPathOrAncestor(path, pattern));
}

export function isInside(path: string, directory: string): boolean {
  if (directory === "/") return path.startsWith("/");
  const base = directory.replace(/\/+$/, "");
  return path === base || path.startsWith(`${base}/`);
}

/** The working directories as given and with symlinks resolved. */
export function workingRoots(context: PathContext): string[] {
  const roots = [context.cwd, ...context.workingDirs].map((dir) => resolve(context.cwd, dir));
  return [...new Set([...roots, ...roots.map((dir) => realpathDeep(dir, context.realpath))])];
}

/** Both the resolved path and its symlink target lie inside a working directory. */
export function insideWorkingDirs(forms: PathForms, context: PathContext): boolean {
  const roots = workingRoots(context);
  return [forms.resolved, forms.real].every((path) => roots.some((root) => isInside(path, root)));
}

const GLOB_CHARS = /[*?[\]{}]/;

/**
 * Whether a glob over file names in `dir` (`cat .en*`, Grep's `glob: ".env"`) may pick up a file a
 * path rule names. Best effort: only rules whose last segment is a literal name can be checked.
 */
export function globMayMatch(rule: PermissionRule, dir: string, glob: string, dot: boolean, context: PathContext): boolean {
  const pattern = absolutePattern(rule, context);
  const name = pattern === undefined ? undefined : basename(pattern);
  if (name === undefined || name === "" || GLOB_CHARS.test(name) || GLOB_CHARS.test(dir)) return false;
  if (!globLibrary().minimatch(name, glob, { dot, nonegate: true, nocomment: true })) return false;
  return pathMatchesAny(rule, pathForms(join(dir, name), context), context);
}

/** Escapes glob characters so a saved rule matches one path literally. */
export function escapePathPattern(path: string): string {
  return path.replace(/[[\]*?{}()!\\]/g, "\\$&");
}
