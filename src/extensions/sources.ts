/**
 * Where components come from. Every location is a ComponentSource — a folder plus a namespace —
 * so user folders, project folders (from the working directory up to the repository root),
 * `--add-dir` folders, nested folders found later and enabled plugins all go through the same
 * scanner. Paths arrive as arguments; nothing here reads the environment.
 */
import { statSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import type { ComponentSource, SourceScope, SourceSet } from "./types.ts";

/** clew's own folder first: `.clew/` wins a name clash with `.claude/` at the same level. */
const PROJECT_FOLDERS = [".clew", ".claude"] as const;

export interface DiscoveryInput {
  /** The working directory the session started in. */
  cwd: string;
  /** The repository root: project folders are searched from `cwd` up to it. Omitted: `cwd` only. */
  projectRoot?: string;
  /** clew's user folder (`~/.clew`, or CLEW_CONFIG_DIR): `<userDir>/skills`, `/commands`, `/agents`. */
  userDir: string;
  /** Managed settings folders in effect: `<dir>/.clew/skills`, `<dir>/.claude/skills`, … */
  managedDirs?: readonly string[];
  /** `--add-dir` folders: their `.clew/` and `.claude/` skills, commands and agents load too. */
  addDirs?: readonly string[];
}

function folderSource(scope: SourceScope, root: string, kinds: { agents: boolean } = { agents: true }): ComponentSource {
  return {
    scope,
    root,
    skills: [join(root, "skills")],
    commands: [join(root, "commands")],
    agents: kinds.agents ? [join(root, "agents")] : [],
  };
}

function isInside(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/** `cwd`, its parent, … up to and including `top` (or just `cwd` when `top` is not above it). */
function upwards(cwd: string, top: string | undefined): string[] {
  const start = resolve(cwd);
  if (top === undefined || !isInside(start, resolve(top))) return [start];
  const stop = resolve(top);
  const dirs: string[] = [];
  for (let dir = start; ; dir = dirname(dir)) {
    dirs.push(dir);
    if (dir === stop || dirname(dir) === dir) break;
  }
  return dirs;
}

/** The project's `.clew` and `.claude` folders from `cwd` up to the repository root, nearest first (`.clew` before `.claude`). */
export function projectFolders(cwd: string, projectRoot: string | undefined): string[] {
  return upwards(cwd, projectRoot).flatMap((dir) => PROJECT_FOLDERS.map((folder) => join(dir, folder)));
}

/**
 * Sources in precedence order within each scope (the registry ranks scopes): managed, user,
 * project folders nearest first with `.clew` before `.claude`, then `--add-dir` folders. Folders
 * that do not exist are kept: scanning a missing folder costs one failed `readdir`.
 */
export function discoverSources(input: DiscoveryInput): ComponentSource[] {
  const sources: ComponentSource[] = [];
  const taken = new Set<string>();
  const push = (source: ComponentSource): void => {
    if (taken.has(source.root)) return;
    taken.add(source.root);
    sources.push(source);
  };
  for (const dir of input.managedDirs ?? []) for (const folder of PROJECT_FOLDERS) push(folderSource("managed", join(dir, folder)));
  push(folderSource("user", resolve(input.userDir)));
  for (const folder of projectFolders(input.cwd, input.projectRoot)) push(folderSource("project", folder));
  for (const dir of input.addDirs ?? []) for (const folder of PROJECT_FOLDERS) push(folderSource("add-dir", join(resolve(input.cwd, dir), folder)));
  return sources;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false;
  }
}

function exists(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isFile() === true;
  } catch {
    return false;
  }
}

/**
 * The nested `.clew/` / `.claude/` folders (skills and commands, spec A.3) between the working
 * directory and a path the agent just touched, outermost first. Only folders that exist are
 * returned; pass them to `loadNested`, which skips the ones already loaded.
 */
export function nestedSources(cwd: string, touchedPath: string): ComponentSource[] {
  const base = resolve(cwd);
  let dir = resolve(base, touchedPath);
  if (!isDirectory(dir)) dir = dirname(dir);
  if (!isInside(dir, base) || dir === base) return [];
  const chain: string[] = [];
  for (let at = dir; at !== base && isInside(at, base); at = dirname(at)) chain.unshift(at);
  const sources: ComponentSource[] = [];
  for (const at of chain) {
    const qualifier = relative(base, at).split(sep).join("/");
    for (const folder of PROJECT_FOLDERS) {
      const root = join(at, folder);
      if (isDirectory(root)) sources.push({ ...folderSource("nested", root, { agents: false }), qualifier });
    }
  }
  return sources;
}

export interface PluginSourceInput {
  /** The plugin root (install folder or `--plugin-dir`). */
  root: string;
  /** The plugin name: the namespace of every item (`<name>:<item>`). */
  name: string;
  /** Manifest `skills` paths (`./x`, `.`, or absolute): added to the default `skills/`. */
  skills?: readonly string[];
  /** Marketplace-root entries whose listed skills are the complete set (marketplaces.md §5.3). */
  skillsReplaceDefault?: boolean;
  /** Manifest `commands` paths (folders or `.md` files): replace the default `commands/`. */
  commands?: readonly string[];
  /** Manifest `agents` paths (folders or `.md` files): replace the default `agents/`. */
  agents?: readonly string[];
  /** `${CLAUDE_PLUGIN_DATA}` for this plugin. */
  dataDir?: string;
  /** A versioned install folder that is never edited in place (not `--plugin-dir`): see ComponentSource.immutable. */
  immutable?: boolean;
}

/**
 * One enabled plugin as a source (plugins.md §4, §6). The plugin loader has already validated the
 * manifest paths (inside the root, `./`-relative); this applies the add/replace rules and the
 * single-skill plugin rule: a root SKILL.md counts when there is no `skills/` folder and no
 * `skills` field.
 */
export function pluginSource(input: PluginSourceInput): ComponentSource {
  const root = resolve(input.root);
  const at = (path: string): string => resolve(root, path);
  const listed = (input.skills ?? []).map(at);
  let skills = input.skillsReplaceDefault && listed.length > 0 ? listed : [join(root, "skills"), ...listed];
  if (input.skills === undefined && !isDirectory(join(root, "skills")) && isFile(join(root, "SKILL.md"))) skills = [root];
  const source: ComponentSource = {
    scope: "plugin",
    namespace: input.name,
    root,
    skills,
    commands: input.commands === undefined ? [join(root, "commands")] : input.commands.map(at),
    agents: input.agents === undefined ? [join(root, "agents")] : input.agents.map(at),
    ...(input.dataDir === undefined ? {} : { pluginData: input.dataDir }),
    ...(input.immutable ? { immutable: true } : {}),
  };
  // A versioned install never changes, so what names it can be worked out once and stored with it.
  if (input.immutable) source.identity = sourceIdentity(source);
  return source;
}

/** What names a source in cache keys: a hash of its scope, namespace, root and folders. */
export function sourceIdentity(source: ComponentSource): string {
  if (source.immutable && source.identity !== undefined) return source.identity;
  return Bun.hash(JSON.stringify([source.scope, source.namespace ?? "", source.root, source.skills, source.commands, source.agents])).toString(36);
}

/** Whether a folder of the source (or a file it lists, as a manifest's `commands` may) exists: a stat each, no listing. */
export function hasFolder(source: ComponentSource): boolean {
  return [...source.skills, ...source.commands, ...source.agents].some(exists);
}

/** Whether any folder (or listed file) of any source exists: without one there is nothing to load or cache. */
export function anyFolderExists(sources: readonly ComponentSource[]): boolean {
  return sources.some(hasFolder);
}

/** The digest a SourceSet of these sources has. */
export function sourcesDigest(sources: readonly ComponentSource[]): string {
  return Bun.hash(sources.map(sourceIdentity).join("\n")).toString(36);
}

/** A set of sources already made (a cold start, `--plugin-dir`): its facts worked out from them when asked. */
export function sourceSetOf(sources: readonly ComponentSource[]): SourceSet {
  let digest: string | undefined;
  let anyFolder: boolean | undefined;
  return {
    get digest() {
      return (digest ??= sourcesDigest(sources));
    },
    get anyFolder() {
      return (anyFolder ??= anyFolderExists(sources));
    },
    immutable: sources.every((source) => source.immutable === true),
    list: () => sources,
  };
}
