/**
 * Is a locked commit still on the branch it was locked from? A normal push keeps it in the
 * branch's history; a force-push that rewrote the branch drops it — even when the host would
 * still hand out the orphaned commit by id. Fetches the branch's history without file contents
 * into a scratch repository and asks `merge-base --is-ancestor`.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gitIn, type GitContext } from "../git/clone.ts";
import { describeGitError } from "../git/remote.ts";

export type Reachability = { kind: "on-branch"; head: string } | { kind: "rewritten"; head: string } | { kind: "unreachable"; reason: string };

export async function lockedCommitOnBranch(url: string, ref: string | undefined, commit: string, context: GitContext): Promise<Reachability> {
  const scratch = await mkdtemp(join(tmpdir(), "clew-lock-check-"));
  try {
    const git = await gitIn(scratch, context, url);
    // Not quiet: simple-git waits 50 ms more after a command that printed nothing.
    await git.raw(["init", "--bare"]);
    try {
      await git.raw(["fetch", "--filter=blob:none", url, ref ?? "HEAD"]);
    } catch (error) {
      return { kind: "unreachable", reason: describeGitError(error, url, "fetch the history of").message };
    }
    const head = (await git.raw(["rev-parse", "FETCH_HEAD"])).trim();
    try {
      await git.raw(["merge-base", "--is-ancestor", commit, head]);
      return { kind: "on-branch", head };
    } catch {
      return { kind: "rewritten", head };
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
