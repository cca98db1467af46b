/**
 * Whether a work tree is small enough that its snapshot needs no listing of its new files: the
 * listing is there for the limits (too many new files, a new file over the size limit), and a tree
 * with few files, none of them over the limit, can meet neither, whatever its `.gitignore` says.
 * Counting a small tree in-process costs a fraction of a millisecond; the listing costs a git
 * process. The walk stops at the first sign of a big tree, so a big one costs little more.
 */
import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";

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
