/**
 * A working directory's checkpoints live in a git repository of clew's own (in clew's state
 * folder), whose work tree is that directory: `git add -A` sees every change whatever made it (the file
 * tools, Bash, hooks, MCP tools, helpers) and honours the project's `.gitignore`. The user's own
 * `.git` — its index, stash, hooks and config — is never read or written: every command runs with
 * this repository's git dir and index, without the user's global or system configuration (whose
 * filters and helpers would run code), no hooks, no fsmonitor and no background maintenance.
 * A small work tree, or the files a turn edited, may be read in-process instead and its tree
 * written by git when something needs it (see file-edits.ts).
 */
import { mkdir, writeFile } from "node:fs/promises";
import { existsSync, lstatSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import type { SimpleGit } from "simple-git";
import { gitEnvironment } from "../../util/git-environment.ts";
import { canWriteGitDir, createGitDir } from "./git-dir.ts";
import { locking, run } from "./git-run.ts";
import { attributesMayApply, readEdits, recordEdits, writeEdits, writeEditsTree, type EditsFile } from "./file-edits.ts";
import { keepIndex, keptFiles, keptId, KeptIndexLost, leftoverKept, mustExist, noteKeptTree, readKeptTree, releaseKept, type KeptFiles } from "./kept-index.ts";
import { isSmallTree, readSmallTree, SMALL_TREE_BYTES, SMALL_TREE_ENTRIES } from "./small-tree.ts";

export interface ShadowRepoOptions {
  /** The working directory (the work tree). */
  workTree: string;
  /** This directory's git dir inside clew's state folder. */
  gitDir: string;
  /** Folders inside the work tree checkpointed elsewhere (the project inside an added folder, clew's state), relative to it. */
  exclude?: readonly string[];
  /** Where `git` is found. */
  path: string;
  /** Files larger than this are left out of a snapshot (and named), default 10 MiB. */
  maxFileBytes?: number;
  /** More new files than this in one snapshot (a home folder, an unignored build tree) is refused, default 100,000. */
  maxNewFiles?: number;
  /** An index up to this size may be kept instead of writing its tree (see SnapshotOptions.keep), default 256 KiB. */
  maxKeptIndexBytes?: number;
}

export interface Snapshot {
  /** The tree of the work tree at that moment. */
  tree: string;
  /** Files left out for their size, relative to the work tree. */
  skipped: string[];
}

export interface SnapshotOptions {
  /** Nothing is expected to have changed since the last snapshot (only the user, or nobody, was at work). */
  likelyUnchanged?: boolean;
  /**
   * When files had to be added, keep a copy of the index instead of writing its tree (one git
   * process fewer): the result then names the kept index, for `resolve` to turn into the tree.
   */
  keep?: boolean;
  /** Called once the work tree has been read: a file changed from then on is not in this snapshot (writing its tree reads only the index). */
  captured?: () => void;
}

export interface TreeChange {
  /** A: only in the later tree; D: only in the earlier; M: content or mode differs. */
  status: "A" | "D" | "M";
  path: string;
}

/** git's empty tree: a work tree that does not exist (a folder the agent deleted whole). */
export const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
const DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024;
const DEFAULT_MAX_NEW_FILES = 100_000;
/** Changed paths given to `add` by name up to this many (an argument list stays well under the OS limit). */
const MAX_NAMED_PATHS = 1_000;
/** Safety settings on every command: nothing of the user's configuration may run code here. */
const SAFE_CONFIG = ["core.hooksPath=/dev/null", "core.fsmonitor=false", "core.autocrlf=false", "core.safecrlf=false", "core.quotepath=false", "gc.auto=0", "maintenance.auto=false", "core.untrackedCache=true", "advice.detachedHead=false"];

export class ShadowRepo {
  private git?: SimpleGit;
  /** A client like `git` whose index is another file: a kept index (see `resolve`). */
  private gitWithIndex?: (index: string, otherWorkTree?: string) => SimpleGit;
  /** Kept trees being written, so that one asked for twice at once (an edits' base) is written once. */
  private readonly resolving = new Map<string, Promise<string>>();
  /** This repository object's own (one session's): see writeEdits. */
  private readonly salt = keptId();

  constructor(private readonly options: ShadowRepoOptions) {}

  /** The working directory this repository checkpoints, as it was given. */
  get workTree(): string {
    return this.options.workTree;
  }

  private async client(): Promise<SimpleGit> {
    if (this.git) return this.git;
    const { gitDir, workTree } = this.options;
    // Nothing of the user's environment but PATH: no GIT_DIR of theirs, no global config.
    const prepared = gitEnvironment({
      PATH: this.options.path,
      GIT_DIR: gitDir,
      GIT_WORK_TREE: workTree,
      GIT_INDEX_FILE: join(gitDir, "index"),
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_TERMINAL_PROMPT: "0",
      GIT_OPTIONAL_LOCKS: "0",
      // Paths are file names, never patterns: `star*.txt` or `:(top)x` mean just those files.
      GIT_LITERAL_PATHSPECS: "1",
      // simple-git waits 50 ms more after a command that printed nothing (`add`, `checkout`, an
      // empty `ls-files`): git's trace on stderr makes every command print, at no cost worth naming.
      GIT_TRACE: "2",
      GIT_AUTHOR_NAME: "clew", GIT_AUTHOR_EMAIL: "clew@localhost", GIT_COMMITTER_NAME: "clew", GIT_COMMITTER_EMAIL: "clew@localhost",
    });
    // The git dir is written while simple-git loads.
    const [made, { simpleGit }] = await Promise.all([existsSync(join(gitDir, "HEAD")) || (canWriteGitDir && createGitDir(gitDir)), import("simple-git")]);
    const fresh = !made;
    if (fresh) await mkdir(gitDir, { recursive: true });
    // Run from `/`, which always exists (the work tree may have been deleted whole) and is never
    // below the work tree's top (a git dir inside the work tree, e.g. clew's state in an added home
    // folder, would make git see only what lies under it): paths are taken from the top. The
    // "unsafe" settings are the safe ones here: hooks and fsmonitor off, an empty init template.
    const withIndex = (index: string, otherWorkTree?: string) =>
      simpleGit({ baseDir: "/", config: SAFE_CONFIG, unsafe: { ...prepared.unsafe, allowUnsafeHooksPath: true, allowUnsafeFsMonitor: true, allowUnsafeTemplateDir: true }, allowEnvironment: prepared.allowEnvironment }).env({ ...prepared.env, GIT_INDEX_FILE: index, ...(otherWorkTree ? { GIT_WORK_TREE: otherWorkTree } : {}) });
    const git = withIndex(join(gitDir, "index"));
    if (fresh) {
      // No template: nothing of git's sample hooks or description is copied.
      await run(git, ["init", "--quiet", "--template="]);
      // The shadow repository tracks files, not history: no reflogs, no per-user excludes.
      await mkdir(join(gitDir, "info"), { recursive: true });
      await writeFile(join(gitDir, "info", "exclude"), "", { flag: "a" });
    }
    await this.excludeNested();
    this.git = git;
    this.gitWithIndex = withIndex;
    return git;
  }

  /** The folders checkpointed elsewhere go into this repository's own exclude list, once. */
  private async excludeNested(): Promise<void> {
    const file = join(this.options.gitDir, "info", "exclude");
    const listed = new Set(existsSync(file) ? readFileSync(file, "utf8").split("\n") : []);
    const missing = (this.options.exclude ?? []).map((path) => `/${escapePattern(path)}/`).filter((line) => !listed.has(line));
    if (missing.length > 0) await writeFile(file, missing.map((line) => `${line}\n`).join(""), { flag: "a" });
  }

  /**
   * The work tree as it is now (≈ `git add -A && git write-tree`). New files are listed first
   * (for the limits) while the tracked ones are looked at, side by side; see `tracked`.
   */
  async snapshot(options: SnapshotOptions = {}): Promise<Snapshot> {
    if (!existsSync(this.options.workTree)) {
      options.captured?.();
      return { tree: EMPTY_TREE, skipped: [] };
    }
    const limits = { files: this.options.maxNewFiles ?? DEFAULT_MAX_NEW_FILES, bytes: this.options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES };
    const kept = options.keep ? await this.readInProcess(limits, options) : undefined;
    if (kept) return { tree: kept, skipped: [] };
    const git = await this.client();
    // The first snapshot, or one after anything may have changed, of a small tree: one `add` does
    // it all, the limits cannot be reached (see small-tree.ts). Otherwise, when nothing is expected
    // to have changed, one round of listings (see `tracked`) is cheaper than an `add` of everything.
    if ((!options.likelyUnchanged || !existsSync(join(this.options.gitDir, "index"))) && isSmallTree(this.options.workTree, Math.min(SMALL_TREE_ENTRIES, limits.files), limits.bytes)) {
      await locking(git, ["add", "--all", "--", "."]);
      options.captured?.();
      return { tree: (options.keep ? keepIndex(this.options.gitDir, this.options.maxKeptIndexBytes) : undefined) ?? (await locking(git, ["write-tree"])).trim(), skipped: [] };
    }
    const [untracked, tracked] = await Promise.all([run(git, ["ls-files", "--others", "--exclude-standard", "-z"]), this.tracked(git, options)]);
    const listed = untracked.split("\0").filter((path) => path !== "");
    const skipped = await this.excludeLargeNewFiles(listed);
    const changed = [...new Set([...listed.filter((path) => !skipped.includes(path)), ...tracked.dirty])];
    // The guessed tree is written from the index alone: once the listings found nothing to add, the
    // files are read, and may change while it is written. An `add` waits for it (both lock the index).
    if (changed.length === 0) options.captured?.();
    const guessed = await tracked.tree;
    // Naming the paths spares `add` a second walk of the whole tree; past a few thousand, one walk is cheaper.
    if (changed.length > 0) {
      await locking(git, ["add", "--all", "--", ...(changed.length <= MAX_NAMED_PATHS ? changed : ["."])]);
      options.captured?.();
    }
    if (changed.length === 0 && guessed !== undefined) return { tree: guessed, skipped };
    return { tree: (changed.length > 0 && options.keep ? keepIndex(this.options.gitDir, this.options.maxKeptIndexBytes) : undefined) ?? (await locking(git, ["write-tree"])).trim(), skipped };
  }

  /**
   * A small work tree read in-process, its tree written when needed (see file-edits.ts): no git,
   * and the files are read before this returns — so only while no shared index exists (none of
   * this project's snapshots needed one yet; with one, what it tracks though ignored must stay),
   * and only where git would store every file as it is. Undefined when git must take it.
   */
  private async readInProcess(limits: { files: number; bytes: number }, options: SnapshotOptions): Promise<string | undefined> {
    const { gitDir, workTree } = this.options;
    // A git dir that is not a folder (something in its way) is for git's snapshot to fail on, and say why.
    const folder = lstatSync(gitDir, { throwIfNoEntry: false });
    if (!canWriteGitDir || (folder && !folder.isDirectory()) || existsSync(join(gitDir, "index")) || attributesMayApply(gitDir, workTree, [])) return undefined;
    // Without git the tree could never be written: git's snapshot fails now instead, and says so.
    if (!Bun.which("git", { PATH: this.options.path })) return undefined;
    const files = readSmallTree(workTree, { maxEntries: Math.min(SMALL_TREE_ENTRIES, limits.files), maxBytes: SMALL_TREE_BYTES, maxFileBytes: limits.bytes }, this.options.exclude);
    if (!files) return undefined;
    options.captured?.();
    // Made now, through the thread pool, for the tree to be written in later: the kept file goes inside it.
    // Where it cannot be put in place (a half-made folder in the way), git init repairs it, or says why not.
    if (!existsSync(join(gitDir, "HEAD")) && !(await createGitDir(gitDir))) await this.client();
    // Over nothing: without a shared index, nothing is tracked that an ignore rule could leave in.
    return writeEdits(gitDir, { base: EMPTY_TREE, whole: true, files }, this.salt);
  }

  /**
   * The work tree when only `files` (relative to it) can have changed since the index was last
   * brought to it — the previous snapshot, whose tree is `since` — so no listing is needed: those
   * files are added by name and the index's tree written. Undefined when that cannot be trusted,
   * for the caller to take a whole snapshot: no index or work tree then, a file over the size
   * limit (a new one must be left out), one git will not add by name (ignored, beyond a link).
   * A failed `add` may have added some of them: a whole snapshot includes those anyway.
   */
  async snapshotFiles(files: readonly string[], since: string, keep = false): Promise<string | undefined> {
    if (files.length === 0 || files.length > MAX_NAMED_PATHS || since === EMPTY_TREE) return undefined;
    const { gitDir, workTree } = this.options;
    if (!existsSync(join(gitDir, "index")) || !existsSync(workTree)) return undefined;
    const limit = this.options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    if (files.some((file) => oversized(join(workTree, file), limit))) return undefined;
    const git = await this.client();
    try {
      await locking(git, ["add", "--all", "--", ...files]);
    } catch {
      return undefined;
    }
    return (keep ? keepIndex(gitDir, this.options.maxKeptIndexBytes) : undefined) ?? (await locking(git, ["write-tree"])).trim();
  }

  /**
   * The work tree when only `files` (relative to it) changed since the snapshot `since`, by tools
   * that leave nothing running, recorded in-process as their contents over `since` (see
   * file-edits.ts): no git runs until the tree is needed (`resolve`). Undefined when git must add
   * them (see `snapshotFiles`).
   */
  recordFiles(files: readonly string[], since: string): string | undefined {
    if (files.length === 0 || files.length > MAX_NAMED_PATHS || since === EMPTY_TREE) return undefined;
    const { gitDir, workTree } = this.options;
    if (!existsSync(join(gitDir, "objects")) || !existsSync(workTree)) return undefined;
    return recordEdits(gitDir, workTree, since, files, this.options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES, this.salt);
  }

  /**
   * The tree a snapshot's result names: a tree as it is; a kept index (see `keep`) or a list of
   * edits (see `recordFiles`) has its tree written now — once: the tree is noted beside it and
   * the kept file removed. Throws KeptIndexLost when neither is there any more.
   */
  resolve(tree: string): Promise<string> {
    const kept = keptFiles(this.options.gitDir, tree);
    if (!kept) return Promise.resolve(tree);
    let resolving = this.resolving.get(tree);
    if (!resolving) {
      resolving = this.writeKeptTree(kept, tree).finally(() => this.resolving.delete(tree));
      this.resolving.set(tree, resolving);
    }
    return resolving;
  }

  private async writeKeptTree(kept: KeptFiles, tree: string): Promise<string> {
    const noted = readKeptTree(kept);
    if (noted) return noted;
    mustExist(kept, tree);
    await this.client();
    // Never the shared index: its tree is whatever the last snapshot left, not this one's.
    if (!this.gitWithIndex) throw new Error(`cannot write the tree of ${kept.index}: no git client`);
    let written: string;
    try {
      written = kept.edits ? await this.writeEditsTree(kept.index, this.gitWithIndex) : (await run(this.gitWithIndex(kept.index), ["write-tree"])).trim();
    } catch (error) {
      // Another process may have written it first (and removed the index).
      const late = readKeptTree(kept);
      if (late) return late;
      throw error;
    }
    noteKeptTree(kept, written);
    return written;
  }

  /** The tree of a list of edits (see file-edits.ts), in an index of its own. A base that is lost loses the edits with it. */
  private async writeEditsTree(file: string, withIndex: (index: string, otherWorkTree?: string) => SimpleGit): Promise<string> {
    if (!existsSync(file)) throw new KeptIndexLost(`the checkpoint's list of edits is missing (${file})`);
    let edits: EditsFile;
    try {
      edits = readEdits(file);
    } catch (error) {
      // Only a hand could have cut it short (it is renamed into place whole): what it held is lost.
      throw new KeptIndexLost(error instanceof Error ? error.message : String(error));
    }
    const base = await this.resolve(edits.base);
    const index = `${file}.${process.pid}.index`;
    try {
      return await writeEditsTree(edits, base, this.options.gitDir, { git: withIndex(index), inWorkTree: (workTree) => withIndex(index, workTree), workTreeExists: existsSync(this.options.workTree) });
    } finally {
      rmSync(index, { force: true });
    }
  }

  /** Kept trees not written yet, untouched since `before` (see leftoverKept). */
  leftovers(before: number): string[] {
    return leftoverKept(this.options.gitDir, before);
  }

  /** Whatever is left of a kept index once its tree is recorded elsewhere, or it is no longer needed. */
  release(tree: string): void {
    const kept = keptFiles(this.options.gitDir, tree);
    if (kept) releaseKept(kept);
  }

  /**
   * The tracked files, beside the listing of new ones. Before the first `add` there are none.
   * When nothing is expected to have changed, those whose stat differs from the index are listed
   * (to be added by name) and the index's tree is written as a guess, right if the lists are
   * empty: one round of git. Otherwise they are brought up to date at once (no size limit applies
   * to a tracked file), so a turn that created no file costs two rounds, not three.
   */
  private async tracked(git: SimpleGit, options: SnapshotOptions): Promise<{ dirty: string[]; tree?: Promise<string | undefined> }> {
    if (!existsSync(join(this.options.gitDir, "index"))) return { dirty: [] };
    if (!options.likelyUnchanged) {
      await locking(git, ["add", "--update"]);
      return { dirty: [] };
    }
    // If it fails (another session's `add` holds the index lock), the tree is written after the listing as usual.
    const tree = git.raw(["write-tree"]).then(
      (out) => out.trim(),
      () => undefined,
    );
    const dirty = await run(git, ["diff-files", "--name-only", "-z"]).catch(async (error: unknown) => {
      await tree;
      throw error;
    });
    return { dirty: dirty.split("\0").filter((path) => path !== ""), tree };
  }

  /**
   * New files above the size limit go into this repository's own exclude list (not the
   * project's), so `add` never copies them; a tracked file that grew past it is kept as it is.
   */
  private async excludeLargeNewFiles(listed: readonly string[]): Promise<string[]> {
    const limit = this.options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    const most = this.options.maxNewFiles ?? DEFAULT_MAX_NEW_FILES;
    if (listed.length > most) {
      throw new Error(`${this.options.workTree} holds ${listed.length.toLocaleString("en")} files not yet checkpointed (more than ${most.toLocaleString("en")}); list the bulky folders in .gitignore, or set fileCheckpointingEnabled: false`);
    }
    const large = listed.filter((path) => oversized(join(this.options.workTree, path), limit));
    if (large.length > 0) await writeFile(join(this.options.gitDir, "info", "exclude"), large.map((path) => `/${escapePattern(path)}\n`).join(""), { flag: "a" });
    return large;
  }

  /** What differs from `from` to `to` (file paths, no rename detection: a move is D + A). */
  async changes(from: string, to: string): Promise<TreeChange[]> {
    if (from === to) return [];
    const git = await this.client();
    const out = await run(git, ["diff-tree", "-r", "--no-renames", "--name-status", "-z", from, to]);
    const parts = out.split("\0");
    const changes: TreeChange[] = [];
    for (let i = 0; i + 1 < parts.length; i += 2) {
      const status = parts[i]?.charAt(0);
      const path = parts[i + 1] ?? "";
      if (path === "") continue;
      changes.push({ status: status === "A" ? "A" : status === "D" ? "D" : "M", path });
    }
    return changes;
  }

  /** Lines added and removed per changed file from `from` to `to` (a binary file counts 0 and 0). */
  async lineChanges(from: string, to: string): Promise<Array<{ path: string; added: number; removed: number }>> {
    if (from === to) return [];
    const git = await this.client();
    const out = await run(git, ["diff-tree", "-r", "--no-renames", "--numstat", "-z", from, to]);
    return out
      .split("\0")
      .filter((line) => line !== "")
      .map((line) => {
        const [added = "", removed = "", ...path] = line.split("\t");
        return { path: path.join("\t"), added: Number(added) || 0, removed: Number(removed) || 0 };
      });
  }

  /**
   * Puts `paths` back as they are in `tree`: content and mode restored, a path absent there
   * removed. Only these paths are touched; the index is then brought to the work tree again.
   */
  async restore(tree: string, paths: readonly string[]): Promise<void> {
    if (paths.length === 0) return;
    const git = await this.client();
    await mkdir(this.options.workTree, { recursive: true });
    const inTree = new Set((await run(git, ["ls-tree", "-r", "-z", "--name-only", tree, "--", ...paths])).split("\0").filter(Boolean));
    const present = paths.filter((path) => inTree.has(path));
    const absent = paths.filter((path) => !inTree.has(path));
    // Absent paths go first: a file that became a folder (or the other way round) must be out of
    // the way before what the tree holds there is written back.
    if (absent.length > 0) await locking(git, ["rm", "--quiet", "--force", "--ignore-unmatch", "--", ...absent]);
    // An absent path the index did not know (a file created after the last snapshot) is removed by
    // hand, and so are the folders that held only such files.
    const { rm, rmdir } = await import("node:fs/promises");
    for (const path of absent) {
      await rm(join(this.options.workTree, path), { force: true }).catch(() => undefined);
      for (let dir = dirname(path); dir !== "." && dir !== ""; dir = dirname(dir)) {
        const removed = await rmdir(join(this.options.workTree, dir)).then(() => true, () => false);
        if (!removed) break;
      }
    }
    if (present.length > 0) await locking(git, ["checkout", tree, "--", ...present]);
  }
}

/** Whether `path` is a file over `limit` bytes (git keeps a link as its target's name, a nested repository as a commit id). */
function oversized(path: string, limit: number): boolean {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  return stat !== undefined && stat.isFile() && stat.size > limit;
}

/** A path as an exclude pattern that matches just it. */
function escapePattern(path: string): string {
  return path.replace(/([\\*?[\]!#])/g, "\\$1");
}
