/**
 * Rollback of an update whose first start crashes. Before the swap the updater writes a marker
 * naming the new version; the new version's first start flips it to "starting"; the first request
 * sent (`markStartupHealthy`) or an exit with code 0 settles it. A marker still "starting" at the
 * next start means that start died (a crash, a signal, a non-zero exit) before its first request:
 * `clew.previous` is restored and the version is remembered as bad.
 */
import { existsSync, rmSync } from "node:fs";
import { restorePrevious, previousPathOf } from "./swap.ts";
import { readJson, recordBadVersion, stateFiles, writeJsonAtomic } from "./state.ts";

export interface PendingStart {
  version: string;
  previousVersion: string;
  binary: string;
  state: "installed" | "starting";
  pid?: number;
}

export type StartupCheck =
  | { kind: "none" }
  | { kind: "first-start"; version: string }
  | { kind: "rolled-back"; from: string; to: string; binaryPath: string }
  | { kind: "rollback-failed"; version: string; message: string };

function readPending(stateDir: string): PendingStart | undefined {
  const value = readJson(stateFiles.pending(stateDir));
  if (typeof value !== "object" || value === null) return undefined;
  const entry = value as Record<string, unknown>;
  if (typeof entry.version !== "string" || typeof entry.previousVersion !== "string" || typeof entry.binary !== "string") return undefined;
  if (entry.state !== "installed" && entry.state !== "starting") return undefined;
  return { version: entry.version, previousVersion: entry.previousVersion, binary: entry.binary, state: entry.state, ...(typeof entry.pid === "number" ? { pid: entry.pid } : {}) };
}

export function writePendingStart(stateDir: string, update: Omit<PendingStart, "state" | "pid">): void {
  writeJsonAtomic(stateFiles.pending(stateDir), { ...update, state: "installed" } satisfies PendingStart);
}

export function clearPendingStart(stateDir: string): void {
  rmSync(stateFiles.pending(stateDir), { force: true });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Call once at the very start of `clew` (before any work that could crash), with `session` true
 * when this start will run a session (interactive or -p). Costs one stat when no update is
 * pending. On `rolled-back` the running process is the bad version: print a notice and re-run
 * `binaryPath` with the same arguments.
 */
export function checkPendingRollback(input: { stateDir: string; binaryPath: string; runningVersion: string; session: boolean }): StartupCheck {
  const path = stateFiles.pending(input.stateDir);
  if (!existsSync(path)) return { kind: "none" };
  const pending = readPending(input.stateDir);
  if (pending === undefined) {
    clearPendingStart(input.stateDir);
    return { kind: "none" };
  }
  if (pending.binary !== input.binaryPath) return { kind: "none" };
  if (pending.state === "installed") {
    // The old process that ran the update (or another version) starting again is not the new version's first start.
    // Only a session start is watched: `clew --version`, `clew update` or `clew config` failing says nothing about the new version.
    if (pending.version !== input.runningVersion || !input.session) return { kind: "none" };
    writeJsonAtomic(path, { ...pending, state: "starting", pid: process.pid } satisfies PendingStart);
    process.once("exit", (code) => {
      const now = readPending(input.stateDir);
      if (code === 0 && now?.state === "starting" && now.pid === process.pid) writeJsonAtomic(path, { ...now, state: "installed", pid: undefined });
    });
    return { kind: "first-start", version: pending.version };
  }
  if (pending.pid !== undefined && pending.pid !== process.pid && alive(pending.pid)) return { kind: "none" };
  return rollBack(input.stateDir, pending);
}

function rollBack(stateDir: string, pending: PendingStart): StartupCheck {
  if (!existsSync(previousPathOf(pending.binary))) {
    clearPendingStart(stateDir);
    return { kind: "rollback-failed", version: pending.version, message: `${previousPathOf(pending.binary)} is missing, so clew ${pending.version} stays installed` };
  }
  try {
    restorePrevious(pending.binary);
  } catch (error) {
    return { kind: "rollback-failed", version: pending.version, message: error instanceof Error ? error.message : String(error) };
  }
  recordBadVersion(stateDir, pending.version);
  clearPendingStart(stateDir);
  return { kind: "rolled-back", from: pending.version, to: pending.previousVersion, binaryPath: pending.binary };
}

/** Call when the first model request of a session has been sent: the new version works. */
export function markStartupHealthy(stateDir: string): void {
  const path = stateFiles.pending(stateDir);
  if (!existsSync(path)) return;
  const pending = readPending(stateDir);
  // Only the process that began the first start settles it; an older clew still running a session does not.
  if (pending === undefined || (pending.state === "starting" && pending.pid === process.pid)) clearPendingStart(stateDir);
}

/** `clew update --rollback`: restores `clew.previous` now, whatever its version. */
export function rollbackNow(input: { stateDir: string; binaryPath: string; currentVersion: string }): { ok: true } | { ok: false; message: string } {
  if (!existsSync(previousPathOf(input.binaryPath))) return { ok: false, message: `there is no ${previousPathOf(input.binaryPath)} to restore (no update has been installed here)` };
  try {
    restorePrevious(input.binaryPath);
  } catch (error) {
    return { ok: false, message: `could not restore ${previousPathOf(input.binaryPath)}: ${error instanceof Error ? error.message : String(error)}` };
  }
  recordBadVersion(input.stateDir, input.currentVersion);
  clearPendingStart(input.stateDir);
  return { ok: true };
}
