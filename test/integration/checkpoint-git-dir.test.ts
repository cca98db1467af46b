// A new shadow repository's git dir is written by clew rather than by `git init`: git accepts it,
// its settings are the ones git's own init probes for on this file system, a repository already
// in place (another clew's) is left as it is, and a half-made folder in the way falls back to
// `git init`, after which snapshots work as ever.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { canWriteGitDir, createGitDir } from "../../src/store/checkpoints/git-dir.ts";
import { ShadowRepo } from "../../src/store/checkpoints/shadow-repo.ts";
import { tempDirectory } from "../helpers/clew-process.ts";

function git(args: string[]): string {
  const run = Bun.spawnSync(["git", ...args], { env: { PATH: process.env.PATH ?? "/usr/bin:/bin", GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" }, stdout: "pipe", stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(run.stderr.toString());
  return run.stdout.toString();
}

/** The [core] settings of a git dir, one `key=value` a line, sorted. */
function coreSettings(gitDir: string): string[] {
  return git(["config", "--file", join(gitDir, "config"), "--list"])
    .split("\n")
    .filter((line) => line.startsWith("core."))
    .sort();
}

describe.skipIf(!canWriteGitDir)("a shadow repository's git dir", () => {
  test("git accepts it, with the settings its own init probes for here", async () => {
    const root = tempDirectory("clew-git-dir-");
    const ours = join(root, "state", "checkpoints.git");
    expect(await createGitDir(ours)).toBe(true);
    expect(git(["--git-dir", ours, "symbolic-ref", "HEAD"])).toBe("refs/heads/master\n");
    expect(git(["--git-dir", ours, "rev-parse", "--is-bare-repository"])).toBe("false\n");
    expect(readFileSync(join(ours, "info", "exclude"), "utf8")).toBe("");

    const theirs = join(root, "state", "by-git-init.git");
    git(["init", "--quiet", "--template=", "--bare", theirs]);
    // Bare here only because git init was given no work tree; reflogs are for refs, which the shadow repository never moves.
    const expected = coreSettings(theirs)
      .map((line) => (line === "core.bare=true" ? "core.bare=false" : line))
      .filter((line) => !line.startsWith("core.logallrefupdates"));
    expect(coreSettings(ours)).toEqual(expected);
    // Nothing was left beside it.
    expect(readdirSync(join(root, "state")).sort()).toEqual(["by-git-init.git", "checkpoints.git"]);
  });

  test("a repository already there is left as it is; a half-made folder in the way falls back to git init", async () => {
    const root = tempDirectory("clew-git-dir-");
    const existing = join(root, "existing.git");
    expect(await createGitDir(existing)).toBe(true);
    writeFileSync(join(existing, "HEAD"), "ref: refs/heads/kept\n");
    expect(await createGitDir(existing)).toBe(true);
    expect(readFileSync(join(existing, "HEAD"), "utf8")).toBe("ref: refs/heads/kept\n");

    const halfMade = join(root, "half.git");
    mkdirSync(join(halfMade, "objects"), { recursive: true });
    expect(await createGitDir(halfMade)).toBe(false);
    expect(readdirSync(root).sort()).toEqual(["existing.git", "half.git"]);

    const work = join(root, "work");
    mkdirSync(work);
    writeFileSync(join(work, "a.txt"), "alpha\n");
    const repo = new ShadowRepo({ workTree: work, gitDir: halfMade, path: process.env.PATH ?? "/usr/bin:/bin" });
    const { tree } = await repo.snapshot();
    expect(existsSync(join(halfMade, "HEAD"))).toBe(true);
    expect(git(["--git-dir", halfMade, "ls-tree", "--name-only", tree])).toBe("a.txt\n");
  }, 30_000);
});
