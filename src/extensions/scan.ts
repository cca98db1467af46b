/**
 * Finding the component files of one source, with the (size, mtime) fingerprint the index cache
 * checks. Nothing here reads a file's content: a skill folder costs one `stat` of its SKILL.md,
 * so a warm start over thousands of skills is a few name listings and stats. `stat` follows
 * symlinks, and its (device, inode) pair identifies the real file, so a target reachable twice
 * loads once without a `realpath` per entry. A scan can record what it looked at (stamps.ts): a
 * start then tells the folders are as they were by looking again, without scanning.
 */
import { readdirSync, statSync, type Stats } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import type { ScanRecorder } from "./stamps.ts";
import type { ComponentSource, ExtensionProblem } from "./types.ts";

export type ComponentKind = "skill" | "command" | "agent";

export interface ScanEntry {
  kind: ComponentKind;
  file: string;
  /** The skill folder, or the folder holding the file. */
  dir: string;
  /** Path-derived id: the skill folder's name, or the file path below the scanned folder with `/` → `:`. */
  id: string;
  /** Unique within the source: kind, which of the source's paths, id (the index cache's key). */
  key: string;
  size: number;
  mtimeMs: number;
}

export interface ScanResult {
  entries: ScanEntry[];
  problems: ExtensionProblem[];
  /** `<skills-dir>/<x>/.claude-plugin/plugin.json` folders: plugins for the plugin loader (`@skills-dir`). */
  skillsDirPlugins: string[];
}

function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error ? String((error as { code: unknown }).code) : undefined;
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function identity(stat: Stats): string {
  return `${stat.dev}:${stat.ino}`;
}

class Scanner {
  readonly entries: ScanEntry[] = [];
  readonly problems: ExtensionProblem[] = [];
  readonly skillsDirPlugins: string[] = [];
  /** Per kind and device, the inodes already taken. */
  private readonly seen = new Map<string, Set<number>>();

  constructor(
    private readonly source: ComponentSource,
    private readonly record?: ScanRecorder,
  ) {}

  private stat(path: string): Stats | undefined {
    const stat = statOrUndefined(path);
    this.record?.stat(path, stat);
    return stat;
  }

  /** Entry names in code-unit order; a missing folder is an empty one, an unreadable one a problem. */
  private list(dir: string): string[] {
    try {
      const names = readdirSync(dir).sort();
      this.record?.list(dir, names);
      return names;
    } catch (error) {
      const code = errorCode(error);
      this.record?.list(dir, code ?? String(error));
      if (code !== "ENOENT" && code !== "ENOTDIR") {
        this.problems.push({ code: "unreadable", severity: "error", file: dir, message: `cannot list this folder (${code ?? String(error)}); its components are not loaded. Check its permissions.` });
      }
      return [];
    }
  }

  /** Which of the source's paths is being scanned, for entry keys. */
  pathIndex = 0;

  private add(kind: ComponentKind, file: string, dir: string, id: string, stat: Stats): void {
    const group = `${kind}:${stat.dev}`;
    let inodes = this.seen.get(group);
    if (inodes === undefined) this.seen.set(group, (inodes = new Set()));
    if (inodes.has(stat.ino)) return;
    inodes.add(stat.ino);
    this.entries.push({ kind, file, dir, id, key: `${kind.charAt(0)}${this.pathIndex}:${id}`, size: stat.size, mtimeMs: stat.mtimeMs });
  }

  skills(root: string): void {
    const plugin = this.source.scope === "plugin";
    if (plugin) {
      const own = this.stat(`${root}/SKILL.md`);
      if (own?.isFile()) {
        this.add("skill", `${root}/SKILL.md`, root, basename(root), own);
        return;
      }
    }
    for (const name of this.list(root)) {
      if (name.startsWith(".") || (!plugin && name.toLowerCase() === "synced")) continue;
      const dir = `${root}/${name}`;
      const stat = this.stat(`${dir}/SKILL.md`);
      if (stat?.isFile()) {
        this.add("skill", `${dir}/SKILL.md`, dir, name, stat);
      } else if (!plugin && this.stat(`${dir}/.claude-plugin/plugin.json`)?.isFile()) {
        this.skillsDirPlugins.push(dir);
        this.problems.push({
          code: "skills-dir-plugin",
          severity: "info",
          file: `${dir}/.claude-plugin/plugin.json`,
          message: `this folder is a plugin, not a skill; it is loaded as a plugin ("<name>@skills-dir") with its own skills, commands and agents.`,
        });
      }
    }
  }

  /** Commands and agents: `.md` files at any depth; in commands, a folder with SKILL.md is one command. */
  files(kind: "command" | "agent", path: string): void {
    const stat = this.stat(path);
    if (stat === undefined) return;
    if (stat.isFile()) {
      if (path.endsWith(".md")) this.add(kind, path, dirname(path), basename(path, ".md"), stat);
      return;
    }
    const visited = new Set<string>([identity(stat)]);
    const walk = (dir: string, prefix: string): void => {
      for (const name of this.list(dir)) {
        if (name.startsWith(".") || name === "node_modules") continue;
        const full = `${dir}/${name}`;
        const entry = this.stat(full);
        if (entry === undefined) continue;
        if (entry.isFile()) {
          if (name.endsWith(".md")) this.add(kind, full, dir, prefix + name.slice(0, -3), entry);
          continue;
        }
        if (!entry.isDirectory() || visited.has(identity(entry))) continue;
        visited.add(identity(entry));
        const skill = kind === "command" ? this.stat(`${full}/SKILL.md`) : undefined;
        if (skill?.isFile()) this.add(kind, `${full}/SKILL.md`, full, prefix + name, skill);
        else walk(full, `${prefix}${name}:`);
      }
    };
    walk(path, "");
  }
}

/** `record`: told of every stat and listing the scan makes, so its result can be re-checked without scanning. */
export function scanSource(source: ComponentSource, record?: ScanRecorder): ScanResult {
  const scanner = new Scanner(source, record);
  source.skills.forEach((root, index) => {
    scanner.pathIndex = index;
    scanner.skills(resolve(root));
  });
  source.commands.forEach((path, index) => {
    scanner.pathIndex = index;
    scanner.files("command", resolve(path));
  });
  source.agents.forEach((path, index) => {
    scanner.pathIndex = index;
    scanner.files("agent", resolve(path));
  });
  return { entries: scanner.entries, problems: scanner.problems, skillsDirPlugins: scanner.skillsDirPlugins };
}
