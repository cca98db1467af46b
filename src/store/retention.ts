/**
 * The retention sweep behind `cleanupPeriodDays`: a session whose transcript has not been written
 * for longer than the period is deleted with its own folder (spilled tool results, helper
 * transcripts, its checkpoint record, its hook env file). Every project under `projects/` is
 * swept, not only the current one: a CI host starts each job in a new folder, so the folders
 * that pile up are exactly the ones never opened again.
 *
 * Only what is named by a session id is touched. Everything else in a project's state folder is
 * shared by its sessions — auto memory, prompt history, the checkpoint shadow repositories — and
 * stays, as does the project folder itself (another process may be creating a session in it).
 *
 * A failed sweep costs only disk, so every error skips the session and the sweep goes on; the
 * next start tries again. It runs in the background and the session's end waits for it, so it is
 * bounded in deletions and in time rather than finishing a large backlog in one go.
 */
import { lstat, readdir, rm, unlink } from "node:fs/promises";
import type { Stats } from "node:fs";
import { join } from "node:path";
import { isSessionId } from "./sessions.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Sessions deleted per start: a backlog of thousands is worked off over later starts. */
export const MAX_DELETIONS_PER_SWEEP = 100;
/** How long one sweep may keep going (its session's end waits at most about this long). */
export const SWEEP_BUDGET_MS = 2_000;

export interface SweepOptions {
  /** `<configDir>/projects`: one state folder per project directory. */
  projectsDir: string;
  /** `cleanupPeriodDays`. Below 1 (never valid in settings) nothing is deleted. */
  periodDays: number;
  /** The running session: kept whatever its age (a resumed old session is still being written). */
  keepSessionId: string;
  /** The clock the session runs on, in epoch milliseconds. */
  nowMs: number;
  maxDeletions?: number;
  budgetMs?: number;
}

export interface SweepOutcome {
  /** Sessions deleted, as `<project folder>/<session id>`. */
  deleted: string[];
  /** The deletion or time budget ran out before every project was looked at. */
  stoppedEarly: boolean;
}

/** Deletes expired sessions; never throws. */
export async function sweepExpiredSessions(options: SweepOptions): Promise<SweepOutcome> {
  const outcome: SweepOutcome = { deleted: [], stoppedEarly: false };
  // 0 or a negative period would read as "everything is expired": the safe reading deletes nothing.
  if (!Number.isFinite(options.periodDays) || options.periodDays < 1 || !Number.isFinite(options.nowMs)) return outcome;
  const cutoffMs = options.nowMs - options.periodDays * DAY_MS;
  const maxDeletions = options.maxDeletions ?? MAX_DELETIONS_PER_SWEEP;
  const deadline = performance.now() + (options.budgetMs ?? SWEEP_BUDGET_MS);
  const keep = options.keepSessionId.toLowerCase();
  const outOfBudget = () => outcome.deleted.length >= maxDeletions || performance.now() > deadline;

  for (const project of await namesIn(options.projectsDir)) {
    const dir = join(options.projectsDir, project);
    for (const name of await namesIn(dir)) {
      if (outOfBudget()) {
        outcome.stoppedEarly = true;
        return outcome;
      }
      if (!name.endsWith(".jsonl")) continue;
      const sessionId = name.slice(0, -".jsonl".length);
      if (!isSessionId(sessionId) || sessionId.toLowerCase() === keep) continue;
      if (!(await isExpired(dir, sessionId, cutoffMs))) continue;
      if (await removeSession(dir, sessionId)) outcome.deleted.push(`${project}/${sessionId}`);
    }
  }
  return outcome;
}

/** A folder's entries; none when it cannot be read (missing, not a folder, no permission). */
async function namesIn(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}

async function statOf(path: string): Promise<Stats | undefined> {
  try {
    return await lstat(path);
  } catch {
    return undefined;
  }
}

/**
 * The transcript is older than the cutoff, and so is everything directly in the session's folder:
 * a helper of a session still running elsewhere writes there without touching the transcript,
 * and a subfolder's time changes whenever a file is added to it.
 */
async function isExpired(dir: string, sessionId: string, cutoffMs: number): Promise<boolean> {
  const transcript = await statOf(join(dir, `${sessionId}.jsonl`));
  if (!transcript?.isFile() || transcript.mtimeMs >= cutoffMs) return false;
  const folderPath = join(dir, sessionId);
  const folder = await statOf(folderPath);
  if (!folder) return true;
  if (folder.mtimeMs >= cutoffMs) return false;
  if (!folder.isDirectory()) return true;
  for (const name of await namesIn(folderPath)) {
    const entry = await statOf(join(folderPath, name));
    if (entry && entry.mtimeMs >= cutoffMs) return false;
  }
  return true;
}

/**
 * The folder goes first and the transcript last: a sweep cut short in between (an error, the
 * process ending) leaves the transcript, so a later sweep finds the session and finishes it,
 * instead of leaving a folder no transcript points to.
 */
async function removeSession(dir: string, sessionId: string): Promise<boolean> {
  try {
    // A symlink in the folder's place is removed itself; rm never follows it.
    await rm(join(dir, sessionId), { recursive: true, force: true });
    await unlink(join(dir, `${sessionId}.jsonl`));
    return true;
  } catch {
    return false;
  }
}
