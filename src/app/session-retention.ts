/**
 * When the `cleanupPeriodDays` sweep (store/retention.ts) runs for a session: once its first
 * request is out, never at start-up, and not at all without persistence or in `--bare`. Its
 * period is taken only from the user's own settings, managed settings or the command line: the
 * sweep deletes sessions of every project, so a repository's shared or local settings file must
 * not be able to wipe a user's history elsewhere.
 */
import { join } from "node:path";
import type { LoadedSettings } from "../settings/types.ts";
import { defaultSettings } from "../settings/defaults.ts";

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
  let sweep: Promise<unknown> | undefined;
  void after.then(() => {
    sweep = import("../store/retention.ts")
      .then((retention) => retention.sweepExpiredSessions({ projectsDir: join(input.configDir, "projects"), periodDays, keepSessionId: input.sessionId, nowMs: input.now().getTime() }))
      .catch(() => undefined);
  }, () => undefined);
  return () => sweep ?? Promise.resolve();
}
