/**
 * Whether a tree a command reads recursively can reach a file that a Read deny rule covers: the
 * tree lies inside a denied directory, a denied path lies inside the tree, or (for commands that
 * follow links) a symlink in the tree leads to one. The file system is reached only through the
 * context's view, within a budget; a tree too large to check counts as reaching one.
 */
import { globLibrary } from "../util/glob-library.ts";
import { dirname, join } from "node:path";
import { absolutePattern, isInside, type PathForms } from "./path-rules.ts";
import type { PermissionRule } from "./rules.ts";
import type { PermissionContext } from "./types.ts";

export type Reach = { rule: PermissionRule; path: string } | { rule: PermissionRule; path: string; tooLarge: true };

/** Directory entries one evaluation may visit before giving up. */
const BUDGET = 50_000;
const MAX_LINK_DEPTH = 4;
const GLOB_CHARS = /[*?[\]{}]/;

export interface Denied {
  rule: PermissionRule;
  /** The absolute minimatch pattern. */
  pattern: string;
  /** The path or a directory holding it matches the rule (gitignore semantics, as path-rules.ts). */
  covers: (path: string) => boolean;
  /** The part of the pattern before its first glob: every match lies inside it. */
  prefix: string;
  literal: boolean;
}

function coverage(pattern: string): (path: string) => boolean {
  const matcher = new (globLibrary().Minimatch)(pattern, { dot: true, nonegate: true, nocomment: true });
  return (path) => {
    for (let current = path; ; current = dirname(current)) {
      if (matcher.match(current)) return true;
      if (dirname(current) === current) return false;
    }
  };
}

function literalPrefix(pattern: string): { prefix: string; literal: boolean } {
  const segments = pattern.split("/");
  const first = segments.findIndex((segment) => GLOB_CHARS.test(segment));
  if (first === -1) return { prefix: pattern, literal: true };
  return { prefix: segments.slice(0, first).join("/") || "/", literal: false };
}

const compiled = new WeakMap<readonly PermissionRule[], Map<string, Denied[]>>();

/** The Read deny rules among `rules`, compiled once per rule list and anchor. */
export function deniedReads(rules: readonly PermissionRule[], context: PermissionContext): readonly Denied[] {
  const key = `${context.cwd}\0${context.homeDir}`;
  let byAnchor = compiled.get(rules);
  if (!byAnchor) {
    byAnchor = new Map();
    compiled.set(rules, byAnchor);
  }
  const known = byAnchor.get(key);
  if (known) return known;
  const denied = rules.flatMap((rule) => {
    if (rule.tool !== "Read" || rule.target.kind !== "path") return [];
    const pattern = absolutePattern(rule, context);
    return pattern === undefined ? [] : [{ rule, pattern, covers: coverage(pattern), ...literalPrefix(pattern) }];
  });
  byAnchor.set(key, denied);
  return denied;
}

class Walker {
  private spent = 0;
  constructor(private readonly context: PermissionContext) {}

  /** The first path under `dir` (itself excluded) that `match` accepts; "overflow" past the budget. */
  find(dir: string, match: (path: string, isLink: boolean) => boolean): string | "overflow" | undefined {
    const view = this.context.files;
    if (!view) return "overflow";
    const queue = [dir];
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      const entries = view.listDir(next);
      if (!entries) continue;
      for (const entry of entries) {
        if (++this.spent > BUDGET) return "overflow";
        const path = join(next, entry.name);
        if (match(path, entry.kind === "symlink")) return path;
        if (entry.kind === "dir") queue.push(path);
      }
    }
    return undefined;
  }
}

function reachFrom(root: string, follow: boolean, denied: readonly Denied[], context: PermissionContext, walker: Walker, depth: number, seen: Set<string>): Reach | undefined {
  if (seen.has(root)) return undefined;
  seen.add(root);
  for (const entry of denied) {
    if (entry.covers(root)) return { rule: entry.rule, path: root };
    let base: string | undefined;
    if (isInside(entry.prefix, root)) {
      if (entry.literal) {
        if (context.realpath(entry.prefix) !== undefined) return { rule: entry.rule, path: entry.prefix };
        continue;
      }
      base = entry.prefix;
    } else if (isInside(root, entry.prefix)) base = root;
    if (base === undefined || (context.files && context.realpath(base) === undefined)) continue;
    const found = walker.find(base, (path) => entry.covers(path));
    if (found === "overflow") return { rule: entry.rule, path: base, tooLarge: true };
    if (found !== undefined) return { rule: entry.rule, path: found };
  }
  if (!follow || depth >= MAX_LINK_DEPTH || denied.length === 0) return undefined;
  let reached: Reach | undefined;
  const found = walker.find(root, (path, isLink) => {
    if (!isLink) return false;
    const target = context.realpath(path);
    if (target === undefined) return false;
    reached = reachFrom(target, follow, denied, context, walker, depth + 1, seen);
    return reached !== undefined;
  });
  if (found === "overflow") {
    const [first] = denied;
    return first ? { rule: first.rule, path: root, tooLarge: true } : undefined;
  }
  return reached;
}

/** Whether reading `tree` recursively can reach a denied file, and which rule and path. */
export function treeReach(tree: PathForms, follow: boolean, denied: readonly Denied[], context: PermissionContext): Reach | undefined {
  if (denied.length === 0) return undefined;
  const walker = new Walker(context);
  const seen = new Set<string>();
  for (const root of new Set([tree.resolved, tree.real, tree.written])) {
    const reach = reachFrom(root, follow, denied, context, walker, 0, seen);
    if (reach) return reach;
  }
  return undefined;
}

const trackedVerdicts = new WeakMap<readonly string[], WeakMap<readonly Denied[], string | null>>();

/** A file git tracks that a Read deny rule covers (commands that print tracked content can show it). */
export function trackedDenied(tracked: readonly string[], denied: readonly Denied[]): string | undefined {
  let byRules = trackedVerdicts.get(tracked);
  if (!byRules) {
    byRules = new WeakMap();
    trackedVerdicts.set(tracked, byRules);
  }
  const cached = byRules.get(denied);
  if (cached !== undefined) return cached ?? undefined;
  const hit = tracked.find((path) => denied.some((entry) => entry.covers(path)));
  byRules.set(denied, hit ?? null);
  return hit;
}
