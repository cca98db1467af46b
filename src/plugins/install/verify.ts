/**
 * Is an installed cache folder still the tree that was hashed at install? A full check re-hashes
 * every file; the quick check compares the listing stamp first and re-hashes only when it moved.
 */
import { existsSync } from "node:fs";
import type { InstallRecord } from "../types.ts";
import { contentHash, listingStamp, shortHash } from "./content-hash.ts";
import type { StoredInstallRecord } from "./records.ts";

export type Verdict = { ok: true } | { ok: false; reason: string };

function hashOf(dir: string): string | undefined {
  try {
    return contentHash(dir);
  } catch {
    return undefined;
  }
}

/** What a check needs of an install record. */
export type CheckedRecord = Pick<InstallRecord, "installPath" | "contentHash"> & Pick<StoredInstallRecord, "listingStamp">;

export function verifyInstall(record: CheckedRecord): Verdict {
  if (!existsSync(record.installPath)) return { ok: false, reason: `its cache folder ${record.installPath} is missing` };
  const found = hashOf(record.installPath);
  if (found === undefined) return { ok: false, reason: `its cache folder ${record.installPath} cannot be read` };
  if (found !== record.contentHash) {
    return {
      ok: false,
      reason: `the files in ${record.installPath} do not match the content hash recorded at install (expected ${shortHash(record.contentHash)}, found ${shortHash(found)}): they were changed after install`,
    };
  }
  return { ok: true };
}

/**
 * Start-up form: no file is read while the stamp (paths, sizes, mtimes) is the one stored. When
 * the stamp moved but the content still hashes the same (a `touch`, a copy that kept the bytes),
 * the fresh stamp comes back so the caller can store it and skip the re-hash next time.
 */
export function verifyInstallQuick(record: CheckedRecord): Verdict & { restamp?: string } {
  let current: string | undefined;
  try {
    current = listingStamp(record.installPath);
    if (current === record.listingStamp) return { ok: true };
  } catch {
    // Missing or unreadable: the full check below says which.
  }
  const verdict = verifyInstall(record);
  return verdict.ok && current !== undefined ? { ok: true, restamp: current } : verdict;
}
