/**
 * The background check: at most once a day, never in the way. The caller starts it after the
 * first request has gone out; it never throws, and its whole result is one notice line (or none).
 * It installs when background updates are on and the binary's folder is writable; otherwise it
 * only says an update is available.
 */
import { accessSync, constants } from "node:fs";
import { dirname } from "node:path";
import type { Platform } from "./manifest.ts";
import { runUpdate, type UpdateOutcome } from "./apply.ts";
import type { UpdatePolicy } from "./policy.ts";
import { badVersions, readJson, stateFiles, writeJsonAtomic } from "./state.ts";

export const CHECK_INTERVAL_MS = 24 * 60 * 60 * 1000;

export interface BackgroundCheckInput {
  policy: UpdatePolicy;
  stateDir: string;
  binaryPath: string;
  runningVersion: string;
  platform: Platform | undefined;
  now: Date;
}

export interface LastCheck {
  checkedAt: string;
  result: string;
}

export function lastUpdateCheck(stateDir: string): LastCheck | undefined {
  const value = readJson(stateFiles.lastCheck(stateDir));
  if (typeof value !== "object" || value === null) return undefined;
  const entry = value as Record<string, unknown>;
  return typeof entry.checkedAt === "string" && typeof entry.result === "string" ? { checkedAt: entry.checkedAt, result: entry.result } : undefined;
}

function writable(folder: string): boolean {
  try {
    accessSync(folder, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function summary(outcome: UpdateOutcome): string {
  switch (outcome.kind) {
    case "updated":
      return `installed ${outcome.to}`;
    case "rejected":
      return `failed (${outcome.check}): ${outcome.message}`;
    case "up-to-date":
      return `up to date (${outcome.version})`;
    default:
      return outcome.kind.replace("-", " ") + ("version" in outcome ? ` ${outcome.version}` : "");
  }
}

function noticeOf(outcome: UpdateOutcome): string | undefined {
  if (outcome.kind === "updated") return `clew ${outcome.to} installed; restart to use it`;
  if (outcome.kind === "available") return `update available (clew ${outcome.version}): run clew update`;
  if (outcome.kind === "already-installed") return `clew ${outcome.version} installed; restart to use it`;
  return undefined;
}

/** Resolves to the notice to show, or undefined (nothing due, nothing new, or any failure). */
export async function backgroundUpdateCheck(input: BackgroundCheckInput): Promise<string | undefined> {
  try {
    if (!input.policy.autoUpdate.enabled || input.policy.pin !== undefined) return undefined;
    const last = lastUpdateCheck(input.stateDir);
    if (last !== undefined && input.now.getTime() - Date.parse(last.checkedAt) < CHECK_INTERVAL_MS) return undefined;
    // Recorded first: a check that crashes or hangs is not retried on every start.
    writeJsonAtomic(stateFiles.lastCheck(input.stateDir), { checkedAt: input.now.toISOString(), result: "started" } satisfies LastCheck);
    const outcome = await runUpdate({
      base: input.policy.base,
      channel: input.policy.channel,
      yes: false,
      binaryPath: input.binaryPath,
      runningVersion: input.runningVersion,
      platform: input.platform,
      trustedKey: input.policy.trustedKey,
      stateDir: input.stateDir,
      skipVersions: badVersions(input.stateDir),
      checkOnly: !writable(dirname(input.binaryPath)),
      confirm: async () => false,
      progress: () => {},
    });
    writeJsonAtomic(stateFiles.lastCheck(input.stateDir), { checkedAt: input.now.toISOString(), result: summary(outcome) } satisfies LastCheck);
    return noticeOf(outcome);
  } catch {
    return undefined;
  }
}
