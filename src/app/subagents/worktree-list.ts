// Where helper worktrees live, and which of them are still on disk. Shared by the worktree
// lifecycle (worktree.ts) and by whoever shows the kept ones (/agents, doctor).
import { realpathSync } from "node:fs";
import { join, sep } from "node:path";
import type { SimpleGit } from "simple-git";

/**
 * Claude Code puts its worktrees in `<repo>/.claude/worktrees/<name>` on `worktree-<name>`; clew
 * keeps the same shape under its own folder, and a branch prefix that says who made the branch.
 */
export const WORKTREES_FOLDER = join(".clew", "worktrees");
export const BRANCH_PREFIX = "clew/agent-";
/** The line added to the repository's `info/exclude`, so the parent's `git status` never lists helper trees. */
export const EXCLUDE_PATTERN = "/.clew/worktrees/";

export interface ListedWorktree {
  path: string;
  branch: string;
}

/** A lazily loaded git client rooted at `dir`; throws when `dir` does not exist. */
export async function gitAt(dir: string, config: string[] = []): Promise<SimpleGit> {
  const { simpleGit } = await import("simple-git");
  return simpleGit({ baseDir: dir, config });
}

/** The first line git printed on failure, without simple-git's framing. */
export function gitMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const line = text.split("\n").map((part) => part.trim()).find((part) => part.length > 0);
  return (line ?? "unknown error").replace(/^(fatal|error):\s*/, "");
}

function realOrSame(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Parses `git worktree list --porcelain`: blank-line separated records of `key value` lines. */
export function parseWorktreeList(porcelain: string): ListedWorktree[] {
  const records = porcelain.split(/\n\s*\n/);
  const listed: ListedWorktree[] = [];
  for (const record of records) {
    let path: string | undefined;
    let branch = "";
    for (const line of record.split("\n")) {
      if (line.startsWith("worktree ")) path = line.slice("worktree ".length);
      if (line.startsWith("branch ")) branch = line.slice("branch ".length).replace(/^refs\/heads\//, "");
    }
    if (path !== undefined) listed.push({ path, branch });
  }
  return listed;
}

/**
 * The helper worktrees kept under `repoRoot` (those whose helper left changes). A folder that is
 * not a repository simply has none, so callers such as doctor need no special case.
 */
export async function listHelperWorktrees(repoRoot: string): Promise<ListedWorktree[]> {
  let porcelain: string;
  try {
    const git = await gitAt(repoRoot);
    porcelain = await git.raw(["worktree", "list", "--porcelain"]);
  } catch {
    return [];
  }
  // git prints resolved paths; compare against the resolved root so a symlinked checkout matches.
  const folder = join(realOrSame(repoRoot), WORKTREES_FOLDER) + sep;
  return parseWorktreeList(porcelain).filter((entry) => realOrSame(entry.path).startsWith(folder));
}
