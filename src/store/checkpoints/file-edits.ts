/**
 * Snapshots taken without a git process, their trees written when one is needed. Files' contents
 * go into one file in the git dir's `kept/` folder, `<id>.edits` (a line of JSON naming the base
 * tree and each file's path, mode and size, then the contents one after another), named in the
 * checkpoint by `edits:<id>`. Two kinds:
 * - a turn's end whose only changes were made by Edit, Write and NotebookEdit: those files, over
 *   the prompt's snapshot (`recordEdits`);
 * - a whole small work tree (`whole`, see small-tree.ts): the first snapshot of a project, or one
 *   after a shell ran — every file, over nothing.
 * On the way out of every `-p` run and beside its first tool calls, a git process (and on a slow
 * disk, the file and folder of each of its loose objects) is most of what checkpoints cost a run,
 * and most checkpoints are never looked at. The tree is written like a kept index's, when needed
 * (see kept-index.ts and ShadowRepo.resolve), by `writeEditsTree`: each content becomes a loose
 * blob, written here (a zlib-deflated `blob <size>\0<content>` named by its SHA-1, the format every
 * git reads), then git sets them in an index of its own and writes its tree, leaving out what
 * `git add` would have left out (see `writeEditsTree`).
 *
 * What git would store differently is left to git: a file with attributes that could filter it
 * (`.gitattributes` on its way, `info/attributes`), a file system without the executable bit or
 * links, a file inside a nested repository, a file that is big or not a file — each makes the
 * caller use git.
 */
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { SimpleGit } from "simple-git";
import { run } from "./git-run.ts";
import { EDITS_PREFIX, keptId } from "./kept-index.ts";

/** Bytes of content a turn's end writes in-process at most; past that, `git add` is as cheap. */
const MAX_EDIT_BYTES = 1024 * 1024;
/** git's empty tree. */
const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

export type FileMode = "100644" | "100755" | "120000";

export interface EditedFile {
  /** Relative to the work tree, `/`-separated. */
  path: string;
  mode: FileMode;
  /** A file's bytes, a link's target. */
  content: Uint8Array;
}

/** An `<id>.edits` file. */
export interface EditsFile {
  /** The tree (or kept index) the edits apply to: the prompt's snapshot; for a whole tree, the one before it (what stays tracked though ignored). */
  base: string;
  /** `files` is the whole work tree (a file of `base` not among them is gone), not changes over `base`. */
  whole: boolean;
  files: EditedFile[];
}

/**
 * The turn's end as `edits:<id>`: `files` (relative to `workTree`) as they are now over `base`.
 * Undefined when git could store them otherwise (see the module's comment), or a file is missing
 * or not a regular file: the caller adds them with git then.
 */
export function recordEdits(gitDir: string, workTree: string, base: string, files: readonly string[], maxFileBytes: number, salt: string): string | undefined {
  if (attributesMayApply(gitDir, workTree, files) || insideNestedRepository(workTree, files)) return undefined;
  const found: Array<{ path: string; mode: FileMode; full: string }> = [];
  let bytes = 0;
  for (const path of files) {
    const full = join(workTree, path);
    const stat = lstatSync(full, { throwIfNoEntry: false });
    if (!stat?.isFile() || stat.size > maxFileBytes) return undefined;
    bytes += stat.size;
    if (bytes > MAX_EDIT_BYTES) return undefined;
    found.push({ path, mode: fileMode(stat.mode), full });
  }
  return writeEdits(gitDir, { base, whole: false, files: found.map(({ path, mode, full }) => ({ path, mode, content: readFileSync(full) })) }, salt);
}

/** git keeps the owner's executable bit only. */
export function fileMode(mode: number): FileMode {
  return (mode & 0o100) !== 0 ? "100755" : "100644";
}

/**
 * Writes `edits` into the git dir's `kept/` folder: its name, `edits:<id>`. The id is a hash of
 * what it holds and `salt` (one session's own): the same files twice in a session are one name,
 * as a tree's would be, and a session never shares a kept file with another (each releases its own).
 */
export function writeEdits(gitDir: string, edits: EditsFile, salt: string): string {
  const header: EditsHeader = { base: edits.base, ...(edits.whole ? { whole: true } : {}), files: edits.files.map(({ path, mode, content }) => ({ path, mode, size: content.length })) };
  const bytes = Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), ...edits.files.map((file) => file.content)]);
  const id = new Bun.CryptoHasher("sha256").update(salt).update(bytes).digest("hex").slice(0, 32);
  const kept = join(gitDir, "kept");
  mkdirSync(kept, { recursive: true });
  // Whole or not at all: a reader finds the list or nothing (a lost checkpoint, see KeptIndexLost).
  const temp = join(kept, `${id}.edits.${process.pid}.tmp`);
  writeFileSync(temp, bytes);
  renameSync(temp, join(kept, `${id}.edits`));
  return `${EDITS_PREFIX}${id}`;
}

/** The JSON line an `<id>.edits` file starts with; the contents follow it in this order. */
interface EditsHeader {
  base: string;
  whole?: true;
  files: Array<{ path: string; mode: FileMode; size: number }>;
}

/** An `<id>.edits` file as `writeEdits` wrote it; throws when it is not one (cut short, say). */
export function readEdits(file: string): EditsFile {
  const bytes = readFileSync(file);
  const end = bytes.indexOf(10);
  const header = (end > 0 ? JSON.parse(bytes.subarray(0, end).toString("utf8")) : {}) as Partial<EditsHeader>;
  const valid =
    typeof header.base === "string" &&
    Array.isArray(header.files) &&
    header.files.every((item) => typeof item?.path === "string" && ["100644", "100755", "120000"].includes(item.mode) && Number.isSafeInteger(item.size) && item.size >= 0);
  const files = valid ? (header.files ?? []) : [];
  if (!valid || end + 1 + files.reduce((sum, item) => sum + item.size, 0) !== bytes.length) throw new Error(`${file} is not a checkpoint's list of edits`);
  let at = end + 1;
  return {
    base: header.base ?? "",
    whole: header.whole === true,
    files: files.map(({ path, mode, size }) => {
      const content = bytes.subarray(at, at + size);
      at += size;
      return { path, mode, content };
    }),
  };
}

/** Clients of git for `writeEditsTree`, all with the same index of their own. */
export interface EditsGit {
  /** In the real work tree. */
  git: SimpleGit;
  /** In another work tree. */
  inWorkTree: (workTree: string) => SimpleGit;
  /** Whether the real work tree is there. */
  workTreeExists: boolean;
}

/**
 * The tree of `edits`, whose base's tree is `base`, written in an index of its own (absent at
 * first: empty). Every file is set to its blob — over the base's tree, or for a whole tree over
 * nothing — then the ones git would not have added are taken out again: ignored and not tracked
 * in the base. A whole tree holds its own ignore rules (its `.gitignore` files, read in a folder
 * of their own, with the git dir's `info/exclude`): the rules of the moment it was read. For
 * edits, the rules are the work tree's now (the edits rarely touch them; with no work tree, none).
 */
export async function writeEditsTree(edits: EditsFile, base: string, gitDir: string, clients: EditsGit): Promise<string> {
  const { git } = clients;
  if (!edits.whole) await run(git, ["read-tree", base]);
  const blobs = await writeBlobs(gitDir, edits.files.map((file) => file.content));
  const entries = edits.files.flatMap((file, at) => ["--cacheinfo", `${file.mode},${blobs[at] ?? ""},${file.path}`]);
  if (entries.length > 0) await run(git, ["update-index", "--add", ...entries]);
  const ignored = edits.files.length === 0 ? [] : await ignoredFiles(edits, gitDir, clients);
  if (ignored.length > 0) {
    const tracked = new Set(base === EMPTY_TREE ? [] : nul(await run(git, ["ls-tree", "-r", "-z", "--name-only", base, "--", ...ignored])));
    const dropped = ignored.filter((path) => !tracked.has(path));
    if (dropped.length > 0) await run(git, ["update-index", "--force-remove", "--", ...dropped]);
  }
  return (await run(git, ["write-tree"])).trim();
}

/** The files of `edits` that git's ignore rules leave out (see writeEditsTree). */
async function ignoredFiles(edits: EditsFile, gitDir: string, clients: EditsGit): Promise<string[]> {
  const listing = ["ls-files", "-z", "--cached", "--ignored", "--exclude-standard"];
  if (!edits.whole) return clients.workTreeExists ? nul(await run(clients.git, [...listing, "--", ...edits.files.map((file) => file.path)])) : [];
  const rules = edits.files.filter((file) => file.mode !== "120000" && (file.path === ".gitignore" || file.path.endsWith("/.gitignore")));
  if (rules.length === 0 && !hasExcludes(gitDir)) return [];
  const folder = mkdtempSync(join(gitDir, "kept", ".rules-"));
  try {
    for (const rule of rules) {
      mkdirSync(dirname(join(folder, rule.path)), { recursive: true });
      writeFileSync(join(folder, rule.path), rule.content);
    }
    return nul(await run(clients.inWorkTree(folder), listing));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Whether the git dir's own exclude list has a rule (a file left out for its size, a folder checkpointed elsewhere). */
function hasExcludes(gitDir: string): boolean {
  const file = join(gitDir, "info", "exclude");
  return existsSync(file) && readFileSync(file, "utf8").trim() !== "";
}

function nul(out: string): string[] {
  return out.split("\0").filter((path) => path !== "");
}

/** Each content's blob in `gitDir`'s objects (written unless it is there already): their ids. */
async function writeBlobs(gitDir: string, contents: readonly Uint8Array[]): Promise<string[]> {
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
 * a file's way, or a file system where the executable bit or links do not stick (git keeps what
 * the index had then). No other attributes reach the shadow repository: it runs without HOME or
 * global configuration (see ShadowRepo).
 */
export function attributesMayApply(gitDir: string, workTree: string, files: readonly string[]): boolean {
  const info = lstatSync(join(gitDir, "info", "attributes"), { throwIfNoEntry: false });
  if (info && info.size > 0) return true;
  // A git dir not made yet gets the probed settings; they matter only on a file system that lacks these.
  const config = join(gitDir, "config");
  if (existsSync(config) && /^\s*(filemode|symlinks)\s*=\s*false\s*$/im.test(readFileSync(config, "utf8"))) return true;
  return folders(files).some((dir) => existsSync(join(workTree, dir, ".gitattributes")));
}

/** Whether one of `files` lies in a repository nested in the work tree (git keeps that as a commit id). */
function insideNestedRepository(workTree: string, files: readonly string[]): boolean {
  return folders(files).some((dir) => dir !== "" && existsSync(join(workTree, dir, ".git")));
}

/** Every folder on the way to `files`, the work tree's top as "". */
function folders(files: readonly string[]): string[] {
  const found = new Set<string>();
  for (const path of files) for (let dir = dirname(path); ; dir = dirname(dir)) {
    found.add(dir === "." ? "" : dir);
    if (dir === "." || dir === "/" || dir === "") break;
  }
  return [...found];
}
