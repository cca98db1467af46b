/**
 * The identity of an installed plugin tree. `contentHash` is sha256 over a canonical listing:
 * every file and symlink by its relative path (sorted, `/`-separated), files with their mode
 * (only the executable bit: umasks differ between machines, git keeps only that bit too) and the
 * sha256 of their bytes, symlinks by their target. Two machines that fetched the same commit get
 * the same hash; any edit, added, removed or re-pointed file changes it.
 *
 * `listingStamp` is the cheap check for start-up: sha256 over paths, sizes, mtimes and modes
 * only (no file is read). It is stored at install; when it still matches, the tree is taken to
 * be the one hashed then, and only a changed stamp pays for a full re-hash.
 */
import { lstatSync, readdirSync, readFileSync, readlinkSync, type Stats } from "node:fs";
import { join } from "node:path";

interface Entry {
  path: string;
  full: string;
  stats: Stats;
}

function walk(root: string, prefix = ""): Entry[] {
  const entries: Entry[] = [];
  const names = readdirSync(join(root, prefix)).sort();
  for (const name of names) {
    const path = prefix === "" ? name : `${prefix}/${name}`;
    const full = join(root, path);
    const stats = lstatSync(full);
    if (stats.isDirectory()) entries.push(...walk(root, path));
    else if (stats.isFile() || stats.isSymbolicLink()) entries.push({ path, full, stats });
  }
  return entries;
}

function sortedEntries(root: string): Entry[] {
  // Sort on the whole path, not per folder, so `a/b` vs `a-b` order is the same everywhere.
  return walk(root).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function sha256(data: string | Uint8Array): string {
  return new Bun.CryptoHasher("sha256").update(data).digest("hex");
}

function modeOf(stats: Stats): string {
  return (stats.mode & 0o111) !== 0 ? "755" : "644";
}

/** The canonical listing, one JSON array per line (exposed so a mismatch can be explained). */
export function canonicalListing(root: string): string[] {
  return sortedEntries(root).map((entry) =>
    entry.stats.isSymbolicLink()
      ? JSON.stringify([entry.path, "link", readlinkSync(entry.full)])
      : JSON.stringify([entry.path, "file", modeOf(entry.stats), sha256(readFileSync(entry.full))]),
  );
}

export function contentHash(root: string): string {
  return sha256(canonicalListing(root).join("\n"));
}

export function listingStamp(root: string): string {
  // Directories come from the listing itself (no stat); only files and links are stat'ed.
  const lines: string[] = [];
  const walkNames = (prefix: string): void => {
    for (const entry of readdirSync(prefix === "" ? root : join(root, prefix), { withFileTypes: true })) {
      const path = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
      if (entry.isDirectory()) walkNames(path);
      else if (entry.isFile() || entry.isSymbolicLink()) {
        const stats = lstatSync(join(root, path));
        lines.push(`${path}\u0000${entry.isSymbolicLink() ? "link" : "file"}\u0000${stats.size}\u0000${Math.trunc(stats.mtimeMs)}\u0000${stats.mode & 0o777}`);
      }
    }
  };
  walkNames("");
  lines.sort();
  return sha256(lines.join("\n"));
}

/** The first 12 hex characters: the cache folder name and the short form in messages. */
export function shortHash(hash: string): string {
  return hash.slice(0, 12);
}
