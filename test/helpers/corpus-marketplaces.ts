/**
 * The corpus (../shared/corpus/marketplaces/<dir>, read-only) as real git repositories: each
 * folder committed in place into a bare repository in a temp dir, ready to be added over
 * file:// like any remote marketplace. `expected` is its EXPECTED.json record.
 */
import { readFileSync } from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gitRepoFrom, type TestRepo } from "./git-repos.ts";
import { sharedDir } from "./shared-dir.ts";

export interface ExpectedMarketplace {
  dir: string;
  name: string;
  pluginCount: number;
  valid: boolean;
}

export function expectedCorpus(): ExpectedMarketplace[] {
  return JSON.parse(readFileSync(join(sharedDir(), "corpus/EXPECTED.json"), "utf8")) as ExpectedMarketplace[];
}

export function corpusRepo(dir: string, parent: string = mkdtempSync(join(tmpdir(), "corpus-"))): TestRepo {
  return gitRepoFrom(join(sharedDir(), "corpus/marketplaces", dir), { parent, name: `${dir}.git` });
}
