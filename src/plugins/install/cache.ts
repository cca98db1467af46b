/**
 * The content-addressed plugin cache: `<pluginsDir>/cache/<marketplace>/<plugin>/<hash12>/`.
 * A fetched tree is copied into a scratch folder beside its final place, hashed, then renamed to
 * its hash — so an update that changes nothing lands on the entry already there and re-uses it,
 * and a half-copied tree is never visible under a hash name.
 */
import { existsSync, mkdirSync, renameSync, rmdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { contentHash, listingStamp, shortHash } from "./content-hash.ts";
import { copyPluginTree, type SkippedLink } from "./copy-tree.ts";

export interface CacheEntry {
  dir: string;
  contentHash: string;
  listingStamp: string;
  /** True when an identical entry was already in the cache. */
  reused: boolean;
  skipped: SkippedLink[];
}

/** Names become single safe path segments: anything but letters, digits, `.`, `_`, `-` is `-`. */
export function safeSegment(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9._-]/g, "-");
  return cleaned === "" || cleaned === "." || cleaned === ".." ? `-${cleaned}` : cleaned;
}

export function pluginCacheDir(pluginsDir: string, marketplace: string, plugin: string): string {
  return join(pluginsDir, "cache", safeSegment(marketplace), safeSegment(plugin));
}

/** `${CLAUDE_PLUGIN_DATA}`: kept across updates, removed on uninstall unless --keep-data. */
export function pluginDataDir(pluginsDir: string, id: string): string {
  return join(pluginsDir, "data", safeSegment(id));
}

export interface CachePut {
  pluginsDir: string;
  marketplace: string;
  plugin: string;
  /** The fetched plugin folder. */
  from: string;
  /** The marketplace copy it sits in, for the symlink rules. */
  marketplaceRoot?: string;
}

export function putInCache(input: CachePut): CacheEntry {
  const parent = pluginCacheDir(input.pluginsDir, input.marketplace, input.plugin);
  mkdirSync(parent, { recursive: true });
  const scratch = join(parent, `.incoming-${process.pid}-${Date.now().toString(36)}`);
  rmSync(scratch, { recursive: true, force: true });
  try {
    const { skipped } = copyPluginTree(input.from, scratch, input.marketplaceRoot);
    const hash = contentHash(scratch);
    const dir = join(parent, shortHash(hash));
    if (existsSync(dir) && safeHash(dir) === hash) {
      rmSync(scratch, { recursive: true, force: true });
      return { dir, contentHash: hash, listingStamp: listingStamp(dir), reused: true, skipped };
    }
    // A folder under this name with other content was tampered with or half-removed: replace it.
    rmSync(dir, { recursive: true, force: true });
    renameSync(scratch, dir);
    return { dir, contentHash: hash, listingStamp: listingStamp(dir), reused: false, skipped };
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    throw error;
  }
}

function safeHash(dir: string): string | undefined {
  try {
    return contentHash(dir);
  } catch {
    return undefined;
  }
}

/** Removes one cache entry, and the plugin's and marketplace's cache folders once empty. */
export function removeCacheEntry(pluginsDir: string, marketplace: string, plugin: string, dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  const pluginDir = pluginCacheDir(pluginsDir, marketplace, plugin);
  for (const folder of [pluginDir, dirname(pluginDir)]) {
    try {
      rmdirSync(folder);
    } catch {
      return; // Other versions, plugins or scopes' installs still live there.
    }
  }
}
