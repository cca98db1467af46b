/**
 * The end of a turn whose only changes were made by Edit, Write and NotebookEdit, recorded
 * without a git process: the named files' contents, as they are at the turn's end, go into one
 * file in the git dir's `kept/` folder, `<id>.edits` (a line of JSON naming the base tree and each
 * file's path, mode and size, then the contents one after another), named in the checkpoint by
 * `edits:<id>`. A turn's end is on the way out of every `-p` run, and a git process there is most
 * of what checkpoints cost the run; most turn ends are never looked at. The tree is written when
 * one is needed, like a kept index's (see kept-index.ts and ShadowRepo.resolve): each content then
 * becomes a loose blob, written here (a zlib-deflated `blob <size>\0<content>` named by its SHA-1,
 * the format every git reads; one file and folder per blob, which is why it is not done at the
 * turn's end), and git sets them over the base in an index of its own and writes its tree.
 *
 * What git would do differently is left to git: a file with attributes that could filter it
 * (`.gitattributes` on its way, `info/attributes`), a file system without the executable bit,
 * a file that is not a regular file or is big — each makes the caller add the files with git.
 * Whether a file is ignored is settled when the tree is written (see `EditsFile.files`).
 */
import { existsSync, lstatSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { EDITS_PREFIX, keptId } from "./kept-index.ts";

/** Bytes of content a turn's end writes in-process at most; past that, `git add` is as cheap. */
const MAX_EDIT_BYTES = 4 * 1024 * 1024;

export interface EditedFile {
  /** Relative to the work tree, `/`-separated. */
  path: string;
  mode: "100644" | "100755";
  content: Uint8Array;
}

/** An `<id>.edits` file. */
export interface EditsFile {
  /** The tree (or kept index) the edits apply to: the prompt's snapshot. */
  base: string;
  /** Each file as it was at the turn's end. A file neither in `base` nor addable (ignored, inside a nested repository) is left out when the tree is written, as `git add` would leave it. */
  files: EditedFile[];
}

/**
 * The turn's end as `edits:<id>`: `files` (relative to `workTree`) as they are now over `base`.
 * Undefined when git could store them otherwise than as they are (see the module's comment), or
 * a file is missing or not a regular file: the caller adds them with git then.
 */
export function recordEdits(gitDir: string, workTree: string, base: string, files: readonly string[], maxFileBytes: number): string | undefined {
  if (filtersMayApply(gitDir, workTree, files)) return undefined;
  const found: Array<{ path: string; mode: EditedFile["mode"]; full: string }> = [];
  let bytes = 0;
  for (const path of files) {
    const full = join(workTree, path);
    const stat = lstatSync(full, { throwIfNoEntry: false });
    if (!stat?.isFile() || stat.size > maxFileBytes) return undefined;
    bytes += stat.size;
    if (bytes > MAX_EDIT_BYTES) return undefined;
    // git keeps the owner's executable bit only.
    found.push({ path, mode: (stat.mode & 0o100) !== 0 ? "100755" : "100644", full });
  }
  const contents = found.map(({ full }) => readFileSync(full));
  const header: EditsHeader = { base, files: found.map(({ path, mode }, index) => ({ path, mode, size: contents[index]?.length ?? 0 })) };
  const id = keptId();
  const kept = join(gitDir, "kept");
  mkdirSync(kept, { recursive: true });
  // Whole or not at all: a reader finds the list or nothing (a lost turn's end, see KeptIndexLost).
  const temp = join(kept, `${id}.edits.${process.pid}.tmp`);
  writeFileSync(temp, Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), ...contents]));
  renameSync(temp, join(kept, `${id}.edits`));
  return `${EDITS_PREFIX}${id}`;
}

/** The JSON line an `<id>.edits` file starts with; the contents follow it in this order. */
interface EditsHeader {
  base: string;
  files: Array<{ path: string; mode: EditedFile["mode"]; size: number }>;
}

/** An `<id>.edits` file as written by `recordEdits`; throws when it is not one (cut short, say). */
export function readEdits(file: string): EditsFile {
  const bytes = readFileSync(file);
  const end = bytes.indexOf(10);
  const header = (end > 0 ? JSON.parse(bytes.subarray(0, end).toString("utf8")) : {}) as Partial<EditsHeader>;
  const valid =
    typeof header.base === "string" &&
    Array.isArray(header.files) &&
    header.files.every((item) => typeof item?.path === "string" && (item.mode === "100644" || item.mode === "100755") && Number.isSafeInteger(item.size) && item.size >= 0);
  const files = valid ? (header.files ?? []) : [];
  if (!valid || end + 1 + files.reduce((sum, item) => sum + item.size, 0) !== bytes.length) throw new Error(`${file} is not a checkpoint's list of edits`);
  let at = end + 1;
  return {
    base: header.base ?? "",
    files: files.map(({ path, mode, size }) => {
      const content = bytes.subarray(at, at + size);
      at += size;
      return { path, mode, content };
    }),
  };
}

/** Each content's blob in `gitDir`'s objects (written unless it is there already): their ids. */
export async function writeBlobs(gitDir: string, contents: readonly Uint8Array[]): Promise<string[]> {
  // A loose object is a zlib stream (deflate with its header and checksum), which node:zlib writes; loaded on first use (it costs start-up time).
  const { deflateSync } = await import("node:zlib");
  return contents.map((content) => writeBlob(gitDir, content, deflateSync));
}

function writeBlob(gitDir: string, content: Uint8Array, deflateSync: (data: Uint8Array) => Uint8Array): string {
  const header = new TextEncoder().encode(`blob ${content.length}\0`);
  const id = new Bun.CryptoHasher("sha1").update(header).update(content).digest("hex");
  const file = join(gitDir, "objects", id.slice(0, 2), id.slice(2));
  if (existsSync(file)) return id;
  mkdirSync(dirname(file), { recursive: true });
  const whole = new Uint8Array(header.length + content.length);
  whole.set(header);
  whole.set(content, header.length);
  // As git writes its own: a temporary file renamed into place, read-only.
  const temp = join(dirname(file), `tmp_obj_${process.pid}_${keptId().slice(0, 8)}`);
  writeFileSync(temp, deflateSync(whole), { mode: 0o444 });
  renameSync(temp, file);
  return id;
}

/**
 * Whether git might store one of `files` otherwise than byte for byte: attributes (line endings,
 * `ident`, an encoding) from the git dir's `info/attributes` or a `.gitattributes` in a folder on
 * a file's way, or a file system where the executable bit does not stick (git keeps the mode it
 * had then). No other attributes reach the shadow repository: it runs without HOME or global
 * configuration (see ShadowRepo).
 */
function filtersMayApply(gitDir: string, workTree: string, files: readonly string[]): boolean {
  const info = lstatSync(join(gitDir, "info", "attributes"), { throwIfNoEntry: false });
  if (info && info.size > 0) return true;
  const config = join(gitDir, "config");
  if (!existsSync(config) || /^\s*filemode\s*=\s*false\s*$/im.test(readFileSync(config, "utf8"))) return true;
  const folders = new Set<string>();
  for (const path of files) for (let dir = dirname(path); ; dir = dirname(dir)) {
    folders.add(dir === "." ? "" : dir);
    if (dir === "." || dir === "/" || dir === "") break;
  }
  return [...folders].some((dir) => existsSync(join(workTree, dir, ".gitattributes")));
}
