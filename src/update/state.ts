/**
 * The updater's small state files in `<configDir>/update/`: the lock two updaters race for, the
 * marker of an update whose first start has not yet proved itself, the last background check,
 * and versions rolled back as bad (the background check never reinstalls them).
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";

export function updateStateDir(configDir: string): string {
  return join(configDir, "update");
}

/** Whether a newly installed version is waiting for its first start to succeed (one stat). */
export function updatePending(configDir: string): boolean {
  return existsSync(stateFiles.pending(updateStateDir(configDir)));
}

export const stateFiles = {
  lock: (stateDir: string) => join(stateDir, "update.lock"),
  pending: (stateDir: string) => join(stateDir, "pending-start.json"),
  lastCheck: (stateDir: string) => join(stateDir, "last-check.json"),
  badVersions: (stateDir: string) => join(stateDir, "bad-versions.json"),
};

export function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
}

/** Written to a sibling and renamed, so a reader never sees half a file. */
export function writeJsonAtomic(path: string, value: unknown): void {
  const dir = join(path, "..");
  mkdirSync(dir, { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(temporary, path);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return typeof error === "object" && error !== null && "code" in error && (error as { code: unknown }).code === "EPERM";
  }
}

export type LockResult = { acquired: true; release: () => void } | { acquired: false; holder: number | undefined };

/**
 * An exclusive-create lock holding the owner's pid. A lock whose owner has died (a crash, a
 * kill) is taken over, so a stale file never blocks updates forever.
 */
export function acquireLock(stateDir: string): LockResult {
  mkdirSync(stateDir, { recursive: true });
  const path = stateFiles.lock(stateDir);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return {
        acquired: true,
        release: () => {
          if (Number.parseInt(readFileSafe(path), 10) === process.pid) rmSync(path, { force: true });
        },
      };
    } catch (error) {
      if (!(typeof error === "object" && error !== null && "code" in error && (error as { code: unknown }).code === "EEXIST")) throw error;
      const holder = Number.parseInt(readFileSafe(path), 10);
      if (Number.isFinite(holder) && processAlive(holder)) return { acquired: false, holder };
      // The owner is gone, or it has not written its pid yet (then it is seconds old at most).
      if (!Number.isFinite(holder)) return { acquired: false, holder: undefined };
      rmSync(path, { force: true });
    }
  }
  return { acquired: false, holder: undefined };
}

function readFileSafe(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

export function badVersions(stateDir: string): string[] {
  const value = readJson(stateFiles.badVersions(stateDir));
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === "string") : [];
}

export function recordBadVersion(stateDir: string, version: string): void {
  const known = badVersions(stateDir);
  if (!known.includes(version)) writeJsonAtomic(stateFiles.badVersions(stateDir), [...known, version]);
}

export function hasFile(path: string): boolean {
  return existsSync(path);
}
