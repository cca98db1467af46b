/**
 * A new shadow repository's git dir, written directly rather than by `git init`: the first
 * snapshot of a project is one git process shorter (init rewrites its config once per setting),
 * and a snapshot read in-process needs no git at all. It holds what git needs of what init would
 * write — HEAD, objects/, refs/, info/exclude (git makes the folders below objects/ and refs/ when
 * it needs them; the shadow repository never packs or moves a ref) — and a config with what git
 * probes for on this file system (whether the executable bit sticks, symlinks, case-insensitive
 * names, and on macOS decomposed Unicode names). Format version 0 and SHA-1, whatever a newer git
 * would default to: the checkpoints name git's empty tree by its SHA-1. It is built beside its
 * final place and renamed into it, so a second clew starting at the same time finds it whole or
 * not at all. Windows keeps `git init`, whose probes there are Git for Windows' own.
 */
import { existsSync } from "node:fs";
import { chmod, lstat, mkdir, mkdtemp, rename, rm, symlink, unlink, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/** Whether `createGitDir` may be used here (else run `git init`). */
export const canWriteGitDir = process.platform !== "win32";

/** The `[core]` settings git's own init would write for a git dir on the file system of `dir`. */
async function probedCore(dir: string, config: string): Promise<Array<[string, string]>> {
  const core: Array<[string, string]> = [["repositoryformatversion", "0"]];
  const link = join(dir, "symlink-probe");
  // The probes touch different files: side by side.
  const [filemode, symlinks] = await Promise.all([
    (async () => {
      const before = (await lstat(config)).mode;
      const flipped = await attempt(async () => {
        await chmod(config, before ^ 0o100);
        return (await lstat(config)).mode;
      }, before);
      await attempt(() => chmod(config, before), undefined);
      return flipped !== before && (before & 0o100) === 0;
    })(),
    (async () => {
      const made = await attempt(async () => {
        await symlink("testing", link);
        return (await lstat(link)).isSymbolicLink();
      }, false);
      await attempt(() => unlink(link), undefined);
      return made;
    })(),
  ]);
  core.push(["filemode", filemode ? "true" : "false"]);
  core.push(["bare", "false"]);
  if (!symlinks) core.push(["symlinks", "false"]);
  if (existsSync(join(dir, "CoNfIg"))) core.push(["ignorecase", "true"]);
  if (process.platform === "darwin") {
    const composed = join(dir, "\u00e4");
    await writeFile(composed, "");
    core.push(["precomposeunicode", existsSync(join(dir, "a\u0308")) ? "true" : "false"]);
    await unlink(composed);
  }
  return core;
}

/** `run`'s result, or `otherwise` if it throws. */
async function attempt<T>(run: () => Promise<T>, otherwise: T): Promise<T> {
  try {
    return await run();
  } catch {
    return otherwise;
  }
}

/**
 * Creates the git dir `gitDir` (its parent too) unless one appeared there meanwhile. False when
 * it could not be put in place (a half-made folder is in the way): `git init` should repair it.
 * Through the thread pool, the independent writes side by side: on a slow disk a dozen creations
 * take tens of milliseconds, which would hold up the main thread (the turn's first tool call
 * runs beside the first snapshot).
 */
export async function createGitDir(gitDir: string): Promise<boolean> {
  const parent = dirname(gitDir);
  await mkdir(parent, { recursive: true });
  const building = await mkdtemp(join(parent, `.${basename(gitDir)}.new-`));
  try {
    const config = join(building, "config");
    await Promise.all([
      ...["objects", "refs"].map((folder) => mkdir(join(building, folder))),
      writeFile(join(building, "HEAD"), "ref: refs/heads/master\n"),
      // The shadow repository tracks files, not history: no reflogs, no per-user excludes.
      mkdir(join(building, "info")).then(() => writeFile(join(building, "info", "exclude"), "")),
      writeFile(config, "", { mode: 0o644 }),
    ]);
    const core = await probedCore(building, config);
    await writeFile(config, `[core]\n${core.map(([key, value]) => `\t${key} = ${value}\n`).join("")}`);
    try {
      // Replaces an empty folder; a whole repository already there (another clew's) wins.
      await rename(building, gitDir);
      return true;
    } catch {
      return existsSync(join(gitDir, "HEAD"));
    }
  } finally {
    await rm(building, { recursive: true, force: true });
  }
}
