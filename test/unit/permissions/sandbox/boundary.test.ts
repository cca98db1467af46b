// The boundary a command runs under: the session's, and a helper's in its own git worktree (the
// worktree writable instead of the project, the repository's git data a commit needs writable,
// hooks, config and the links git follows read-only), down to the bubblewrap mounts. Pure: the
// file system comes in through readText / realpath / kindOf.
import { describe, expect, test } from "bun:test";
import { sessionBoundary, worktreeBoundary, type BoundaryDirs } from "../../../../src/permissions/sandbox/boundary.ts";
import { bwrapArgs, type PathKind } from "../../../../src/permissions/sandbox/bwrap.ts";
import { readLinkedWorktree } from "../../../../src/permissions/sandbox/linked-worktree.ts";
import type { SandboxConfig } from "../../../../src/permissions/sandbox/types.ts";

const BASE: SandboxConfig = {
  enabled: true,
  failIfUnavailable: false,
  autoAllowBashIfSandboxed: true,
  allowUnsandboxedCommands: true,
  excludedCommands: [],
  allowWrite: [{ text: "~/.cache", base: "/repo" }],
  denyWrite: [],
  denyRead: [],
  allowRead: [],
  allowedDomains: [],
  deniedDomains: [],
  allowLocalBinding: false,
  strictAllowlist: false,
};

/** A repository at /repo with two helper worktrees, a, b, and a submodule at /repo/mod. */
const FILES: Record<string, string> = {
  "/repo/.clew/worktrees/a/.git": "gitdir: /repo/.git/worktrees/a\n",
  "/repo/.git/worktrees/a/commondir": "../..\n",
  "/repo/.clew/worktrees/b/.git": "gitdir: /repo/.git/worktrees/b\n",
  "/repo/.git/worktrees/b/commondir": "../..\n",
  "/repo/mod/.git": "gitdir: ../.git/modules/mod\n",
};

function dirs(workingDirs: string[]): BoundaryDirs {
  return { workingDirs, homeDir: "/home/u", readText: (file) => FILES[file] };
}

describe("linked worktrees", () => {
  test("a worktree's .git file names its admin folder, whose commondir names the shared .git; a submodule or a plain checkout is none", () => {
    const read = (file: string) => FILES[file];
    expect(readLinkedWorktree("/repo/.clew/worktrees/a", read)).toEqual({ path: "/repo/.clew/worktrees/a", gitDir: "/repo/.git/worktrees/a", commonDir: "/repo/.git" });
    expect(readLinkedWorktree("/repo/mod", read)).toBeUndefined();
    expect(readLinkedWorktree("/repo", read)).toBeUndefined();
    expect(readLinkedWorktree("/w", (file) => (file === "/w/.git" ? "gitdir: ../main/.git/worktrees/w\n" : file === "/main/.git/worktrees/w/commondir" ? "../..\n" : undefined))).toEqual({
      path: "/w",
      gitDir: "/main/.git/worktrees/w",
      commonDir: "/main/.git",
    });
  });
});

describe("boundaries", () => {
  test("the session's: its working directories and allowWrite writable, the protected paths inside them read-only, nothing shown read-only", () => {
    const boundary = sessionBoundary(BASE, dirs(["/repo", "/extra"]));
    expect(boundary.policy.writable).toEqual(["/repo", "/extra", "/home/u/.cache"]);
    expect(boundary.protectedPaths).toContain("/repo/.clew");
    expect(boundary.protectedPaths).toContain("/repo/.git/hooks");
    expect(boundary.protectedPaths).toContain("/extra/.git/config");
    expect(boundary.readOnlyDirs).toEqual([]);
  });

  test("a helper in worktree a: the worktree and the git data a commit writes replace the project; other helpers' worktrees, hooks, config and git's links stay read-only", () => {
    const boundary = worktreeBoundary(BASE, dirs(["/repo", "/extra"]), "/repo/.clew/worktrees/a");
    expect(boundary.policy.writable).toEqual([
      "/repo/.clew/worktrees/a",
      "/extra",
      "/home/u/.cache",
      "/repo/.git/worktrees/a",
      "/repo/.git/objects",
      "/repo/.git/refs",
      "/repo/.git/logs",
    ]);
    expect(boundary.readOnlyDirs).toEqual(["/repo"]);
    const worktreeShields = [
      "/repo/.clew/worktrees/a/.git",
      "/repo/.git/worktrees/a/commondir",
      "/repo/.git/worktrees/a/gitdir",
      "/repo/.git/worktrees/a/config.worktree",
      "/repo/.git/hooks",
      "/repo/.git/config",
    ];
    expect(boundary.protectedPaths.slice(-worktreeShields.length)).toEqual(worktreeShields);
    // The project's own protected paths would cover the worktree inside .clew: they are not the helper's.
    expect(boundary.protectedPaths).not.toContain("/repo/.clew");
    expect(boundary.protectedPaths).toContain("/repo/.clew/worktrees/a/.claude");
    expect(boundary.policy.writable.some((path) => path.includes("worktrees/b"))).toBe(false);
  });

  test("a session started inside a linked worktree may write what git needs in the main repository, as spec §7.2 says", () => {
    const boundary = sessionBoundary(BASE, dirs(["/repo/.clew/worktrees/b"]));
    expect(boundary.policy.writable).toEqual(["/repo/.clew/worktrees/b", "/home/u/.cache", "/repo/.git/worktrees/b", "/repo/.git/objects", "/repo/.git/refs", "/repo/.git/logs"]);
    expect(boundary.protectedPaths).toContain("/repo/.git/worktrees/b/commondir");
    expect(boundary.readOnlyDirs).toEqual([]);
  });

  test("symlinked paths are covered in both spellings", () => {
    const real: Record<string, string> = { "/link/repo": "/repo", "/link/repo/.clew/worktrees/a": "/repo/.clew/worktrees/a" };
    const boundary = worktreeBoundary(BASE, { ...dirs(["/link/repo"]), realpath: (path) => real[path] ?? path }, "/link/repo/.clew/worktrees/a");
    expect(boundary.readOnlyDirs).toEqual(["/link/repo", "/repo"]);
    expect(boundary.policy.writable.slice(0, 2)).toEqual(["/link/repo/.clew/worktrees/a", "/repo/.clew/worktrees/a"]);
  });

  test("bubblewrap: the project shown read-only first, then the worktree and git data writable, then the shields", () => {
    const boundary = worktreeBoundary({ ...BASE, allowWrite: [] }, dirs(["/repo"]), "/repo/.clew/worktrees/a");
    const kinds: Record<string, PathKind> = {
      "/repo": "dir",
      "/repo/.clew/worktrees/a": "dir",
      "/repo/.clew/worktrees/a/.git": "file",
      "/repo/.git/worktrees/a": "dir",
      "/repo/.git/worktrees/a/commondir": "file",
      "/repo/.git/worktrees/a/gitdir": "file",
      "/repo/.git/objects": "dir",
      "/repo/.git/refs": "dir",
      "/repo/.git/hooks": "dir",
      "/repo/.git/config": "file",
    };
    const args = bwrapArgs(boundary.policy, {
      bwrap: "/usr/bin/bwrap",
      sessionDir: "/tmp/s",
      deniedFile: "/tmp/s/denied-file",
      deniedDir: "/tmp/s/denied-dir",
      cwd: "/repo/.clew/worktrees/a",
      protectedPaths: boundary.protectedPaths,
      readOnlyDirs: boundary.readOnlyDirs,
      isRoot: true,
      unshareNet: true,
      kindOf: (path) => kinds[path],
    });
    expect(args.slice(args.indexOf("/tmp") + 1)).toEqual([
      "--ro-bind", "/repo", "/repo",
      "--bind", "/repo/.clew/worktrees/a", "/repo/.clew/worktrees/a",
      "--bind", "/repo/.git/worktrees/a", "/repo/.git/worktrees/a",
      "--bind", "/repo/.git/objects", "/repo/.git/objects",
      "--bind", "/repo/.git/refs", "/repo/.git/refs",
      "--ro-bind", "/repo/.clew/worktrees/a/.git", "/repo/.clew/worktrees/a/.git",
      "--ro-bind", "/repo/.git/worktrees/a/commondir", "/repo/.git/worktrees/a/commondir",
      "--ro-bind", "/repo/.git/worktrees/a/gitdir", "/repo/.git/worktrees/a/gitdir",
      "--ro-bind", "/repo/.git/hooks", "/repo/.git/hooks",
      "--ro-bind", "/repo/.git/config", "/repo/.git/config",
      "--chdir", "/repo/.clew/worktrees/a", "--",
    ]);
  });
});
