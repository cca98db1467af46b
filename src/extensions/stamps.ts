/**
 * What a scan of the component folders looked at — every stat (kind, size, mtime, inode) and every
 * folder listing (the names) — so a later start can tell that the folders are as they were by
 * looking at the same things again, with no scanner, no entries and no fingerprint to build: the
 * scan is a function of what it saw, so if each stat and listing comes out the same, so would the
 * scan. Files are told by their stat (an edit in place changes no folder), folders by their
 * listing (a stat of the folder would miss an entry added within its timestamp's granularity).
 */
import { readdirSync, statSync, type Stats } from "node:fs";

/** What Scanner reports while it scans (scan.ts). */
export interface ScanRecorder {
  stat(path: string, stat: Stats | undefined): void;
  /** The sorted names, or the error code when the folder could not be listed. */
  list(path: string, result: readonly string[] | string): void;
}

const MISSING = 0;
const FILE = 1;
const DIRECTORY = 2;
const OTHER = 3;

/** [path, kind] or, for a file, [path, kind, size, mtimeMs, ino, dev]; a folder adds [ino, dev]. */
export type StatStamp = [string, number, ...number[]];
/** [path, names joined by NUL] or [path, null, error code]. */
export type ListStamp = [string, string] | [string, null, string];

export interface Stamps {
  stats: StatStamp[];
  lists: ListStamp[];
}

function kindOf(stat: Stats | undefined): number {
  if (stat === undefined) return MISSING;
  return stat.isFile() ? FILE : stat.isDirectory() ? DIRECTORY : OTHER;
}

function stampOf(path: string, stat: Stats | undefined): StatStamp {
  const kind = kindOf(stat);
  if (stat === undefined || kind === OTHER) return [path, kind];
  return kind === FILE ? [path, kind, stat.size, stat.mtimeMs, stat.ino, stat.dev] : [path, kind, stat.ino, stat.dev];
}

/** A recorder for one or more scans, and the stamps it collected. */
export function stampRecorder(): { recorder: ScanRecorder; stamps: Stamps } {
  const stamps: Stamps = { stats: [], lists: [] };
  return {
    stamps,
    recorder: {
      stat: (path, stat) => {
        stamps.stats.push(stampOf(path, stat));
      },
      list: (path, result) => {
        stamps.lists.push(typeof result === "string" ? [path, null, result] : [path, result.join("\u0000")]);
      },
    },
  };
}

const QUIET = { throwIfNoEntry: false } as const;

/** The shape a stored summary's stamps must have before they are trusted (a damaged file is no summary). */
export function isStamps(value: unknown): value is Stamps {
  const stamps = value as Partial<Stamps> | undefined;
  return Array.isArray(stamps?.stats) && Array.isArray(stamps.lists);
}

/**
 * Whether every stat and listing comes out as recorded. Written as one plain loop each: it runs
 * on every warm start, before the first request, while none of it is compiled yet.
 */
export function stampsHold(stamps: Stamps): boolean {
  for (const stamp of stamps.stats) {
    let stat: Stats | undefined;
    try {
      stat = statSync(stamp[0], QUIET);
    } catch {
      // As the scanner's statOrUndefined: a stat that fails is a file that is not there.
      stat = undefined;
    }
    if (stat === undefined) {
      if (stamp[1] !== MISSING) return false;
      continue;
    }
    const kind = stat.isFile() ? FILE : stat.isDirectory() ? DIRECTORY : OTHER;
    if (kind !== stamp[1]) return false;
    if (kind === FILE && (stat.size !== stamp[2] || stat.mtimeMs !== stamp[3] || stat.ino !== stamp[4] || stat.dev !== stamp[5])) return false;
    if (kind === DIRECTORY && (stat.ino !== stamp[2] || stat.dev !== stamp[3])) return false;
  }
  for (const stamp of stamps.lists) {
    const path = stamp[0];
    // Most listed folders that failed were missing (a user or .clew folder never made): a stat
    // says so without the cost of a thrown error.
    if (stamp[1] === null && stamp[2] === "ENOENT") {
      let stat: Stats | undefined | null;
      try {
        stat = statSync(path, QUIET);
      } catch {
        stat = null;
      }
      if (stat === undefined) continue;
      if (stat !== null) return false;
    }
    let seen: string;
    let failed: string | undefined;
    try {
      seen = readdirSync(path).sort().join("\u0000");
    } catch (error) {
      seen = "";
      const code = typeof error === "object" && error !== null && "code" in error ? String((error as { code: unknown }).code) : undefined;
      failed = code ?? String(error);
    }
    if (stamp[1] === null ? failed !== stamp[2] : failed !== undefined || seen !== stamp[1]) return false;
  }
  return true;
}
