/**
 * A linked git worktree's ties to its repository (spec §7.2: a linked worktree may also write the
 * main repository's `.git`, except `hooks/` and `config`). Pure: files are read through `readText`.
 *
 * A linked worktree's `.git` is a file naming its admin folder (`<common>/worktrees/<name>`), whose
 * `commondir` names the repository's shared `.git`. Adding and committing there writes the admin
 * folder (HEAD, index, its reflog), objects, the branch's ref and reflog — nothing else of `.git`.
 */
import { join, resolve } from "node:path";

export interface LinkedWorktree {
  path: string;
  /** Its admin folder, `<common>/worktrees/<name>`. */
  gitDir: string;
  /** The repository's shared `.git`. */
  commonDir: string;
}

export function readLinkedWorktree(path: string, readText: (file: string) => string | undefined): LinkedWorktree | undefined {
  const named = /^gitdir:[ \t]*(.+?)[ \t]*$/m.exec(readText(join(path, ".git")) ?? "")?.[1];
  if (named === undefined) return undefined;
  const gitDir = resolve(path, named);
  const common = readText(join(gitDir, "commondir"))?.trim();
  // A submodule's `.git` file names a folder without `commondir`: that is no linked worktree.
  if (common === undefined || common === "") return undefined;
  return { path, gitDir, commonDir: resolve(gitDir, common) };
}

/** What git writes in the shared `.git` for work in a linked worktree. */
export function worktreeGitWrites(worktree: LinkedWorktree): string[] {
  return [worktree.gitDir, ...["objects", "refs", "logs"].map((name) => join(worktree.commonDir, name))];
}

/**
 * What stays read-only even so: the links git follows to find the repository (a rewritten `.git`
 * file or `commondir` would point git — run unsandboxed later by the user, or by clew committing a
 * helper's leftovers — at a configuration the command made up), the worktree's own configuration,
 * and the shared hooks and config.
 */
export function worktreeGitShields(worktree: LinkedWorktree): string[] {
  return [
    join(worktree.path, ".git"),
    ...["commondir", "gitdir", "config.worktree"].map((name) => join(worktree.gitDir, name)),
    ...["hooks", "config"].map((name) => join(worktree.commonDir, name)),
  ];
}
