/**
 * `clew.lock` at the project root (committed): what `clew plugin sync` installed, pinned. Per
 * marketplace its source and commit; per plugin its id, marketplace, the source as the catalogue
 * writes it, the resolved source (pinned to the commit it was fetched at), commit, version and
 * content hash. JSON with sorted keys and a trailing newline, so diffs stay small.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomicSync } from "../../util/atomic-write.ts";
import type { PluginSource } from "../types.ts";

export const LOCK_FILE = "clew.lock";
export const LOCK_VERSION = 1;

export interface LockedMarketplace {
  source: unknown;
  commit?: string;
}

export interface LockedPlugin {
  name: string;
  marketplace: string;
  source: PluginSource;
  resolved: PluginSource;
  commit?: string;
  version: string;
  contentHash: string;
}

export interface Lock {
  lockfileVersion: number;
  marketplaces: Record<string, LockedMarketplace>;
  plugins: Record<string, LockedPlugin>;
}

export type LockRead = { kind: "missing" } | { kind: "invalid"; message: string } | { kind: "ok"; lock: Lock };

export function lockPath(projectDir: string): string {
  return join(projectDir, LOCK_FILE);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function readLock(projectDir: string): LockRead {
  const file = lockPath(projectDir);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return { kind: "missing" };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { kind: "invalid", message: `${file} is not valid JSON (${error instanceof Error ? error.message : String(error)}); restore it from git or run \`clew plugin sync\` to write it again` };
  }
  if (!isObject(value) || !isObject(value.marketplaces) || !isObject(value.plugins)) {
    return { kind: "invalid", message: `${file} needs "marketplaces" and "plugins" objects; restore it from git or run \`clew plugin sync\`` };
  }
  if (value.lockfileVersion !== LOCK_VERSION) {
    return { kind: "invalid", message: `${file} has lockfileVersion ${JSON.stringify(value.lockfileVersion)}; this clew reads version ${LOCK_VERSION}` };
  }
  for (const [id, plugin] of Object.entries(value.plugins)) {
    if (!isObject(plugin) || typeof plugin.contentHash !== "string" || typeof plugin.marketplace !== "string" || !isObject(plugin.resolved)) {
      return { kind: "invalid", message: `${file}: plugins["${id}"] is missing contentHash, marketplace or resolved; run \`clew plugin sync\` to write it again` };
    }
  }
  return { kind: "ok", lock: value as unknown as Lock };
}

function sortedObject<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.keys(record).sort().map((key) => [key, record[key] as T]));
}

export function formatLock(lock: Lock): string {
  return `${JSON.stringify({ lockfileVersion: LOCK_VERSION, marketplaces: sortedObject(lock.marketplaces), plugins: sortedObject(lock.plugins) }, null, 2)}\n`;
}

export function writeLock(projectDir: string, lock: Lock): string {
  const file = lockPath(projectDir);
  writeFileAtomicSync(file, formatLock(lock));
  return file;
}
