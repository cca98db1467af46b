/**
 * The permission gate's window on the file system: directory listings, the files git tracks, and
 * Bash's own expansion of globs (brace expansion first, `*?[…]` per path segment, dotfiles only
 * when the pattern names the dot), each bounded so a huge tree costs a refusal, not a hang.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { globLibrary } from "../util/glob-library.ts";
import type { DirEntryKind, FileSystemView } from "../permissions/types.ts";

const MAX_GLOB_RESULTS = 5_000;
const MAX_GLOB_LISTINGS = 2_000;
const GLOB_CHARS = /[*?[]/;

function listDir(dir: string): Array<{ name: string; kind: DirEntryKind }> | undefined {
  try {
    return readdirSync(dir, { withFileTypes: true }).map((entry) => ({
      name: entry.name,
      kind: entry.isSymbolicLink() ? "symlink" : entry.isDirectory() ? "dir" : entry.isFile() ? "file" : "other",
    }));
  } catch {
    return undefined;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** One brace-free word, expanded segment by segment as Bash does without `globstar` or `dotglob`. */
function expandWord(word: string, dir: string, budget: { listings: number }): string[] | undefined {
  const absolute = isAbsolute(word);
  const segments = word.split("/").filter((segment, index) => segment !== "" || index === 0);
  let paths = [absolute ? "/" : dir];
  for (const segment of absolute ? segments.slice(1) : segments) {
    if (!GLOB_CHARS.test(segment)) {
      paths = paths.map((path) => join(path, segment));
      continue;
    }
    const next: string[] = [];
    for (const path of paths) {
      if (++budget.listings > MAX_GLOB_LISTINGS) return undefined;
      for (const entry of listDir(path) ?? []) {
        if (globLibrary().minimatch(entry.name, segment, { dot: false, noext: true, nobrace: true })) next.push(join(path, entry.name));
      }
      if (next.length > MAX_GLOB_RESULTS) return undefined;
    }
    paths = next;
    if (paths.length === 0) return [];
  }
  return paths;
}

function expandGlob(pattern: string, dir: string): string[] | undefined {
  const out: string[] = [];
  const budget = { listings: 0 };
  for (const word of globLibrary().braceExpand(pattern)) {
    if (!GLOB_CHARS.test(word)) {
      out.push(resolve(dir, word));
      continue;
    }
    const matches = expandWord(word, dir, budget);
    if (matches === undefined) return undefined;
    // A glob that matches nothing is passed on as written.
    out.push(...(matches.length > 0 ? matches.filter((path) => !word.endsWith("/") || isDirectory(path)) : [resolve(dir, word)]));
    if (out.length > MAX_GLOB_RESULTS) return undefined;
  }
  return out;
}

interface Repository {
  top: string;
  index: string;
}

interface TrackedCache {
  stamp: string;
  files: readonly string[];
}

function git(args: string[], cwd: string): string | undefined {
  try {
    const run = Bun.spawnSync(["git", ...args], { cwd, stdout: "pipe", stderr: "ignore", stdin: "ignore" });
    return run.exitCode === 0 ? run.stdout.toString() : undefined;
  } catch {
    return undefined;
  }
}

function stampOf(path: string): string {
  try {
    const stat = statSync(path);
    return `${stat.mtimeMs}:${stat.size}`;
  } catch {
    return "missing";
  }
}

function repositories(): (dir: string) => Repository | undefined {
  const known = new Map<string, Repository | null>();
  return (dir) => {
    let repository = known.get(dir);
    if (repository === undefined) {
      const lines = git(["rev-parse", "--show-toplevel", "--absolute-git-dir"], dir)?.trim().split("\n");
      repository = lines && lines.length === 2 ? { top: lines[0] as string, index: join(lines[1] as string, "index") } : null;
      known.set(dir, repository);
    }
    return repository ?? undefined;
  };
}

/** Tracked files are listed once per state of the index, so `git add` between calls is seen. */
function trackedFiles(repositoryOf: (dir: string) => Repository | undefined): (dir: string) => readonly string[] | undefined {
  const tracked = new Map<string, TrackedCache>();
  return (dir) => {
    const repository = repositoryOf(dir);
    if (!repository) return undefined;
    const stamp = stampOf(repository.index);
    const known = tracked.get(repository.top);
    if (known && known.stamp === stamp) return known.files;
    const listing = git(["ls-files", "-z", "--cached"], repository.top) ?? "";
    const top = repository.top;
    const files = listing.split("\0").filter((name) => name !== "").map((name) => join(top, name));
    tracked.set(top, { stamp, files });
    return files;
  };
}

/** Whether git's history has a file matching an absolute glob, asked once per pattern and state of the index. */
function historyLookup(repositoryOf: (dir: string) => Repository | undefined): (dir: string, patterns: readonly string[]) => boolean {
  const answers = new Map<string, boolean>();
  return (dir, patterns) => {
    const repository = repositoryOf(dir);
    if (!repository) return false;
    const root = repository.top;
    const pathspecs = patterns.filter((pattern) => pattern.startsWith(`${root}/`)).map((pattern) => `:(glob)${pattern.slice(root.length + 1)}`);
    if (pathspecs.length === 0) return false;
    // A commit changes the index too: a new stamp asks again.
    const key = `${root}\u0000${stampOf(repository.index)}\u0000${pathspecs.join("\u0000")}`;
    let known = answers.get(key);
    if (known === undefined) {
      // Every ref, the stash and the reflog: all that `git log -p --all` or `git show` can reach.
      // A repository without commits answers with an error: no history then.
      const found = git(["log", "--all", "--reflog", "-1", "--format=%H", "--", ...pathspecs], root);
      known = found !== undefined && found.trim() !== "";
      answers.set(key, known);
    }
    return known;
  };
}

/** The repository's own config files, read again when one changes. */
function configRisk(repositoryOf: (dir: string) => Repository | undefined): (dir: string) => { setting: string; file: string } | undefined {
  const known = new Map<string, { stamp: string; risk: { setting: string; file: string } | undefined }>();
  return (dir) => {
    const repository = repositoryOf(dir);
    if (!repository) return undefined;
    const files = ["config", "config.worktree"].map((name) => join(dirname(repository.index), name));
    const stamp = files.map(stampOf).join("|");
    const cached = known.get(repository.top);
    if (cached && cached.stamp === stamp) return cached.risk;
    let risk: { setting: string; file: string } | undefined;
    for (const file of files) {
      let text: string;
      try {
        text = readFileSync(file, "utf8");
      } catch {
        continue;
      }
      // Read on the first git command the gate looks at: most sessions run none.
      const { programSetting } = require("../permissions/git-config-risk.ts") as typeof import("../permissions/git-config-risk.ts");
      const setting = programSetting(text);
      if (setting) {
        risk = { setting, file };
        break;
      }
    }
    known.set(repository.top, { stamp, risk });
    return risk;
  };
}

export function createFileSystemView(): FileSystemView {
  const repositoryOf = repositories();
  return { listDir, gitTracked: trackedFiles(repositoryOf), gitHistoryHas: historyLookup(repositoryOf), expandGlob, gitConfigRisk: configRisk(repositoryOf) };
}
