/**
 * Hooks a user approved for an untrusted folder, keyed to a hash of that folder's hook
 * configuration: `<configDir>/hook-approvals.json` maps absolute directories to approved hashes,
 * so a changed hook asks again. A store that cannot be read approves nothing.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomicSync } from "../util/atomic-write.ts";
import { isPlainObject } from "./key-path.ts";

type Approvals = Record<string, string[]>;

function storePath(configDir: string): string {
  return join(configDir, "hook-approvals.json");
}

function readApprovals(configDir: string): Approvals {
  try {
    const raw: unknown = JSON.parse(readFileSync(storePath(configDir), "utf8"));
    if (!isPlainObject(raw)) return {};
    const approvals: Approvals = {};
    for (const [dir, hashes] of Object.entries(raw)) {
      if (Array.isArray(hashes)) approvals[dir] = hashes.filter((hash): hash is string => typeof hash === "string");
    }
    return approvals;
  } catch {
    return {};
  }
}

export function hooksApproved(configDir: string, dir: string, hash: string): boolean {
  return readApprovals(configDir)[dir]?.includes(hash) === true;
}

export function approveHooks(configDir: string, dir: string, hash: string): void {
  const approvals = readApprovals(configDir);
  approvals[dir] = [...new Set([...(approvals[dir] ?? []), hash])];
  writeFileAtomicSync(storePath(configDir), `${JSON.stringify(approvals, null, 2)}\n`);
}
