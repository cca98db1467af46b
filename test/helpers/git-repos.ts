/**
 * Real git repositories for tests, served the ways users' remotes are: a bare repository over
 * file://, and the same over git:// from a real `git daemon` on 127.0.0.1.
 *
 *   gitRepoFrom(dir)            commit a folder as it is (read in place, never copied; read-only
 *                               folders such as the corpus work) and push it to a new bare
 *                               repository → { url, commit, bare, branch }
 *   bareRepo()                  an empty bare repository (branch `main`) → its path
 *   commitFile(repo, files)     a new commit on top of `branch` (default main) with these files
 *                               written, pushed → the commit; `branch` may be a new branch
 *   forcePush(repo, files)      replace the branch's history with one new commit holding
 *                               exactly `files`, force-pushed → the commit
 *   startGitDaemon(base)        `git daemon --export-all` for the bare repositories under
 *                               `base`, on a free port → { urlOf(bare), stop() }
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative } from "node:path";

const IDENTITY = ["-c", "user.name=clew tests", "-c", "user.email=tests@clew.invalid", "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"];

export function runGit(cwd: string, args: string[], env: Record<string, string> = {}): string {
  const result = Bun.spawnSync(["git", ...IDENTITY, ...args], { cwd, stdout: "pipe", stderr: "pipe", env: { ...process.env, ...env } });
  if (result.exitCode !== 0) throw new Error(`git ${args.join(" ")} (in ${cwd}) failed: ${result.stderr.toString()}`);
  return result.stdout.toString().trim();
}

export interface TestRepo {
  /** file:// URL of the bare repository. */
  url: string;
  /** Path of the bare repository. */
  bare: string;
  /** The commit `branch` points at after the call that returned this. */
  commit: string;
  branch: string;
}

export function bareRepo(parent: string = mkdtempSync(join(tmpdir(), "repos-")), name = "market.git"): string {
  const bare = join(parent, name);
  mkdirSync(bare, { recursive: true });
  runGit(bare, ["init", "-q", "--bare", "-b", "main"]);
  return bare;
}

/** Commits `dir` as it is to `main` of a new bare repository (under `parent`, named `name`). */
export function gitRepoFrom(dir: string, options: { parent?: string; name?: string } = {}): TestRepo {
  const bare = bareRepo(options.parent, options.name);
  const gitDir = join(dirname(bare), `.${basename(bare)}-build`);
  const tree = ["--git-dir", gitDir, "--work-tree", dir];
  runGit(dirname(bare), ["init", "-q", "--bare", "-b", "main", gitDir]);
  runGit(dir, [...tree, "add", "-A"]);
  runGit(dir, [...tree, "commit", "-q", "--allow-empty", "-m", `import ${basename(dir)}`]);
  runGit(dirname(bare), ["--git-dir", gitDir, "push", "-q", bare, "HEAD:refs/heads/main"]);
  const commit = runGit(dirname(bare), ["--git-dir", gitDir, "rev-parse", "HEAD"]);
  rmSync(gitDir, { recursive: true, force: true });
  return { url: `file://${bare}`, bare, commit, branch: "main" };
}

function writeAll(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

/** A new commit on `branch` (created from main when new) with `files` written over the tree. */
export function commitFile(repo: TestRepo, files: Record<string, string>, options: { branch?: string; message?: string } = {}): TestRepo {
  const branch = options.branch ?? repo.branch;
  const work = mkdtempSync(join(tmpdir(), "work-"));
  try {
    runGit(work, ["clone", "-q", repo.url, "."]);
    const exists = runGit(work, ["ls-remote", "--heads", "origin", branch]) !== "";
    runGit(work, exists ? ["checkout", "-q", branch] : ["checkout", "-q", "-b", branch]);
    writeAll(work, files);
    runGit(work, ["add", "-A", "."]);
    runGit(work, ["commit", "-q", "-m", options.message ?? `change ${Object.keys(files).join(", ")}`]);
    runGit(work, ["push", "-q", "origin", `HEAD:refs/heads/${branch}`]);
    return { ...repo, commit: runGit(work, ["rev-parse", "HEAD"]), branch };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Rewrites `branch` to a single new commit holding exactly `files`, pushed with --force. */
export function forcePush(repo: TestRepo, files: Record<string, string>, options: { branch?: string } = {}): TestRepo {
  const branch = options.branch ?? repo.branch;
  const work = mkdtempSync(join(tmpdir(), "work-"));
  try {
    runGit(work, ["init", "-q", "-b", branch]);
    writeAll(work, files);
    runGit(work, ["add", "-A", "."]);
    runGit(work, ["commit", "-q", "-m", "rewritten history"]);
    runGit(work, ["push", "-q", "--force", repo.url, `HEAD:refs/heads/${branch}`]);
    return { ...repo, commit: runGit(work, ["rev-parse", "HEAD"]), branch };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export interface GitDaemon {
  port: number;
  /** git:// URL of a bare repository under the daemon's base path. */
  urlOf(bare: string): string;
  stop(): Promise<void>;
}

function freePort(): number {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}

export async function startGitDaemon(base: string, probeRepo: string): Promise<GitDaemon> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = freePort();
    const child = Bun.spawn(["git", "daemon", "--export-all", "--reuseaddr", "--listen=127.0.0.1", `--port=${port}`, `--base-path=${base}`, base], { stdout: "ignore", stderr: "pipe" });
    const urlOf = (bare: string) => `git://127.0.0.1:${port}/${relative(base, bare)}`;
    // Ready once it answers; a daemon that lost the port race exits and the next port is tried.
    for (let poll = 0; poll < 100 && child.exitCode === null; poll++) {
      const probe = Bun.spawnSync(["git", "ls-remote", urlOf(probeRepo)], { stdout: "ignore", stderr: "ignore" });
      if (probe.exitCode === 0) {
        return { port, urlOf, stop: async () => { child.kill(); await child.exited; } };
      }
      await Bun.sleep(50);
    }
    child.kill();
    await child.exited;
  }
  throw new Error("git daemon did not start on 127.0.0.1");
}
