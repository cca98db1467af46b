// isolation: worktree against real git repositories: the helper's edits land on its own branch,
// the parent's files, index and branch stay exactly as they were, and an unchanged worktree
// leaves nothing behind.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  createHelperWorktree,
  finishHelperWorktree,
  listHelperWorktrees,
  type HelperWorktree,
} from "../../src/app/subagents/worktree.ts";
import { tempDir } from "../helpers/tool-session.ts";

const IDENTITY = ["-c", "user.name=Parent Dev", "-c", "user.email=parent@example.com"];

function run(cwd: string, ...args: string[]): string {
  const result = Bun.spawnSync(["git", ...IDENTITY, ...args], { cwd, stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`git ${args.join(" ")} failed: ${result.stderr.toString()}`);
  return result.stdout.toString();
}

function succeeds(cwd: string, ...args: string[]): boolean {
  return Bun.spawnSync(["git", ...args], { cwd, stdout: "ignore", stderr: "ignore" }).exitCode === 0;
}

/**
 * A repository on a feature branch one commit ahead of main, with a modified tracked file, a staged
 * file and an untracked file: everything a careless worktree implementation could disturb.
 */
function parentRepo(): string {
  const repo = tempDir("clew-worktree-");
  run(repo, "init", "-q", "-b", "main");
  writeFileSync(join(repo, "app.ts"), "export const app = 1;\n");
  writeFileSync(join(repo, "util.ts"), "export const util = 1;\n");
  writeFileSync(join(repo, ".gitignore"), "dist/\n");
  run(repo, "add", ".");
  run(repo, "commit", "-qm", "initial");
  run(repo, "checkout", "-qb", "feature");
  writeFileSync(join(repo, "feature.ts"), "export const feature = true;\n");
  run(repo, "add", "feature.ts");
  run(repo, "commit", "-qm", "feature work");
  writeFileSync(join(repo, "app.ts"), "export const app = 2; // parent is editing\n");
  writeFileSync(join(repo, "staged.ts"), "export const staged = 1;\n");
  run(repo, "add", "staged.ts");
  writeFileSync(join(repo, "notes.txt"), "parent's scratch notes\n");
  return repo;
}

interface ParentState {
  status: string;
  head: string;
  branch: string;
  unstaged: string;
  staged: string;
  files: Record<string, string>;
}

function parentState(repo: string): ParentState {
  const files: Record<string, string> = {};
  for (const name of ["app.ts", "util.ts", "feature.ts", "staged.ts", "notes.txt"]) files[name] = readFileSync(join(repo, name), "utf8");
  return {
    status: run(repo, "status", "--porcelain=v2", "--branch", "--untracked-files=all"),
    head: run(repo, "rev-parse", "HEAD").trim(),
    branch: run(repo, "branch", "--show-current").trim(),
    unstaged: run(repo, "diff"),
    staged: run(repo, "diff", "--cached"),
    files,
  };
}

async function created(cwd: string, agentId: string): Promise<HelperWorktree> {
  const worktree = await createHelperWorktree({ cwd, agentId });
  if ("error" in worktree) throw new Error(worktree.error);
  return worktree;
}

// simple-git drops ambient GIT_* variables, so a test hides the user's identity by moving HOME.
const savedEnv = { HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME };
function withoutGlobalIdentity(): void {
  process.env.HOME = tempDir("clew-home-");
  delete process.env.XDG_CONFIG_HOME;
}
afterEach(() => {
  for (const [key, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

describe("createHelperWorktree", () => {
  test("starts from the parent's HEAD on its own branch, without the parent's uncommitted changes", async () => {
    const repo = parentRepo();
    const before = parentState(repo);
    const worktree = await created(join(repo), "a1b2c3d4e5f6a7b8");
    expect(worktree).toEqual({
      path: join(repo, ".clew", "worktrees", "a1b2c3d4e5f6"),
      branch: "clew/agent-a1b2c3d4e5f6",
      baseCommit: before.head,
      repoRoot: repo,
      agentId: "a1b2c3d4e5f6a7b8",
    });
    expect(run(worktree.path, "branch", "--show-current").trim()).toBe("clew/agent-a1b2c3d4e5f6");
    expect(run(worktree.path, "rev-parse", "HEAD").trim()).toBe(before.head);
    // The feature branch's commit is there (HEAD, not main), the parent's edits are not.
    expect(readFileSync(join(worktree.path, "feature.ts"), "utf8")).toBe("export const feature = true;\n");
    expect(readFileSync(join(worktree.path, "app.ts"), "utf8")).toBe("export const app = 1;\n");
    expect(existsSync(join(worktree.path, "staged.ts"))).toBe(false);
    expect(existsSync(join(worktree.path, "notes.txt"))).toBe(false);
    expect(parentState(repo)).toEqual(before);
    expect(readFileSync(join(repo, ".git", "info", "exclude"), "utf8")).toContain("\n/.clew/worktrees/\n");
  });

  test("works from a subfolder and names the repository root", async () => {
    const repo = parentRepo();
    mkdirSync(join(repo, "src", "deep"), { recursive: true });
    const worktree = await created(join(repo, "src", "deep"), "sub");
    expect(worktree.repoRoot).toBe(repo);
    expect(worktree.path).toBe(join(repo, ".clew", "worktrees", "sub"));
  });

  test("two helpers at once get distinct worktrees and branches, even with the same id", async () => {
    const repo = parentRepo();
    const before = parentState(repo);
    const [first, second, again] = await Promise.all([created(repo, "helper-one"), created(repo, "helper-two"), created(repo, "helper-one")]);
    const paths = [first.path, second.path, again.path];
    const branches = [first.branch, second.branch, again.branch];
    expect(new Set(paths).size).toBe(3);
    expect(new Set(branches).size).toBe(3);
    expect([...branches].sort()).toEqual(["clew/agent-helper-one", "clew/agent-helper-one-2", "clew/agent-helper-two"]);
    writeFileSync(join(first.path, "util.ts"), "export const util = 'one';\n");
    expect(readFileSync(join(second.path, "util.ts"), "utf8")).toBe("export const util = 1;\n");
    expect(readFileSync(join(again.path, "util.ts"), "utf8")).toBe("export const util = 1;\n");
    expect(parentState(repo)).toEqual(before);
    const listed = await listHelperWorktrees(repo);
    expect(listed.map((entry) => entry.branch).sort()).toEqual([...branches].sort());
  });

  test("a helper of a helper starts from its parent's commits and lives beside it, not inside it", async () => {
    const repo = parentRepo();
    const before = parentState(repo);
    const outer = await created(repo, "outer");
    writeFileSync(join(outer.path, "outer.ts"), "export const outer = 1;\n");
    run(outer.path, "add", "outer.ts");
    run(outer.path, "commit", "-qm", "outer step");
    const outerHead = run(outer.path, "rev-parse", "HEAD").trim();

    const inner = await created(outer.path, "inner");
    expect(inner).toEqual({
      path: join(repo, ".clew", "worktrees", "inner"),
      branch: "clew/agent-inner",
      baseCommit: outerHead,
      repoRoot: repo,
      agentId: "inner",
    });
    expect(readFileSync(join(inner.path, "outer.ts"), "utf8")).toBe("export const outer = 1;\n");
    // Nothing appeared in the outer helper's tree either.
    expect(run(outer.path, "status", "--porcelain", "--untracked-files=all")).toBe("");
    writeFileSync(join(inner.path, "inner.ts"), "export const inner = 1;\n");
    const innerResult = await finishHelperWorktree(inner);
    expect(innerResult.diffStat).toContain("inner.ts");
    expect(innerResult.diffStat).not.toContain("outer.ts");
    expect((await finishHelperWorktree(outer)).commits).toBe(1);
    expect(await listHelperWorktrees(repo)).toEqual([
      { path: outer.path, branch: outer.branch },
      { path: inner.path, branch: inner.branch },
    ].sort((a, b) => a.path.localeCompare(b.path)));
    expect(parentState(repo)).toEqual(before);
  });

  test("a folder outside any repository is an error sentence, not a throw", async () => {
    const plain = tempDir("clew-not-a-repo-");
    const result = await createHelperWorktree({ cwd: plain, agentId: "x" });
    expect(result).toEqual({ error: expect.stringContaining(`isolation: worktree needs a git repository, and ${plain} is not inside one`) });
    expect(existsSync(join(plain, ".clew"))).toBe(false);
  });

  test("a missing folder and a repository without commits are errors too", async () => {
    const missing = join(tempDir("clew-missing-"), "gone");
    expect(await createHelperWorktree({ cwd: missing, agentId: "x" })).toEqual({
      error: expect.stringContaining(`${missing} is not inside one`),
    });
    const empty = tempDir("clew-empty-repo-");
    run(empty, "init", "-q");
    expect(await createHelperWorktree({ cwd: empty, agentId: "x" })).toEqual({
      error: `isolation: worktree needs a commit to start from, and the repository at ${empty} has none yet; commit once, then run the helper again.`,
    });
  });
});

describe("finishHelperWorktree", () => {
  test("uncommitted edits are committed on the helper's branch, kept and listed; the parent is untouched", async () => {
    const repo = parentRepo();
    const before = parentState(repo);
    const worktree = await created(repo, "editor");
    writeFileSync(join(worktree.path, "util.ts"), "export const util = 42;\n");
    writeFileSync(join(worktree.path, "added.ts"), "export const added = 'by helper';\n");
    rmSync(join(worktree.path, "feature.ts"));

    const result = await finishHelperWorktree(worktree);
    expect(result).toEqual({ changed: true, kept: true, commits: 1, diffStat: expect.any(String), summary: expect.any(String) });
    expect(result.diffStat).toContain("util.ts");
    expect(result.diffStat).toContain("added.ts");
    expect(result.diffStat).toContain("feature.ts");
    expect(result.diffStat).toContain("3 files changed");
    for (const part of [worktree.branch, worktree.path, result.diffStat, `git merge ${worktree.branch}`, `git worktree remove --force ${worktree.path} && git branch -D ${worktree.branch}`]) {
      expect(result.summary).toContain(part);
    }

    expect(run(repo, "show", `${worktree.branch}:util.ts`)).toBe("export const util = 42;\n");
    expect(run(repo, "show", `${worktree.branch}:added.ts`)).toBe("export const added = 'by helper';\n");
    expect(succeeds(repo, "cat-file", "-e", `${worktree.branch}:feature.ts`)).toBe(false);
    expect(run(repo, "log", "-1", "--format=%s|%P", worktree.branch).trim()).toBe(`clew: work of helper editor|${before.head}`);
    expect(run(worktree.path, "status", "--porcelain")).toBe("");
    expect(parentState(repo)).toEqual(before);
    expect(await listHelperWorktrees(repo)).toEqual([{ path: worktree.path, branch: worktree.branch }]);
  });

  test("commits the helper made itself are counted and not re-committed", async () => {
    const repo = parentRepo();
    const before = parentState(repo);
    const worktree = await created(repo, "committer");
    writeFileSync(join(worktree.path, "util.ts"), "export const util = 'first';\n");
    run(worktree.path, "commit", "-qam", "helper step 1");
    writeFileSync(join(worktree.path, "util.ts"), "export const util = 'second';\n");
    run(worktree.path, "commit", "-qam", "helper step 2");

    const result = await finishHelperWorktree(worktree);
    expect({ changed: result.changed, kept: result.kept, commits: result.commits }).toEqual({ changed: true, kept: true, commits: 2 });
    expect(result.diffStat).toBe(run(repo, "diff", "--stat", `${before.head}..${worktree.branch}`).trimEnd());
    expect(result.diffStat).toContain("util.ts | 2 +-");
    expect(run(repo, "log", "--format=%s", `${before.head}..${worktree.branch}`)).toBe("helper step 2\nhelper step 1\n");
    expect(parentState(repo)).toEqual(before);
  });

  test("an untouched worktree is removed with its branch, leaving no .clew folder behind", async () => {
    const repo = parentRepo();
    const before = parentState(repo);
    const worktree = await created(repo, "reader");
    // Ignored build output is the helper's own scratch, not a change.
    mkdirSync(join(worktree.path, "dist"));
    writeFileSync(join(worktree.path, "dist", "out.js"), "built\n");

    const result = await finishHelperWorktree(worktree);
    expect(result).toEqual({
      changed: false,
      kept: false,
      diffStat: "",
      commits: 0,
      summary: `The helper made no changes; its worktree ${worktree.path} and branch ${worktree.branch} were removed.`,
    });
    expect(existsSync(worktree.path)).toBe(false);
    expect(existsSync(join(repo, ".clew"))).toBe(false);
    expect(succeeds(repo, "show-ref", "--verify", `refs/heads/${worktree.branch}`)).toBe(false);
    expect(run(repo, "worktree", "list", "--porcelain")).not.toContain(".clew");
    expect(await listHelperWorktrees(repo)).toEqual([]);
    expect(parentState(repo)).toEqual(before);
  });

  test("an unchanged helper is removed while a changed sibling is kept", async () => {
    const repo = parentRepo();
    const [idle, busy] = await Promise.all([created(repo, "idle"), created(repo, "busy")]);
    writeFileSync(join(busy.path, "busy.txt"), "work\n");
    const [idleResult, busyResult] = await Promise.all([finishHelperWorktree(idle), finishHelperWorktree(busy)]);
    expect([idleResult.kept, busyResult.kept]).toEqual([false, true]);
    expect(existsSync(idle.path)).toBe(false);
    expect(existsSync(join(busy.path, "busy.txt"))).toBe(true);
    expect(await listHelperWorktrees(repo)).toEqual([{ path: busy.path, branch: busy.branch }]);
  });

  test("when the leftovers cannot be committed, the worktree is kept and the summary says why", async () => {
    const repo = parentRepo();
    const worktree = await created(repo, "locked");
    writeFileSync(join(worktree.path, "util.ts"), "export const util = 'unsaved';\n");
    const lock = resolve(worktree.path, run(worktree.path, "rev-parse", "--git-path", "index.lock").trim());
    writeFileSync(lock, "");
    const result = await finishHelperWorktree(worktree);
    rmSync(lock);
    expect({ changed: result.changed, kept: result.kept, commits: result.commits, diffStat: result.diffStat }).toEqual({
      changed: true,
      kept: true,
      commits: 0,
      diffStat: "",
    });
    expect(result.summary).toContain("Some changes could not be committed (Unable to create");
    expect(result.summary).toContain("they are still in the worktree");
    expect(readFileSync(join(worktree.path, "util.ts"), "utf8")).toBe("export const util = 'unsaved';\n");
    expect(await listHelperWorktrees(repo)).toEqual([{ path: worktree.path, branch: worktree.branch }]);
  });

  test("without any configured identity the helper's commit is authored by clew", async () => {
    withoutGlobalIdentity();
    const repo = parentRepo();
    const worktree = await created(repo, "anon");
    writeFileSync(join(worktree.path, "util.ts"), "export const util = 'anon';\n");
    const result = await finishHelperWorktree(worktree);
    expect(result.commits).toBe(1);
    expect(run(repo, "log", "-1", "--format=%an <%ae>", worktree.branch).trim()).toBe("clew <clew@localhost>");
  });

  test("a configured identity is used as it is", async () => {
    withoutGlobalIdentity();
    const repo = parentRepo();
    run(repo, "config", "user.name", "Repo Owner");
    run(repo, "config", "user.email", "owner@example.com");
    const worktree = await created(repo, "named");
    writeFileSync(join(worktree.path, "util.ts"), "export const util = 'named';\n");
    await finishHelperWorktree(worktree);
    expect(run(repo, "log", "-1", "--format=%an <%ae>", worktree.branch).trim()).toBe("Repo Owner <owner@example.com>");
  });
});

describe("listHelperWorktrees", () => {
  test("lists only helper worktrees, and nothing for a folder that is not a repository", async () => {
    const repo = parentRepo();
    run(repo, "worktree", "add", "-q", "-b", "side", join(tempDir("clew-side-"), "side"));
    const worktree = await created(repo, "listed");
    expect(await listHelperWorktrees(repo)).toEqual([{ path: worktree.path, branch: worktree.branch }]);
    expect(await listHelperWorktrees(tempDir("clew-plain-"))).toEqual([]);
  });
});
