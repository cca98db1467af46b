/**
 * `-w` / `--worktree [name]`: the session runs in its own git worktree,
 * `<repository>/.claude/worktrees/<name>`, on the branch `worktree-<name>` started from the current
 * HEAD. A worktree of that name that exists already is used again (the work goes on where it
 * stopped). The folder is kept out of git's view through `info/exclude`, never the repository's
 * own .gitignore. Without a name, one is made up.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { FatalError } from "../util/errors.ts";
import { gitAt, gitMessage } from "./subagents/worktree-list.ts";

const FOLDER = join(".claude", "worktrees");
const EXCLUDE = "/.claude/worktrees/";

export interface SessionWorktree {
  path: string;
  branch: string;
  /** Whether it was made now (false: an existing one, used again). */
  created: boolean;
}

/** A name git and the file system both take: letters, digits, `.`, `_`, `-`. */
export function worktreeName(given: string | undefined): string {
  if (given === undefined || given === "") return `session-${crypto.randomUUID().slice(0, 8)}`;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(given) || given.includes("..") || given.endsWith(".lock")) {
    throw new FatalError("usage", `error: --worktree name '${given}' is not usable as a folder and branch name.`, "Use letters, digits, '.', '_' and '-' (e.g. --worktree fix-login).");
  }
  return given;
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

export async function openSessionWorktree(cwd: string, given: string | undefined): Promise<SessionWorktree> {
  const name = worktreeName(given);
  const here = await gitAt(cwd);
  let toplevel: string;
  try {
    toplevel = (await here.revparse(["--show-toplevel"])).trim();
  } catch (error) {
    throw new FatalError("usage", `error: --worktree needs a git repository, and ${cwd} is not inside one (${gitMessage(error)}).`, "Run clew from a git repository, or run `git init` and commit first.");
  }
  // Worktrees live beside each other under the main checkout, even when started from a linked one.
  const common = (await here.raw(["rev-parse", "--path-format=absolute", "--git-common-dir"]).catch(() => "")).trim();
  const root = common.endsWith("/.git") && existsSync(dirname(common)) ? dirname(common) : toplevel;
  const git = await gitAt(root);
  const path = join(root, FOLDER, name);
  const branch = `worktree-${name}`;
  const listed = await git.raw(["worktree", "list", "--porcelain"]);
  const known = listed.split("\n").some((line) => line.startsWith("worktree ") && real(line.slice("worktree ".length)) === real(path));
  if (known) return { path, branch, created: false };
  if (existsSync(path)) throw new FatalError("usage", `error: ${path} exists but is not a git worktree of ${root}.`, "Choose another --worktree name, or move that folder away.");
  await excludeFolder(git, root);
  const branchExists = (await git.raw(["for-each-ref", "--format=%(refname)", `refs/heads/${branch}`])).trim() !== "";
  try {
    await git.raw(branchExists ? ["worktree", "add", "--quiet", path, branch] : ["worktree", "add", "--quiet", "-b", branch, path, "HEAD"]);
  } catch (error) {
    throw new FatalError("usage", `error: git worktree add failed for ${path} (${gitMessage(error)}).`, branchExists ? `The branch ${branch} may be checked out elsewhere (git worktree list).` : "A worktree needs a commit to start from: commit once, then run again.");
  }
  return { path, branch, created: true };
}

async function excludeFolder(git: Awaited<ReturnType<typeof gitAt>>, root: string): Promise<void> {
  const file = resolve(root, (await git.raw(["rev-parse", "--git-path", "info/exclude"])).trim());
  const current = existsSync(file) ? readFileSync(file, "utf8") : "";
  if (current.split("\n").some((line) => line.trim() === EXCLUDE)) return;
  mkdirSync(dirname(file), { recursive: true });
  appendFileSync(file, `${current === "" || current.endsWith("\n") ? "" : "\n"}# clew: session worktrees (--worktree)\n${EXCLUDE}\n`);
}
