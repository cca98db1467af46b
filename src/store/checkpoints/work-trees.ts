/**
 * The working directories a checkpoint covers: the project folder and each folder added with
 * `--add-dir` or `permissions.additionalDirectories`, each in a shadow repository of its own. A
 * checkpoint holds one tree per directory, keyed by its root: `.` for the project, the real path
 * for any other. Paths reach the user as they can read them: relative to the project, absolute
 * for a folder outside it.
 */
import { realpathSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import { realDirectory } from "../../util/real-directory.ts";
import type { ShadowRepo, SnapshotOptions, TreeChange } from "./shadow-repo.ts";

/** The root of the project folder in a checkpoint's trees. */
export const PROJECT_ROOT = ".";

/** A tree per working directory (root → tree). */
export type Trees = Record<string, string>;

/** A changed file of one working directory: `path` as the user reads it, `file` inside its root. */
export interface DirChange extends TreeChange {
  root: string;
  file: string;
}

export interface TreesSnapshot {
  trees: Trees;
  /** Files left out for their size, as the user reads them. */
  skipped: string[];
  /** Added folders that could not be snapshot (root → why); the project's failure throws instead. */
  failures: Map<string, string>;
}

/** Whether `path` is `dir` or inside it. */
function within(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/**
 * The added folders that need a repository of their own: existing directories by real path, not
 * inside the project (its repository covers them) nor inside another added folder, each once.
 */
export function outsideRoots(projectDir: string, dirs: readonly string[]): string[] {
  const project = realDirectory(projectDir) ?? projectDir;
  const reals = [...new Set(dirs.flatMap((dir) => realDirectory(dir) ?? []))].filter((dir) => !within(project, dir));
  return reals.filter((dir) => !reals.some((other) => other !== dir && within(other, dir))).sort();
}

/** Folders inside `root` that are checkpointed elsewhere or hold clew's own state, relative to it. */
export function nestedExclusions(root: string, others: readonly string[]): string[] {
  return others.flatMap((dir) => {
    const real = realDirectory(dir) ?? dir;
    return real !== root && within(root, real) ? [relative(root, real).split(sep).join("/")] : [];
  });
}

export class WorkTrees {
  private readonly repos = new Map<string, ShadowRepo>();

  /** `open(root)` makes the shadow repository of a root (`.` or a real path). */
  constructor(private readonly open: (root: string) => ShadowRepo) {}

  repo(root: string): ShadowRepo {
    let repo = this.repos.get(root);
    if (!repo) {
      repo = this.open(root);
      this.repos.set(root, repo);
    }
    return repo;
  }

  /** A file of `root` as the user reads it. */
  display(root: string, file: string): string {
    return root === PROJECT_ROOT ? file : join(root, file);
  }

  /**
   * Every root's tree now, side by side. The project's failure throws; an added folder's is
   * returned. `options.captured` is called once every root's work tree has been read (or failed).
   */
  async snapshot(roots: readonly string[], options: SnapshotOptions = {}): Promise<TreesSnapshot> {
    const all = [PROJECT_ROOT, ...roots.filter((root) => root !== PROJECT_ROOT)];
    let reading = all.length;
    const settled = await Promise.allSettled(
      all.map((root) => {
        let read = false;
        const done = () => {
          if (read) return;
          read = true;
          if (--reading === 0) options.captured?.();
        };
        return this.repo(root).snapshot({ ...options, captured: done }).finally(done);
      }),
    );
    const out: TreesSnapshot = { trees: {}, skipped: [], failures: new Map() };
    settled.forEach((result, index) => {
      const root = all[index] ?? PROJECT_ROOT;
      if (result.status === "fulfilled") {
        out.trees[root] = result.value.tree;
        out.skipped.push(...result.value.skipped.map((file) => this.display(root, file)));
      } else if (root === PROJECT_ROOT) {
        throw result.reason;
      } else {
        out.failures.set(root, result.reason instanceof Error ? (result.reason.message.split("\n")[0] ?? "") : String(result.reason));
      }
    });
    return out;
  }

  /**
   * Every root's tree when nothing but the files `written` (absolute paths, each as a tool named
   * it) can have changed since the snapshot `since` was taken: a root none of them lies in keeps
   * its tree, the others add those files by name (see ShadowRepo.snapshotFiles) or, where that
   * cannot be trusted, are snapshot whole. A file outside every root is not checkpointed. The
   * project's failure throws; an added folder that cannot be snapshot is left out.
   */
  async snapshotWritten(since: Trees, written: readonly string[], keep = false): Promise<Trees> {
    const roots = Object.keys(since);
    const located = roots.flatMap((root) => {
      const real = realDirectory(this.repo(root).workTree);
      return real ? [{ root, real }] : [];
    });
    const byRoot = new Map<string, Set<string>>();
    for (const path of written) {
      // What the tools change is the file itself (a link's target; a new file in its folder's real place).
      const real = realFile(path);
      if (!real) continue;
      // The deepest root: the project inside an added folder (which leaves it out) is the project's.
      let owner: { root: string; real: string } | undefined;
      for (const entry of located) if (within(entry.real, real) && real !== entry.real && (!owner || entry.real.length > owner.real.length)) owner = entry;
      if (!owner) continue;
      const files = byRoot.get(owner.root) ?? new Set<string>();
      files.add(relative(owner.real, real).split(sep).join("/"));
      byRoot.set(owner.root, files);
    }
    const trees: Trees = {};
    const settled = await Promise.allSettled(
      roots.map(async (root) => {
        const files = byRoot.get(root);
        const tree = since[root] ?? "";
        if (!files) return tree;
        const repo = this.repo(root);
        // Kept: its blobs written in-process, its tree when something needs it (see ShadowRepo.recordFiles).
        return (keep ? repo.recordFiles([...files], tree) : undefined) ?? (await repo.snapshotFiles([...files], tree, keep)) ?? (await repo.snapshot({ keep })).tree;
      }),
    );
    settled.forEach((result, index) => {
      const root = roots[index] ?? PROJECT_ROOT;
      if (result.status === "fulfilled") trees[root] = result.value;
      else if (root === PROJECT_ROOT) throw result.reason;
    });
    return trees;
  }

  /** What differs from `from` to `to` in every root both hold. */
  async changes(from: Trees, to: Trees): Promise<DirChange[]> {
    const lists = await Promise.all(
      shared(from, to).map(async (root) => (await this.repo(root).changes(from[root] ?? "", to[root] ?? "")).map((change): DirChange => ({ status: change.status, path: this.display(root, change.path), root, file: change.path }))),
    );
    return lists.flat();
  }

  /** Lines added and removed per changed file, in every root both hold. */
  async lineChanges(from: Trees, to: Trees): Promise<Array<{ path: string; added: number; removed: number }>> {
    const lists = await Promise.all(shared(from, to).map(async (root) => (await this.repo(root).lineChanges(from[root] ?? "", to[root] ?? "")).map((line) => ({ ...line, path: this.display(root, line.path) }))));
    return lists.flat();
  }

  /** Puts each change's file back as it is in its root's tree of `trees`. */
  async restore(trees: Trees, changes: readonly DirChange[]): Promise<void> {
    const byRoot = new Map<string, string[]>();
    for (const change of changes) byRoot.set(change.root, [...(byRoot.get(change.root) ?? []), change.file]);
    for (const [root, files] of byRoot) {
      const tree = trees[root];
      if (tree !== undefined) await this.repo(root).restore(tree, files);
    }
  }
}

/** The real path of an existing file, else undefined (nothing there: a tool that wrote none). */
function realFile(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

function shared(from: Trees, to: Trees): string[] {
  return Object.keys(from).filter((root) => from[root] !== undefined && to[root] !== undefined && from[root] !== to[root]);
}
