/**
 * Workspace trust (spec §2.6), the data side: `<configDir>/trust.json` maps absolute directories
 * to `{ trusted: true, at }`. A directory is trusted when it or one of its parents is. Trusting
 * the home directory or the file-system root is refused (it would trust every project below it;
 * Claude Code also keeps home-directory trust to one session). A store that can't be read counts
 * as "nothing trusted": losing trust only brings back a warning, never extra permissions.
 */
import { readFileSync, realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { FatalError } from "../util/errors.ts";
import { writeFileAtomicSync } from "../util/atomic-write.ts";
import { isPlainObject } from "./key-path.ts";

export interface TrustEntry {
  trusted: boolean;
  at: string;
}

export type TrustStore = Record<string, TrustEntry>;

export function trustStorePath(configDir: string): string {
  return join(configDir, "trust.json");
}

export function readTrustStore(configDir: string): TrustStore {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(trustStorePath(configDir), "utf8"));
  } catch {
    return {};
  }
  const store: TrustStore = {};
  if (!isPlainObject(raw)) return store;
  for (const [dir, entry] of Object.entries(raw)) {
    if (isPlainObject(entry) && entry.trusted === true) store[dir] = { trusted: true, at: typeof entry.at === "string" ? entry.at : "" };
  }
  return store;
}

/** The directory as written (resolved) and, when it exists, through its symlinks. */
function candidates(dir: string): string[] {
  const resolved = resolve(dir);
  try {
    const real = realpathSync(resolved);
    return real === resolved ? [resolved] : [resolved, real];
  } catch {
    return [resolved];
  }
}

function tooBroad(dir: string, homeDir: string | undefined): boolean {
  return dir === "/" || (homeDir !== undefined && resolve(homeDir) === dir);
}

export function isTrusted(configDir: string, dir: string, homeDir?: string): boolean {
  const store = readTrustStore(configDir);
  for (const start of candidates(dir)) {
    for (let current = start; ; current = dirname(current)) {
      if (store[current]?.trusted === true && !tooBroad(current, homeDir)) return true;
      if (dirname(current) === current) break;
    }
  }
  return false;
}

/** Records trust for `dir` (absolute, an existing directory is expected) and returns the key stored. */
export function trustDirectory(configDir: string, dir: string, options: { homeDir?: string; now?: Date } = {}): string {
  const [key] = candidates(dir).slice(-1);
  const target = key ?? resolve(dir);
  if (tooBroad(target, options.homeDir)) {
    throw new FatalError(
      "usage",
      `clew: refusing to trust ${target}: it would trust every project below it.`,
      "Run clew trust inside the project directory instead.",
    );
  }
  const store = readTrustStore(configDir);
  store[target] = { trusted: true, at: (options.now ?? new Date()).toISOString() };
  writeFileAtomicSync(trustStorePath(configDir), `${JSON.stringify(store, null, 2)}\n`);
  return target;
}
