/**
 * Replacing the installed binary without a moment where it is missing or partial: every step
 * that touches the installed path is a rename within its directory, which POSIX makes atomic.
 * The binary being replaced stays as `<binary>.previous` for rollback.
 */
import { copyFileSync, existsSync, linkSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";

export function previousPathOf(binaryPath: string): string {
  return `${binaryPath}.previous`;
}

/** A sibling of the installed binary, so the final rename never crosses file systems. */
export function siblingTemp(binaryPath: string, purpose: string): string {
  return join(dirname(binaryPath), `.${basename(binaryPath)}.${purpose}-${process.pid}`);
}

/** Hard link when the file system allows it (instant, same bytes), else a copy. */
function duplicate(from: string, to: string): void {
  rmSync(to, { force: true });
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

/**
 * Keeps the current binary as `.previous`, then renames the verified staged file over it. Windows
 * refuses to replace a running `.exe` but lets it be renamed: there the current binary is moved to
 * `.previous` first and the staged file takes its place (put back if that fails).
 */
export function swapInto(staged: string, binaryPath: string, platform: NodeJS.Platform = process.platform): void {
  if (platform === "win32") {
    const previous = previousPathOf(binaryPath);
    rmSync(previous, { force: true });
    renameSync(binaryPath, previous);
    try {
      renameSync(staged, binaryPath);
    } catch (error) {
      renameSync(previous, binaryPath);
      throw error;
    }
    return;
  }
  const keep = siblingTemp(binaryPath, "keep");
  try {
    duplicate(binaryPath, keep);
    renameSync(keep, previousPathOf(binaryPath));
    renameSync(staged, binaryPath);
  } finally {
    rmSync(keep, { force: true });
  }
}

/**
 * Puts `.previous` back at the binary's path and keeps the replaced binary as the new
 * `.previous` (so a rollback can itself be undone). Throws when there is nothing to restore.
 */
export function restorePrevious(binaryPath: string, platform: NodeJS.Platform = process.platform): void {
  const previous = previousPathOf(binaryPath);
  if (!existsSync(previous)) throw new Error(`there is no ${previous} to restore`);
  if (platform === "win32") {
    // The running (bad) .exe can be renamed, not replaced: three renames swap the two files.
    const outgoing = siblingTemp(binaryPath, "outgoing");
    renameSync(binaryPath, outgoing);
    try {
      renameSync(previous, binaryPath);
    } catch (error) {
      renameSync(outgoing, binaryPath);
      throw error;
    }
    renameSync(outgoing, previous);
    return;
  }
  const incoming = siblingTemp(binaryPath, "restore");
  const outgoing = siblingTemp(binaryPath, "outgoing");
  try {
    duplicate(previous, incoming);
    duplicate(binaryPath, outgoing);
    renameSync(incoming, binaryPath);
    renameSync(outgoing, previous);
  } finally {
    rmSync(incoming, { force: true });
    rmSync(outgoing, { force: true });
  }
}
