/**
 * A snapshot's tree not written yet: a copy of the shadow index as the snapshot left it, in the
 * git dir's `kept/` folder, named in a checkpoint by `index:<id>`. Writing a tree takes a git
 * process; copying a small index takes a fraction of a millisecond, and most checkpoints are
 * never looked at. The tree is written when one is needed (a rewind, the list of prompts, the
 * session's next prompt): it is noted beside the copy (`<id>.tree`) and the copy removed, so every
 * process that reads the checkpoint finds the same tree. Only a small index is kept: a big one
 * costs more to copy, and to leave behind, than its tree costs to write.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const PREFIX = "index:";
/** A turn's end recorded as its files' blobs over a base (see file-edits.ts): `edits:<id>`. */
export const EDITS_PREFIX = "edits:";
/** An index up to this size is kept (about 2,500 files); a bigger one has its tree written at once. */
export const KEEP_MAX_BYTES = 256 * 1024;
const ID = /^[0-9a-f]{32}$/;

/** A kept index's two files: the copy (or the list of edits), and once its tree is written, the tree's id. */
export interface KeptFiles {
  index: string;
  tree: string;
  /** `index` is a list of edits over a base (see file-edits.ts), not a copy of an index. */
  edits: boolean;
}

/** Whether a checkpoint's tree is a kept index (else it is a tree's id). */
export function isKept(tree: string): boolean {
  return tree.startsWith(PREFIX) || tree.startsWith(EDITS_PREFIX);
}

/** The files of the kept index `tree` names, or undefined for a tree's id. */
export function keptFiles(gitDir: string, tree: string): KeptFiles | undefined {
  if (!isKept(tree)) return undefined;
  const edits = tree.startsWith(EDITS_PREFIX);
  const id = tree.slice(edits ? EDITS_PREFIX.length : PREFIX.length);
  // Read from a session's record: never a path of its own.
  if (!ID.test(id)) throw new Error(`"${tree}" in a checkpoint record is not a kept index's name`);
  return { index: join(gitDir, "kept", `${id}.${edits ? "edits" : "index"}`), tree: join(gitDir, "kept", `${id}.tree`), edits };
}

/** A copy of the git dir's index, by name; undefined when it is over `maxBytes` (or absent): write its tree then. */
export function keepIndex(gitDir: string, maxBytes = KEEP_MAX_BYTES): string | undefined {
  const index = join(gitDir, "index");
  const size = statSync(index, { throwIfNoEntry: false })?.size;
  if (size === undefined || size > maxBytes) return undefined;
  const id = keptId();
  mkdirSync(join(gitDir, "kept"), { recursive: true });
  // git replaces its index by renaming a whole new one over it: the copy is one state or the other.
  copyFileSync(index, join(gitDir, "kept", `${id}.index`));
  return `${PREFIX}${id}`;
}

/** A new kept file's id: random, so sessions sharing the git dir never collide. */
export function keptId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The tree noted for a kept index, once written. */
export function readKeptTree(kept: KeptFiles): string | undefined {
  if (!existsSync(kept.tree)) return undefined;
  const tree = readFileSync(kept.tree, "utf8").trim();
  return /^[0-9a-f]{40,64}$/.test(tree) ? tree : undefined;
}

/** Notes the kept index's tree (whole or not at all) and removes the copy. */
export function noteKeptTree(kept: KeptFiles, tree: string): void {
  const temp = `${kept.tree}.${process.pid}.tmp`;
  writeFileSync(temp, `${tree}\n`);
  renameSync(temp, kept.tree);
  rmSync(kept.index, { force: true });
}

export function releaseKept(kept: KeptFiles): void {
  rmSync(kept.index, { force: true });
  rmSync(kept.tree, { force: true });
}

/** Neither the copy nor its tree is there any more (removed by hand): what it held is lost. */
export class KeptIndexLost extends Error {}

/** Throws KeptIndexLost unless the kept index or its tree is there. */
export function mustExist(kept: KeptFiles, tree: string): void {
  if (!existsSync(kept.index) && !existsSync(kept.tree)) throw new KeptIndexLost(`the checkpoint's kept index ${tree} is missing (${kept.index})`);
}

/**
 * The kept trees in `gitDir` not written yet and untouched since `before` (ms since the epoch):
 * most are a session's that ended without anything needing them (a `-p` run), the oldest first.
 */
export function leftoverKept(gitDir: string, before: number): string[] {
  const folder = join(gitDir, "kept");
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  const found: Array<{ name: string; at: number }> = [];
  for (const file of names) {
    const match = /^([0-9a-f]{32})\.(index|edits)$/.exec(file);
    if (!match || names.includes(`${match[1]}.tree`)) continue;
    const at = statSync(join(folder, file), { throwIfNoEntry: false })?.mtimeMs;
    if (at !== undefined && at < before) found.push({ name: `${match[2] === "edits" ? EDITS_PREFIX : PREFIX}${match[1]}`, at });
  }
  return found.sort((a, b) => a.at - b.at).map((item) => item.name);
}
