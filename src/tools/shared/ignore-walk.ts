/**
 * A directory walker with ripgrep's ignore semantics, so Glob, the in-process Grep backend and
 * ripgrep itself agree on which files exist:
 * - `.gitignore` files apply only inside a git repository (a directory holding `.git`), from the
 *   file's directory down, and stop at the repository root; a nested repository starts afresh.
 * - `.git/info/exclude` applies to its whole repository.
 * - `.ignore` and `.rgignore` apply everywhere, including from directories above the search root.
 * - Precedence: `.rgignore` > `.ignore` > `.gitignore` > `info/exclude`; within one kind the
 *   deepest file that has an opinion wins, and within a file the last matching rule wins.
 * - Hidden files are walked; VCS directories (`.git`, `.hg`, …) and symlinks never are.
 * - Entries come out depth-first, each directory sorted by name (ripgrep's `--sort path`).
 */
import type { Ignore } from "ignore";
import { lstatSync, readFileSync, type Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { ToolError } from "../../util/errors.ts";

/** Version-control metadata directories: never searched, whatever the ignore files or globs say. */
export const VCS_DIRS: readonly string[] = [".git", ".svn", ".hg", ".bzr", ".jj", ".sl"];

export type OverrideVerdict = "include" | "exclude" | undefined;

export interface WalkOptions {
  signal?: AbortSignal;
  /**
   * Consulted before the ignore files, like ripgrep's `--glob`: "include" walks the entry even if
   * an ignore file excludes it (and skips `accept`), "exclude" skips it.
   */
  override?: (relPath: string, isDir: boolean) => OverrideVerdict;
  /** Final per-file filter (e.g. a file type), applied after the ignore files. */
  accept?: (relPath: string, name: string) => boolean;
  /** Directories deeper than this are not entered; the root's own entries are at depth 1. */
  maxDepth?: number;
  /** Stop with WalkLimitExceeded once more directories than this have been listed. */
  maxDirectories?: number;
}

/** Thrown by walkFiles when `maxDirectories` is reached: the caller wanted a small tree only. */
export class WalkLimitExceeded extends Error {
  override name = "WalkLimitExceeded";
}

export interface WalkedFile {
  /** Absolute path. */
  path: string;
  /** Path relative to the walk root, `/`-separated. */
  rel: string;
}

type Verdict = "ignore" | "whitelist" | undefined;
type Kind = "rgignore" | "dotignore" | "gitignore" | "exclude";

/** Compiled rules of one ignore file, matched against paths relative to `base`. */
interface RuleSet {
  base: string;
  text: string;
  matcher: Ignore;
}

interface Frame {
  dir: string;
  parent: Frame | undefined;
  isGitRoot: boolean;
  /** Some frame from here up is a git root, so `.gitignore` files count at all. */
  anyGit: boolean;
  rules: Partial<Record<Kind, RuleSet[]>>;
}

const IGNORE_FILES = { rgignore: ".rgignore", dotignore: ".ignore", gitignore: ".gitignore" } as const;
const KINDS: readonly Kind[] = ["rgignore", "dotignore", "gitignore", "exclude"];

/** Yields every file under `root` (an existing directory) that the ignore rules let through. */
export async function* walkFiles(root: string, options: WalkOptions = {}): AsyncGenerator<WalkedFile> {
  const top = await ancestorFrames(root);
  yield* walkDir(root, root, top, 1, options, { listed: 0 });
}

async function* walkDir(
  root: string,
  dir: string,
  parent: Frame | undefined,
  depth: number,
  options: WalkOptions,
  count: { listed: number },
): AsyncGenerator<WalkedFile> {
  if (options.signal?.aborted) throw new ToolError("Search aborted", "aborted");
  count.listed += 1;
  if (options.maxDirectories !== undefined && count.listed > options.maxDirectories) throw new WalkLimitExceeded();
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return; // unreadable directories are skipped, as ripgrep does (it only warns)
  }
  entries.sort((a, b) => compareNames(a.name, b.name));
  const frame = await loadFrame(dir, parent, new Set(entries.map((entry) => entry.name)));
  for (const entry of entries) {
    if (VCS_DIRS.includes(entry.name) || entry.isSymbolicLink()) continue;
    const isDir = entry.isDirectory();
    if (!isDir && !entry.isFile()) continue;
    const path = join(dir, entry.name);
    const rel = toPosix(relative(root, path));
    const override = options.override?.(rel, isDir);
    if (override === "exclude") continue;
    if (override !== "include") {
      if (matchIgnoreFiles(frame, path, isDir) === "ignore") continue;
      if (!isDir && options.accept && !options.accept(rel, entry.name)) continue;
    }
    if (!isDir) yield { path, rel };
    else if (depth < (options.maxDepth ?? Infinity)) yield* walkDir(root, path, frame, depth + 1, options, count);
  }
}

function matchIgnoreFiles(frame: Frame, path: string, isDir: boolean): Verdict {
  const found: Partial<Record<Kind, Verdict>> = {};
  let sawGit = false;
  for (let current: Frame | undefined = frame; current; current = current.parent) {
    for (const kind of KINDS) {
      const gitKind = kind === "gitignore" || kind === "exclude";
      if (found[kind] || (gitKind && (!frame.anyGit || sawGit))) continue;
      for (const set of current.rules[kind] ?? []) {
        found[kind] ??= test(set, path, isDir);
      }
    }
    sawGit ||= current.isGitRoot;
  }
  return found.rgignore ?? found.dotignore ?? found.gitignore ?? found.exclude;
}

function test(set: RuleSet, path: string, isDir: boolean): Verdict {
  const result = set.matcher.test(toPosix(relative(set.base, path)) + (isDir ? "/" : ""));
  if (result.ignored) return "ignore";
  return result.unignored ? "whitelist" : undefined;
}

async function loadFrame(dir: string, parent: Frame | undefined, names: ReadonlySet<string>): Promise<Frame> {
  const isGitRoot = names.has(".git");
  const frame: Frame = { dir, parent, isGitRoot, anyGit: isGitRoot || (parent?.anyGit ?? false), rules: {} };
  for (const [kind, file] of Object.entries(IGNORE_FILES) as Array<[keyof typeof IGNORE_FILES, string]>) {
    if (!names.has(file)) continue;
    const text = await readText(join(dir, file));
    if (text) frame.rules[kind] = [{ base: dir, text, matcher: compile(text) }];
  }
  if (isGitRoot) {
    const gitDir = await resolveGitDir(dir);
    const text = gitDir ? await readText(join(gitDir, "info", "exclude")) : undefined;
    if (text) frame.rules.exclude = [{ base: dir, text, matcher: compile(text) }];
  }
  return frame;
}

/**
 * Frames for the directories above `root`, outermost first. Their rules are matched against the
 * full path below them, as ripgrep does. ripgrep never tests the root or its parents, so searching
 * inside an ignored directory (say node_modules/x) works; the `ignore` package would treat all
 * of it as ignored through its parent, so rules that ignore the root are split off: those that
 * match by name at any depth (`node_modules/`, `*.log`) are re-based onto the root, so they still
 * apply below it; anchored ones (`/build/`) cannot match below the root again and are dropped.
 */
async function ancestorFrames(root: string): Promise<Frame | undefined> {
  const chain: string[] = [];
  for (let dir = root; dirname(dir) !== dir; ) {
    dir = dirname(dir);
    chain.unshift(dir);
  }
  let frame: Frame | undefined;
  for (const dir of chain) {
    frame = await loadFrame(dir, frame, existingNames(dir, PROBED_NAMES));
    const rootRel = `${toPosix(relative(dir, root))}/`;
    for (const kind of KINDS) {
      const set = frame.rules[kind]?.[0];
      if (set?.matcher.test(rootRel).ignored) frame.rules[kind] = splitRootRules(set, root, rootRel);
    }
  }
  return frame;
}

function splitRootRules(set: RuleSet, root: string, rootRel: string): RuleSet[] {
  const kept: string[] = [];
  const rebased: string[] = [];
  for (const line of set.text.split(/\r?\n/)) {
    if (!compile(line).test(rootRel).ignored) kept.push(line);
    else if (!line.replace(/\/+$/, "").includes("/")) rebased.push(line);
  }
  const sets = [{ base: set.base, text: kept.join("\n"), matcher: compile(kept.join("\n")) }];
  if (rebased.length > 0) sets.push({ base: root, text: rebased.join("\n"), matcher: compile(rebased.join("\n")) });
  return sets;
}

const PROBED_NAMES = [".git", ...Object.values(IGNORE_FILES)];

/**
 * Probes a few names instead of listing directories like /home or /tmp, which can be huge.
 * Synchronously: four probes per ancestor through the thread pool cost a search more than the
 * probes themselves.
 */
function existingNames(dir: string, names: readonly string[]): Set<string> {
  const exists = (name: string) => {
    try {
      return lstatSync(join(dir, name), { throwIfNoEntry: false }) !== undefined;
    } catch {
      return false; // unreadable: as if absent
    }
  };
  return new Set(names.filter(exists));
}

type IgnoreFactory = typeof import("ignore");
let ignoreFactory: IgnoreFactory | undefined;

function compile(text: string): Ignore {
  // Loaded by the first walk: evaluating the package (its rule tables) cost every start-up ~0.5 ms,
  // and a session that never walks a tree never needs it.
  ignoreFactory ??= require("ignore") as IgnoreFactory;
  // Git (and ripgrep) match ignore rules case-sensitively on Linux; the package defaults otherwise.
  return ignoreFactory({ ignorecase: false }).add(text);
}

/** The git directory of a repository root: `.git` itself, or where a `.git` file (worktree, submodule) points. */
async function resolveGitDir(repoRoot: string): Promise<string | undefined> {
  const dotGit = join(repoRoot, ".git");
  const pointer = await readText(dotGit);
  if (pointer === undefined) return dotGit;
  const target = /^gitdir:\s*(.+?)\s*$/m.exec(pointer)?.[1];
  if (!target) return undefined;
  const gitDir = isAbsolute(target) ? target : resolve(repoRoot, target);
  // A linked worktree keeps info/exclude in the common directory.
  const common = (await readText(join(gitDir, "commondir")))?.trim();
  return common ? resolve(gitDir, common) : gitDir;
}

/** An ignore file or git pointer: small, read synchronously (a trip through the thread pool costs more). */
async function readText(path: string): Promise<string | undefined> {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** Byte-order comparison of names, as ripgrep sorts them. */
export function compareNames(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

function toPosix(path: string): string {
  return sep === "/" ? path : path.split(sep).join("/");
}
