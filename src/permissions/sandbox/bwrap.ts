/**
 * The bubblewrap command line for one sandboxed command (Linux). Pure: what exists on disk comes
 * in through `kindOf`, so the argv is unit-tested without bwrap. Mount order matters — each
 * mount covers what an earlier one put at or under its path:
 *
 * 1. the whole file system read-only, a fresh /dev and /proc;
 * 2. the session's private /tmp (a directory of clew's, so it survives between commands), then
 *    the directories shown read-only though not writable (a worktree helper's project);
 * 3. the writable directories, then the protected paths inside them and `denyWrite` read-only;
 * 4. `denyRead` masked: a directory by an unreadable empty directory (or, when `allowRead`
 *    re-opens something inside it, an empty tmpfs), a file by an unreadable empty file;
 * 5. `allowRead` bound back read-only.
 *
 * As real root the command keeps uid 0 but loses every capability: without CAP_DAC_OVERRIDE the
 * unreadable masks hold, and without CAP_SYS_ADMIN it cannot unmount them.
 */
import { isInside } from "../path-rules.ts";
import type { SandboxPolicy } from "./types.ts";

export type PathKind = "dir" | "file" | undefined;

export interface BwrapLayout {
  bwrap: string;
  /** Set when the command joins the session's network namespace: `[nsenter, --net=/proc/N/ns/net, …]`. */
  joinNetwork?: readonly string[];
  /** Host directory whose `tmp/` becomes the command's /tmp. */
  sessionDir: string;
  /** An empty file and an empty directory, both mode 000, to mask `denyRead` paths with. */
  deniedFile: string;
  deniedDir: string;
  cwd: string;
  /** Paths inside writable directories that stay read-only (boundary.ts). */
  protectedPaths: readonly string[];
  /** Directories mounted read-only before the writable ones (types.ts `SandboxBoundary.readOnlyDirs`). */
  readOnlyDirs?: readonly string[];
  isRoot: boolean;
  /** Unshare the network here (no shared namespace to join): loopback only, no proxy. */
  unshareNet: boolean;
  kindOf: (path: string) => PathKind;
}

export function bwrapArgs(policy: SandboxPolicy, layout: BwrapLayout): string[] {
  const args: string[] = [...(layout.joinNetwork ?? []), layout.bwrap, "--die-with-parent", "--unshare-pid", "--unshare-ipc", "--unshare-uts"];
  if (layout.unshareNet) args.push("--unshare-net");
  if (layout.isRoot) args.push("--cap-drop", "ALL");
  args.push("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--bind", `${layout.sessionDir}/tmp`, "/tmp");
  for (const dir of layout.readOnlyDirs ?? []) if (layout.kindOf(dir) !== undefined) args.push("--ro-bind", dir, dir);
  for (const dir of policy.writable) if (layout.kindOf(dir) !== undefined) args.push("--bind", dir, dir);
  const readOnly = [...layout.protectedPaths, ...policy.denyWrite].filter((path) => layout.kindOf(path) !== undefined);
  for (const path of new Set(readOnly)) args.push("--ro-bind", path, path);
  for (const path of policy.denyRead) {
    const kind = layout.kindOf(path);
    if (kind === "file") args.push("--ro-bind", layout.deniedFile, path);
    else if (kind === "dir") {
      const reopened = policy.allowRead.some((inner) => inner !== path && isInside(inner, path));
      if (reopened) args.push("--tmpfs", path, "--remount-ro", path);
      else args.push("--ro-bind", layout.deniedDir, path);
    }
  }
  for (const path of policy.allowRead) {
    if (layout.kindOf(path) !== undefined && policy.denyRead.some((denied) => isInside(path, denied))) args.push("--ro-bind", path, path);
  }
  args.push("--chdir", layout.cwd, "--");
  return args;
}
