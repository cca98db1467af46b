/**
 * A new shadow repository's git dir, written directly rather than by `git init`: the first
 * snapshot of a project is one git process shorter (init rewrites its config once per setting).
 * It holds what init would: HEAD, objects/, refs/, info/exclude and a config with what git probes
 * for on this file system (whether the executable bit sticks, symlinks, case-insensitive names,
 * and on macOS decomposed Unicode names). Format version 0 and SHA-1, whatever a newer git would
 * default to: the checkpoints name git's empty tree by its SHA-1. It is built beside its final
 * place and renamed into it, so a second clew starting at the same time finds it whole or not
 * at all. Windows keeps `git init`, whose probes there are Git for Windows' own.
 */
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/** Whether `createGitDir` may be used here (else run `git init`). */
export const canWriteGitDir = process.platform !== "win32";

/** The `[core]` settings git's own init would write for a git dir on the file system of `dir`. */
function probedCore(dir: string, config: string): Array<[string, string]> {
  const core: Array<[string, string]> = [["repositoryformatversion", "0"]];
  const before = lstatSync(config).mode;
  const flipped = attempt(() => {
    chmodSync(config, before ^ 0o100);
    return lstatSync(config).mode;
  }, before);
  attempt(() => chmodSync(config, before), undefined);
  core.push(["filemode", flipped !== before && (before & 0o100) === 0 ? "true" : "false"]);
  core.push(["bare", "false"]);
  const link = join(dir, "symlink-probe");
  const symlinks = attempt(() => {
    symlinkSync("testing", link);
    return lstatSync(link).isSymbolicLink();
  }, false);
  attempt(() => unlinkSync(link), undefined);
  if (!symlinks) core.push(["symlinks", "false"]);
  if (existsSync(join(dir, "CoNfIg"))) core.push(["ignorecase", "true"]);
  if (process.platform === "darwin") {
    const composed = join(dir, "\u00e4");
    writeFileSync(composed, "");
    core.push(["precomposeunicode", existsSync(join(dir, "a\u0308")) ? "true" : "false"]);
    unlinkSync(composed);
  }
  return core;
}

/** `run`'s result, or `otherwise` if it throws. */
function attempt<T>(run: () => T, otherwise: T): T {
  try {
    return run();
  } catch {
    return otherwise;
  }
}

/**
 * Creates the git dir `gitDir` (its parent too) unless one appeared there meanwhile. False when
 * it could not be put in place (a half-made folder is in the way): `git init` should repair it.
 * Synchronous: a dozen trips through the thread pool cost more than the writes themselves.
 */
export function createGitDir(gitDir: string): boolean {
  const parent = dirname(gitDir);
  mkdirSync(parent, { recursive: true });
  const building = mkdtempSync(join(parent, `.${basename(gitDir)}.new-`));
  try {
    for (const folder of ["objects/info", "objects/pack", "refs/heads", "refs/tags", "info"]) mkdirSync(join(building, folder), { recursive: true });
    writeFileSync(join(building, "HEAD"), "ref: refs/heads/master\n");
    // The shadow repository tracks files, not history: no reflogs, no per-user excludes.
    writeFileSync(join(building, "info", "exclude"), "");
    const config = join(building, "config");
    writeFileSync(config, "", { mode: 0o644 });
    const core = probedCore(building, config);
    writeFileSync(config, `[core]\n${core.map(([key, value]) => `\t${key} = ${value}\n`).join("")}`);
    try {
      // Replaces an empty folder; a whole repository already there (another clew's) wins.
      renameSync(building, gitDir);
      return true;
    } catch {
      return existsSync(join(gitDir, "HEAD"));
    }
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
}
