/**
 * When the `cleanupPeriodDays` sweep (store/retention.ts) runs for a session: once its first
 * request is out, never at start-up, at most once a day, and not at all without persistence or in `--bare`. Its
 * period is taken only from the user's own settings, managed settings or the command line: the
 * sweep deletes sessions of every project, so a repository's shared or local settings file must
 * not be able to wipe a user's history elsewhere.
 */
import { closeSync, mkdirSync, openSync, statSync, utimesSync } from "node:fs";
import { dirname, join } from "node:path";
import type { LoadedSettings } from "../settings/types.ts";
import { defaultSettings } from "../settings/defaults.ts";

/** One sweep a day is enough for a period counted in days; every other start pays one stat. */
const SWEEP_INTERVAL_MS = 24 * 60 * 60 * 1000;
/** Beside clew's other caches, not among the project folders (which other code lists as projects). */
const STAMP = join("cache", "last-session-sweep");

function sweptRecently(stamp: string, nowMs: number): boolean {
  try {
    return nowMs - statSync(stamp).mtimeMs < SWEEP_INTERVAL_MS;
  } catch {
    return false;
  }
}

function touch(stamp: string, when: Date): void {
  try {
    mkdirSync(dirname(stamp), { recursive: true });
    closeSync(openSync(stamp, "a"));
    utimesSync(stamp, when, when);
  } catch {
    // A read-only state folder: the next start sweeps again, which costs only time.
  }
}

/** Scopes whose `cleanupPeriodDays` is used; a project-level value gives way to the default. */
const TRUSTED_SCOPES = new Set(["user", "managed", "cli", "default"]);

export interface RetentionInput {
  configDir: string;
  loaded: LoadedSettings;
  sessionId: string;
  now: () => Date;
}

/** Starts the sweep once `after` settles; the returned function gives what the session's end waits for. */
export function sweepAfter(after: Promise<unknown>, input: RetentionInput): () => Promise<unknown> {
  const origin = input.loaded.origins.cleanupPeriodDays;
  const configured = input.loaded.settings.cleanupPeriodDays;
  const fallback = defaultSettings().cleanupPeriodDays;
  const periodDays = origin === undefined || TRUSTED_SCOPES.has(origin.scope) ? configured : typeof fallback === "number" ? fallback : 30;
  const projectsDir = join(input.configDir, "projects");
  const stamp = join(input.configDir, STAMP);
  let sweep: Promise<unknown> | undefined;
  void after.then(() => {
    const now = input.now();
    if (sweptRecently(stamp, now.getTime())) return;
    sweep = import("../store/retention.ts")
      .then(async (retention) => {
        const outcome = await retention.sweepExpiredSessions({ projectsDir, periodDays, keepSessionId: input.sessionId, nowMs: now.getTime() });
        // A backlog cut short by the sweep's budget goes on at the next start, not a day later.
        if (!outcome.stoppedEarly) touch(stamp, now);
      })
      .catch(() => undefined);
  }, () => undefined);
  return () => sweep ?? Promise.resolve();
}
