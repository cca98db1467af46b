/**
 * Settings and directories → the boundary commands run under (types.ts `SandboxBoundary`): the
 * session's, and that of a helper agent working in its own git worktree. Pure apart from the file
 * reads and real paths passed in, so both are unit-tested without bwrap.
 */
import { readLinkedWorktree, worktreeGitShields, worktreeGitWrites } from "./linked-worktree.ts";
import { buildPolicy, protectedPaths, type PolicyDirs } from "./policy.ts";
import type { SandboxBoundary, SandboxConfig } from "./types.ts";

export interface BoundaryDirs extends PolicyDirs {
  /** A small file's text, undefined when it cannot be read (a worktree's `.git` file, `commondir`). */
  readText: (file: string) => string | undefined;
}

/** The session's boundary: its working directories writable (workingDirs[0] is the project). */
export function sessionBoundary(config: SandboxConfig, dirs: BoundaryDirs): SandboxBoundary {
  return boundary(config, dirs, []);
}

/**
 * A helper in its own worktree: the worktree takes the project's place among the writable
 * directories, so the helper's commands cannot change the project's files (nor another helper's
 * worktree, which lies inside the project); the project stays readable. The other working
 * directories and `allowWrite` stay writable, as for the session.
 */
export function worktreeBoundary(config: SandboxConfig, dirs: BoundaryDirs, worktree: string): SandboxBoundary {
  const [project, ...others] = dirs.workingDirs;
  return boundary(config, { ...dirs, workingDirs: [worktree, ...others] }, project === undefined || project === worktree ? [] : [project]);
}

function unique(paths: readonly string[]): string[] {
  return [...new Set(paths)];
}

function boundary(config: SandboxConfig, dirs: BoundaryDirs, readOnlyDirs: readonly string[]): SandboxBoundary {
  // bwrap mounts the target a symlink points at: both spellings must be covered.
  const withReal = (paths: readonly string[]): string[] =>
    paths.flatMap((path) => {
      const real = dirs.realpath?.(path);
      return real !== undefined && real !== path ? [path, real] : [path];
    });
  const base = buildPolicy(config, dirs);
  const linked = dirs.workingDirs.flatMap((dir) => readLinkedWorktree(dir, dirs.readText) ?? []);
  const policy = { ...base, writable: unique([...base.writable, ...withReal(linked.flatMap(worktreeGitWrites))]) };
  return {
    policy,
    protectedPaths: unique([...protectedPaths(policy, dirs.workingDirs), ...withReal(linked.flatMap(worktreeGitShields))]),
    readOnlyDirs: unique(withReal(readOnlyDirs)),
  };
}
