/**
 * Getting a commit of a remote onto disk as cheaply as its form allows: one commit deep
 * (`--depth 1`), and for a subfolder a sparse checkout of just that folder (with a blob filter
 * where the server supports one). Every command runs the user's own git with their environment
 * (environment.ts); nothing clew writes ever holds a credential.
 */
import { mkdir, rm } from "node:fs/promises";
import type { SimpleGit } from "simple-git";
import { gitEnvironment } from "../../util/git-environment.ts";
import { assertSafeRef, assertSafeUrl, describeGitError, GitFailure, isGithubHttps } from "./remote.ts";

export interface GitContext {
  /** The user's environment, passed to git whole. */
  env: Record<string, string>;
  /** GITHUB_TOKEN / GH_TOKEN: sent as a header to https://github.com only, for that command only. */
  githubToken?: string;
  /** Background work: git must fail instead of prompting. */
  nonInteractive?: boolean;
  /** Kill git after this long without output (default 120 s, Claude Code's). */
  timeoutMs?: number;
}

export interface CheckoutRequest {
  url: string;
  /** Branch or tag; default: the remote's default branch. */
  ref?: string;
  /** Full commit id; wins over `ref`. */
  sha?: string;
  /** Folders to check out (sparse); default: everything. */
  sparse?: string[];
}

function tokenConfig(url: string, token: string | undefined): Array<[string, string]> {
  if (!token || !isGithubHttps(url)) return [];
  const basic = Buffer.from(`x-access-token:${token}`).toString("base64");
  return [["http.https://github.com/.extraHeader", `Authorization: Basic ${basic}`]];
}

export async function gitIn(dir: string, context: GitContext, url?: string): Promise<SimpleGit> {
  const { simpleGit } = await import("simple-git");
  const prepared = gitEnvironment(context.env, url ? tokenConfig(url, context.githubToken) : [], context.nonInteractive ?? false);
  return simpleGit({
    baseDir: dir,
    allowEnvironment: prepared.allowEnvironment,
    unsafe: prepared.unsafe,
    timeout: { block: context.timeoutMs ?? 120_000 },
  }).env(prepared.env);
}

/**
 * Checks out `request` into `dest` (which must not exist yet) and returns the commit of HEAD.
 * On failure `dest` is removed and a GitFailure says what went wrong and what to try.
 */
export async function checkoutRemote(request: CheckoutRequest, dest: string, context: GitContext): Promise<string> {
  assertSafeUrl(request.url);
  if (request.ref !== undefined) assertSafeRef(request.ref, "ref");
  if (request.sha !== undefined) assertSafeRef(request.sha, "sha");
  for (const path of request.sparse ?? []) {
    if (path.startsWith("-") || path.split("/").includes("..")) throw new GitFailure("invalid", `Sparse path '${path}' must be a folder inside the repository.`);
  }
  await mkdir(dest, { recursive: true });
  try {
    const git = await gitIn(dest, context, request.url);
    if (request.sha === undefined && (request.sparse === undefined || request.sparse.length === 0)) {
      // The common case, a branch or the default head: one `git clone` process, as a user's own
      // shallow clone would be (no tags, no background maintenance in a copy clew owns).
      const branch = request.ref === undefined ? [] : ["--branch", request.ref];
      // Not `-q`: simple-git waits 50 ms more after a command that printed nothing (in case output is
      // late), and the "Cloning into" line costs nothing (describeGitError leaves such lines out).
      await git.raw(["-c", "maintenance.auto=false", "-c", "gc.auto=0", "clone", "--depth", "1", "--single-branch", "--no-tags", ...branch, request.url, "."]);
      return await headCommit(dest, context);
    }
    // Steps print their progress rather than run quiet: see the clone above.
    await git.raw(["init"]);
    await git.raw(["remote", "add", "origin", request.url]);
    const sparse = request.sparse !== undefined && request.sparse.length > 0;
    const filter = sparse ? ["--filter=blob:none"] : [];
    const want = request.sha ?? request.ref ?? "HEAD";
    try {
      await git.raw(["fetch", "--depth", "1", ...filter, "origin", want]);
    } catch (error) {
      // Hosts that refuse fetching a commit by id (not every server allows it) still serve the
      // whole history, where the commit can be found.
      if (request.sha === undefined) throw error;
      await git.raw(["fetch", ...filter, "origin"]);
      await git.raw(["update-ref", "FETCH_HEAD", request.sha]);
    }
    if (sparse) await git.raw(["sparse-checkout", "set", "--cone", ...(request.sparse ?? [])]);
    await git.raw(["-c", "advice.detachedHead=false", "checkout", "--detach", "FETCH_HEAD"]);
    return await headCommit(dest, context);
  } catch (error) {
    await rm(dest, { recursive: true, force: true });
    throw describeGitError(error, request.url, request.sha ? `fetch commit ${request.sha} of` : request.ref ? `fetch ${request.ref} of` : "clone");
  }
}

/**
 * Moves an existing checkout to another ref or commit in place (fetch, then checkout). Used
 * where a copy is already on disk and only its commit should change.
 */
export async function fetchAndCheckout(dir: string, url: string, target: { ref?: string; sha?: string }, context: GitContext): Promise<string> {
  if (target.ref !== undefined) assertSafeRef(target.ref, "ref");
  if (target.sha !== undefined) assertSafeRef(target.sha, "sha");
  const git = await gitIn(dir, context, url);
  try {
    await git.raw(["fetch", "--depth", "1", "origin", target.sha ?? target.ref ?? "HEAD"]);
    await git.raw(["-c", "advice.detachedHead=false", "checkout", "--detach", "FETCH_HEAD"]);
  } catch (error) {
    throw describeGitError(error, url, "update from");
  }
  return headCommit(dir, context);
}

export async function headCommit(dir: string, context: GitContext): Promise<string> {
  const git = await gitIn(dir, context);
  return (await git.raw(["rev-parse", "HEAD"])).trim();
}
