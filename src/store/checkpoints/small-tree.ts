/**
 * Small work trees, walked in-process. Whether one is small enough that git's snapshot of it
 * needs no listing of its new files: the listing is there for the limits (too many new files, a
 * new file over the size limit), and a tree with few files, none of them over the limit, can meet
 * neither, whatever its `.gitignore` says. And a small tree's files read whole, for a snapshot
 * taken with no git at all (see file-edits.ts). Counting a small tree costs a fraction of a
 * millisecond; a listing costs a git process. The walk stops at the first sign of a big tree, so
 * a big one costs little more.
 */
import { lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { fileMode, type FileMode } from "./file-edits.ts";

/** Files (and folders) a tree may hold to count as small: far below any listing's limit, and quick to walk. */
export const SMALL_TREE_ENTRIES = 2_000;

/**
 * True when `root` holds at most `maxEntries` files and folders (`.git` folders not entered) and
 * no file over `maxFileBytes`. Anything unreadable answers false: git's listing reports it.
 */
export function isSmallTree(root: string, maxEntries: number, maxFileBytes: number): boolean {
  const folders = [root];
  let seen = 0;
  try {
    for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
      for (const entry of readdirSync(folder, { withFileTypes: true })) {
        // The user's repository (or a nested one): git never adds what is inside.
        if (entry.name === ".git") continue;
        if (++seen > maxEntries) return false;
        const path = join(folder, entry.name);
        if (entry.isDirectory()) folders.push(path);
        else if (entry.isFile() && lstatSync(path).size > maxFileBytes) return false;
      }
    }
  } catch {
    return false;
  }
  return true;
}

/** A small tree's files for an in-process snapshot (see file-edits.ts): bytes at most. */
export const SMALL_TREE_BYTES = 1024 * 1024;

/**
 * Every file and link of `root` with its content (a link's: its target), when the tree is small —
 * at most `maxEntries` entries and `maxBytes` bytes, no file over `maxFileBytes` — and git would
 * store each as it is: no `.gitattributes`, no repository nested in it, nothing but files, folders
 * and links, names that are text. `exclude`: folders (relative, `/`-separated) checkpointed
 * elsewhere, left out. Undefined otherwise (or when something cannot be read): git takes the snapshot.
 */
export function readSmallTree(root: string, limits: { maxEntries: number; maxBytes: number; maxFileBytes: number }, exclude: readonly string[] = []): Array<{ path: string; mode: FileMode; content: Uint8Array }> | undefined {
  const skipped = new Set(exclude);
  // Counted first, read once it is known to be small: a big tree costs only the walk up to the limit.
  const found: Array<{ path: string; mode: FileMode | undefined }> = [];
  const folders = [""];
  let seen = 0;
  let bytes = 0;
  try {
    for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
      for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
        const path = folder === "" ? entry.name : `${folder}/${entry.name}`;
        if (entry.name === ".git") {
          // The user's own repository is never part of it; one further down is kept by git as a commit id.
          if (folder === "") continue;
          return undefined;
        }
        if (++seen > limits.maxEntries || entry.name === ".gitattributes" || entry.name.includes("\uFFFD")) return undefined;
        if (entry.isDirectory()) {
          if (!skipped.has(path)) folders.push(path);
        } else if (entry.isSymbolicLink()) {
          found.push({ path, mode: undefined });
        } else if (entry.isFile()) {
          const stat = lstatSync(join(root, path));
          bytes += stat.size;
          if (stat.size > limits.maxFileBytes || bytes > limits.maxBytes) return undefined;
          found.push({ path, mode: fileMode(stat.mode) });
        } else return undefined;
      }
    }
    return found.map(({ path, mode }) => {
      const full = join(root, path);
      return mode === undefined ? { path, mode: "120000" as const, content: readlinkSync(full, { encoding: "buffer" }) } : { path, mode, content: readFileSync(full) };
    });
  } catch {
    return undefined;
  }
}
