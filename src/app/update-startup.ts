/**
 * The two self-update calls on a session's path, kept apart from the updater so start-up loads
 * only the marker check: the rollback check at start and the "first request sent" mark.
 */
import { existsSync, realpathSync } from "node:fs";
import { basename } from "node:path";
import type { Environment } from "../settings/paths.ts";
import { checkPendingRollback, markStartupHealthy, type StartupCheck } from "../update/rollback.ts";
import { stateFiles, updateStateDir } from "../update/state.ts";

export type { StartupCheck };

/** The installed binary (symlinks resolved), and whether this is bun running the sources instead. */
export function binaryOf(env: Environment): { path: string; fromSource: boolean } {
  let path = env.update.executablePath;
  try {
    path = realpathSync(path);
  } catch {
    // A binary deleted while running keeps its recorded path; the update then fails at the swap, naming it.
  }
  return { path, fromSource: /^bun(\.exe)?$/i.test(basename(path)) };
}

/**
 * For the very start of `clew` (cheap: one stat when no update is pending); `session`: this start
 * runs a session (only those are watched after an update; every start restores). On `rolled-back`,
 * print `clew <from> did not start after the update; restored <to>` and re-run `binaryPath`.
 */
export function startupRollbackCheck(env: Environment, runningVersion: string, session: boolean): StartupCheck {
  const stateDir = updateStateDir(env.configDir);
  if (!existsSync(stateFiles.pending(stateDir))) return { kind: "none" };
  const binary = binaryOf(env);
  if (binary.fromSource) return { kind: "none" };
  return checkPendingRollback({ stateDir, binaryPath: binary.path, runningVersion, session });
}

/** For the moment the first model request of a session has been sent. */
export function startupHealthy(env: Environment): void {
  markStartupHealthy(updateStateDir(env.configDir));
}
