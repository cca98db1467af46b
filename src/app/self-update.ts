/**
 * The seam between the CLI and update/: turns the environment and merged settings into what an
 * update needs (source, channel, pin, trusted key, binary path, platform, state folder), for
 * `clew update` and the background check. The start-up calls live in update-startup.ts, which
 * stays light.
 */
import type { Environment } from "../settings/paths.ts";
import { runUpdate, type UpdateOutcome } from "../update/apply.ts";
import { backgroundUpdateCheck, lastUpdateCheck, type LastCheck } from "../update/background.ts";
import { trustedReleaseKey } from "../update/build-info.ts";
import type { Platform } from "../update/manifest.ts";
import { machineFacts, platformFor } from "../update/platform.ts";
import { updatePolicy, type UpdatePolicy, type UpdateSettings } from "../update/policy.ts";
import { rollbackNow, type StartupCheck } from "../update/rollback.ts";
import { updateStateDir } from "../update/state.ts";
import { binaryOf } from "./update-startup.ts";

export type { StartupCheck, UpdateOutcome, UpdatePolicy };

export interface UpdateContext {
  policy: UpdatePolicy;
  stateDir: string;
  binaryPath: string;
  runningVersion: string;
  platform: Platform | undefined;
  /** Running from source under bun: there is no clew binary to replace. */
  fromSource: boolean;
}

export function updateContext(env: Environment, settings: UpdateSettings, runningVersion: string, channel?: "latest" | "stable"): UpdateContext {
  const binary = binaryOf(env);
  return {
    policy: updatePolicy(env.update, settings, trustedReleaseKey(), channel),
    stateDir: updateStateDir(env.configDir),
    binaryPath: binary.path,
    runningVersion,
    platform: platformFor(machineFacts()),
    fromSource: binary.fromSource,
  };
}

export async function selfUpdate(
  context: UpdateContext,
  options: { version?: string; yes: boolean; confirm: (question: string) => Promise<boolean>; progress: (line: string) => void },
): Promise<UpdateOutcome> {
  return await runUpdate({
    base: context.policy.base,
    channel: context.policy.channel,
    ...(options.version !== undefined ? { version: options.version } : {}),
    yes: options.yes,
    binaryPath: context.binaryPath,
    runningVersion: context.runningVersion,
    platform: context.platform,
    trustedKey: context.policy.trustedKey,
    stateDir: context.stateDir,
    ...(context.policy.pin !== undefined ? { pin: context.policy.pin } : {}),
    confirm: options.confirm,
    progress: options.progress,
  });
}

export function selfRollback(context: UpdateContext): { ok: true } | { ok: false; message: string } {
  return rollbackNow({ stateDir: context.stateDir, binaryPath: context.binaryPath, currentVersion: context.runningVersion });
}

/** For after the first request: at most once a day, never throws; the notice line to show, if any. */
export async function backgroundUpdateNotice(env: Environment, settings: UpdateSettings, runningVersion: string, now: Date = new Date()): Promise<string | undefined> {
  try {
    const context = updateContext(env, settings, runningVersion);
    if (context.fromSource) return undefined;
    return await backgroundUpdateCheck({ policy: context.policy, stateDir: context.stateDir, binaryPath: context.binaryPath, runningVersion, platform: context.platform, now });
  } catch {
    return undefined;
  }
}

/** For `clew doctor`: when the last background check ran and what it found. */
export function lastBackgroundCheck(env: Environment): LastCheck | undefined {
  return lastUpdateCheck(updateStateDir(env.configDir));
}
