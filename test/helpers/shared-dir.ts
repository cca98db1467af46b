// The team's read-only shared folder (spec, corpus) sits beside the repository in CI and on
// workstations; CLEW_SHARED_DIR points elsewhere when a clone lives somewhere else.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

const REPO_ROOT = resolve(import.meta.dir, "../..");

export function sharedDir(): string {
  const dir = process.env.CLEW_SHARED_DIR ?? resolve(REPO_ROOT, "../shared");
  if (!existsSync(join(dir, "corpus"))) {
    throw new Error(
      `the shared folder is not at ${dir} (no corpus/ inside): clone clew beside ../shared, or set CLEW_SHARED_DIR to it`,
    );
  }
  return dir;
}
