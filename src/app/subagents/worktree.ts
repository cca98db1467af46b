// `isolation: worktree`: a helper works in its own git worktree on its own branch, so its edits
// never reach the parent's files, index or branch. Afterwards the worktree is removed when the
// helper changed nothing, and kept (with everything committed on its branch) when it did.
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmdirSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type { SimpleGit } from "simple-git";
import { BRANCH_PREFIX, EXCLUDE_PATTERN, WORKTREES_FOLDER, gitAt, gitMessage } from "./worktree-list.ts";

export { listHelperWorktrees } from "./worktree-list.ts";

export interface HelperWorktree {
  path: string;
  branch: string;
  baseCommit: string;
  repoRoot: string;
  /** The helper's full id, for the commit message; the branch name carries only a short form. */
  agentId?: string;
}

export interface FinishedWorktree {
  changed: boolean;
  kept: boolean;
  diffStat: string;
  commits: number;
  summary: string;
}

/** Used only when the repository has no identity configured, so the helper's commit can still be made. */
const FALLBACK_AUTHOR = ["user.name=clew", "user.email=clew@localhost"];
const SLUG_LENGTH = 12;
const MAX_NAME_ATTEMPTS = 50;

/** Agent ids come from our own code, but a branch name and a folder name must be safe either way. */
function slugOf(agentId: string): string {
  const slug = agentId.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[-.]+|[-.]+$/g, "").slice(0, SLUG_LENGTH);
  return slug.length > 0 ? slug : "helper";
}

async function branchExists(git: SimpleGit, branch: string): Promise<boolean> {
  // simple-git resolves a failed command that printed nothing, so ask for output, not an exit code.
  const found = await git.raw(["for-each-ref", "--format=%(refname)", `refs/heads/${branch}`]);
  return found.trim().length > 0;
}

/** Adds the worktrees folder to `info/exclude` (shared by every worktree), never to the repository's .gitignore. */
async function excludeWorktreesFolder(git: SimpleGit, repoRoot: string): Promise<void> {
  const excludeFile = resolve(repoRoot, (await git.raw(["rev-parse", "--git-path", "info/exclude"])).trim());
  const current = existsSync(excludeFile) ? readFileSync(excludeFile, "utf8") : "";
  if (current.split("\n").some((line) => line.trim() === EXCLUDE_PATTERN)) return;
  mkdirSync(dirname(excludeFile), { recursive: true });
  const separator = current.length === 0 || current.endsWith("\n") ? "" : "\n";
  appendFileSync(excludeFile, `${separator}# clew: helper worktrees (isolation: worktree)\n${EXCLUDE_PATTERN}\n`);
}

/**
 * The main checkout of the repository `cwdGit` belongs to. When the parent already runs inside a
 * linked worktree (a nested helper, or the user's own `git worktree`), new helper trees go beside
 * the others under the main checkout rather than inside the parent's tree, so removing one tree
 * never deletes another nested in it.
 */
async function mainCheckoutOf(cwdGit: SimpleGit, toplevel: string): Promise<string> {
  try {
    const commonDir = (await cwdGit.raw(["rev-parse", "--path-format=absolute", "--git-common-dir"])).trim();
    const candidate = dirname(commonDir);
    if (basename(commonDir) === ".git" && existsSync(candidate)) return candidate;
  } catch {
    // An old git without --path-format, or a bare repository: the parent's own root will do.
  }
  return toplevel;
}

export async function createHelperWorktree(input: { cwd: string; agentId: string }): Promise<HelperWorktree | { error: string }> {
  let cwdGit: SimpleGit;
  let toplevel: string;
  try {
    cwdGit = await gitAt(input.cwd);
    toplevel = (await cwdGit.revparse(["--show-toplevel"])).trim();
  } catch (error) {
    return { error: `isolation: worktree needs a git repository, and ${input.cwd} is not inside one (${gitMessage(error)}); run the helper without isolation, or run \`git init\` and commit first.` };
  }
  // The base is the parent's current HEAD, not the default branch the spec names: a user who
  // delegates from a feature branch expects the helper to see the code they are working on
  // (Claude Code users report branching from the default branch as a bug, and its own
  // `worktree.baseRef: "head"` setting exists for this). Uncommitted parent changes are not
  // copied: the helper starts from the last commit, and the parent's tree stays untouched.
  let baseCommit: string;
  try {
    baseCommit = (await cwdGit.revparse(["--verify", "HEAD^{commit}"])).trim();
  } catch {
    return { error: `isolation: worktree needs a commit to start from, and the repository at ${toplevel} has none yet; commit once, then run the helper again.` };
  }
  const repoRoot = await mainCheckoutOf(cwdGit, toplevel);
  const git = await gitAt(repoRoot);
  try {
    await excludeWorktreesFolder(git, repoRoot);
  } catch (error) {
    return { error: `Could not add ${EXCLUDE_PATTERN} to the git exclude file of ${repoRoot}: ${gitMessage(error)}.` };
  }
  const slug = slugOf(input.agentId);
  for (let attempt = 1; attempt <= MAX_NAME_ATTEMPTS; attempt += 1) {
    const name = attempt === 1 ? slug : `${slug}-${attempt}`;
    const path = join(repoRoot, WORKTREES_FOLDER, name);
    const branch = `${BRANCH_PREFIX}${name}`;
    if (existsSync(path) || (await branchExists(git, branch))) continue;
    try {
      // `worktree add -b` creates the branch and checks it out only in the new tree.
      await git.raw(["worktree", "add", "--quiet", "-b", branch, path, baseCommit]);
      return { path, branch, baseCommit, repoRoot, agentId: input.agentId };
    } catch (error) {
      // Another helper may have taken this name between the check and the add: try the next one.
      if (existsSync(path) || (await branchExists(git, branch))) continue;
      return { error: `git worktree add failed in ${repoRoot} for branch ${branch}: ${gitMessage(error)}.` };
    }
  }
  return { error: `No free worktree name for helper ${input.agentId} under ${join(repoRoot, WORKTREES_FOLDER)}; remove old helper worktrees (git worktree list) and try again.` };
}

async function hasIdentity(git: SimpleGit): Promise<boolean> {
  const [name, email] = await Promise.all([git.getConfig("user.name"), git.getConfig("user.email")]);
  return Boolean(name.value) && Boolean(email.value);
}

/**
 * Commits what the helper left uncommitted, so its branch alone carries the work. Hooks are
 * skipped and signing is off because this is a container for the user to review, not the
 * user's commit: a failing lint hook or a pinentry prompt must not strand the work.
 */
async function commitLeftovers(worktree: HelperWorktree, agentId: string): Promise<string | undefined> {
  const plain = await gitAt(worktree.path);
  const config = ["commit.gpgsign=false", ...((await hasIdentity(plain)) ? [] : FALLBACK_AUTHOR)];
  const git = await gitAt(worktree.path, config);
  try {
    await git.raw(["add", "--all"]);
    await git.raw(["commit", "--quiet", "--no-verify", "-m", `clew: work of helper ${agentId}`]);
    return undefined;
  } catch (error) {
    return gitMessage(error);
  }
}

function agentIdOf(worktree: HelperWorktree): string {
  if (worktree.agentId !== undefined) return worktree.agentId;
  return worktree.branch.startsWith(BRANCH_PREFIX) ? worktree.branch.slice(BRANCH_PREFIX.length) : worktree.branch;
}

/** Leaves no empty `.clew/worktrees` (or `.clew`) behind in a project that had none. */
function removeEmptyFolders(repoRoot: string): void {
  for (const folder of [join(repoRoot, WORKTREES_FOLDER), join(repoRoot, ".clew")]) {
    try {
      rmdirSync(folder);
    } catch {
      return;
    }
  }
}

async function countCommits(git: SimpleGit, range: string): Promise<number> {
  try {
    return Number.parseInt((await git.raw(["rev-list", "--count", range])).trim(), 10) || 0;
  } catch {
    return 0;
  }
}

function keptSummary(worktree: HelperWorktree, diffStat: string, commits: number, commitProblem: string | undefined): string {
  const stat = diffStat.length > 0 ? `Diff stat against ${worktree.baseCommit.slice(0, 12)}:\n${diffStat}\n` : "The branch's tree equals its base (the commits cancel out).\n";
  const leftover = commitProblem === undefined ? "" : ` Some changes could not be committed (${commitProblem}); they are still in the worktree.`;
  return (
    `The helper worked in an isolated git worktree; its changes are on branch ${worktree.branch} ` +
    `(${commits} commit${commits === 1 ? "" : "s"} on top of ${worktree.baseCommit.slice(0, 12)}), ` +
    `checked out at ${worktree.path}. Your own working tree was not touched.${leftover}\n${stat}` +
    `To take the work: git merge ${worktree.branch}. ` +
    `To discard it: git worktree remove --force ${worktree.path} && git branch -D ${worktree.branch}.`
  );
}

export async function finishHelperWorktree(worktree: HelperWorktree): Promise<FinishedWorktree> {
  try {
    return await finish(worktree);
  } catch (error) {
    // Keeping is the safe side: nothing of the helper's is lost, and the user can look at it.
    return {
      changed: false,
      kept: true,
      diffStat: "",
      commits: 0,
      summary: `Could not tidy up the helper's worktree ${worktree.path} (branch ${worktree.branch}): ${gitMessage(error)}. It was left as it is; inspect it with git -C ${worktree.path} status, and remove it with git worktree remove --force ${worktree.path} && git branch -D ${worktree.branch}.`,
    };
  }
}

async function finish(worktree: HelperWorktree): Promise<FinishedWorktree> {
  const root = await gitAt(worktree.repoRoot);
  let commitProblem: string | undefined;
  if (existsSync(worktree.path)) {
    const status = await (await gitAt(worktree.path)).raw(["status", "--porcelain", "--untracked-files=all"]);
    if (status.trim().length > 0) commitProblem = await commitLeftovers(worktree, agentIdOf(worktree));
  } else {
    // The helper deleted its own folder; forget the worktree but keep any commits on the branch.
    await root.raw(["worktree", "prune"]);
  }
  const commits = await countCommits(root, `${worktree.baseCommit}..${worktree.branch}`);
  const changed = commits > 0 || commitProblem !== undefined;
  if (!changed) {
    // Only ignored files (build output and the like) can remain here, and they are the helper's own.
    if (existsSync(worktree.path)) await root.raw(["worktree", "remove", "--force", worktree.path]);
    await root.raw(["branch", "-D", worktree.branch]);
    removeEmptyFolders(worktree.repoRoot);
    return { changed: false, kept: false, diffStat: "", commits: 0, summary: `The helper made no changes; its worktree ${worktree.path} and branch ${worktree.branch} were removed.` };
  }
  const diffStat = (await root.raw(["diff", "--stat", `${worktree.baseCommit}..${worktree.branch}`])).trimEnd();
  return { changed: true, kept: true, diffStat, commits, summary: keptSummary(worktree, diffStat, commits, commitProblem) };
}
