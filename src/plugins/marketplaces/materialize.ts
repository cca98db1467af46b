/**
 * Getting a marketplace's catalog onto disk for add and update. Remote forms (git, GitHub, a
 * marketplace.json URL) land in a staging folder first and replace the registered copy only
 * once the new one is complete and readable, so a failed update keeps the last good copy.
 * Local folders (and catalogs already inside one) are used in place, as Claude Code does.
 */
import { copyFile, mkdir, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { checkoutRemote, type GitContext } from "../git/clone.ts";
import { GitFailure } from "../git/remote.ts";
import { catalogFileOf } from "./catalog.ts";
import { cloneUrlOf, type MarketplaceSource } from "./sources.ts";
import { marketplacesDir } from "./state.ts";

export interface Staged {
  /** The marketplace root as it is now (a staging folder for remote forms). */
  root: string;
  /** Git sources: the commit checked out. */
  commit?: string;
  /** Local folder used where it is: nothing to move, nothing to delete. */
  inPlace: boolean;
  /** For staged copies: the folder that becomes `marketplaces/<name>/`. */
  stagingDir?: string;
  /** The marketplace root below the copy (`path` of github/git sources). */
  subpath: string;
}

export class MaterializeError extends Error {
  constructor(
    readonly code: "auth" | "network" | "not-found" | "invalid" | "git" | "download",
    message: string,
  ) {
    super(message);
  }
}

function randomSuffix(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(4)), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

export async function stagingFolder(pluginsDir: string): Promise<string> {
  const parent = marketplacesDir(pluginsDir);
  await mkdir(parent, { recursive: true });
  return join(parent, `.staging-${randomSuffix()}`);
}

async function download(url: string, headers: Record<string, string> | undefined): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, { headers: headers ?? {}, redirect: "follow" });
  } catch (error) {
    throw new MaterializeError("network", `Could not download ${url}: ${(error as Error).message}. Check the network and try again.`);
  }
  if (!response.ok) {
    const hint = response.status === 401 || response.status === 403 ? " The server wants credentials; a marketplace that needs them is better added as a git repository." : "";
    throw new MaterializeError("download", `Could not download ${url}: the server answered ${response.status} ${response.statusText}.${hint}`);
  }
  return response.text();
}

/** Puts the source's catalog on disk (staged, or found in place) without registering anything. */
export async function materialize(source: MarketplaceSource, pluginsDir: string, git: GitContext): Promise<Staged> {
  if (source.source === "directory") return { root: source.path, inPlace: true, subpath: "" };
  if (source.source === "file") {
    // A catalog at <root>/.claude-plugin/marketplace.json belongs to that folder, and its
    // relative plugin sources resolve there; any other file is copied, like a downloaded one.
    if (basename(dirname(source.path)) === ".claude-plugin" && basename(source.path) === "marketplace.json") {
      return { root: dirname(dirname(source.path)), inPlace: true, subpath: "" };
    }
    const stagingDir = await stagingFolder(pluginsDir);
    await mkdir(join(stagingDir, ".claude-plugin"), { recursive: true });
    try {
      await copyFile(source.path, catalogFileOf(stagingDir));
    } catch (error) {
      await rm(stagingDir, { recursive: true, force: true });
      throw new MaterializeError("not-found", `Could not read ${source.path}: ${(error as Error).message}`);
    }
    return { root: stagingDir, inPlace: false, stagingDir, subpath: "" };
  }
  if (source.source === "url") {
    const text = await download(source.url, source.headers);
    const stagingDir = await stagingFolder(pluginsDir);
    await mkdir(join(stagingDir, ".claude-plugin"), { recursive: true });
    await writeFile(catalogFileOf(stagingDir), text);
    return { root: stagingDir, inPlace: false, stagingDir, subpath: "" };
  }
  const url = cloneUrlOf(source);
  if (url === undefined) throw new MaterializeError("invalid", "This marketplace source has no git URL.");
  const stagingDir = await stagingFolder(pluginsDir);
  try {
    const commit = await checkoutRemote({ url, ...(source.ref !== undefined ? { ref: source.ref } : {}) }, stagingDir, source.source === "github" ? git : { ...git, githubToken: undefined });
    const subpath = source.path ?? "";
    return { root: join(stagingDir, subpath), commit, inPlace: false, stagingDir, subpath };
  } catch (error) {
    if (error instanceof GitFailure) throw new MaterializeError(error.code, error.message);
    throw error;
  }
}

/**
 * Moves a staged copy to `marketplaces/<name>/`, replacing what was there only after the new
 * copy is in place. Returns the new marketplace root.
 */
export async function commitStaged(staged: Staged, pluginsDir: string, name: string): Promise<string> {
  if (staged.inPlace || staged.stagingDir === undefined) return staged.root;
  const target = join(marketplacesDir(pluginsDir), name);
  const previous = join(marketplacesDir(pluginsDir), `.previous-${name}-${randomSuffix()}`);
  let moved = false;
  try {
    await rename(target, previous);
    moved = true;
  } catch (error) {
    if ((error as { code?: string }).code !== "ENOENT") throw error;
  }
  try {
    await rename(staged.stagingDir, target);
  } catch (error) {
    if (moved) await rename(previous, target);
    throw error;
  }
  if (moved) await rm(previous, { recursive: true, force: true });
  return join(target, staged.subpath);
}

export async function discardStaged(staged: Staged): Promise<void> {
  if (!staged.inPlace && staged.stagingDir !== undefined) await rm(staged.stagingDir, { recursive: true, force: true });
}
