/**
 * The session's plugins as one stored record: everything the enabled installs contribute (sources,
 * hooks, checked server definitions, `bin/` folders, the start-up lines), keyed by the identity of
 * `installed_plugins.json` (inode, size, mtime), the enabled set and the folder. Installs are content-addressed
 * folders that never change, so when none of that changed the record still holds; it is written
 * only after every folder in it was checked against its recorded hash, and each folder is checked
 * again (PluginIntegrity) before anything of it is read or run in a session that used the record.
 */
import { mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import type { ComponentSource } from "../extensions/types.ts";
import type { HookSource } from "../hooks/types.ts";
import type { McpServerConfig } from "../mcp/types.ts";
import type { CheckedPlugin } from "../plugins/install/integrity.ts";
import type { Environment } from "../settings/paths.ts";
import { asciiJson, readAsciiJson } from "../util/ascii-json.ts";
import { writeFileAtomicSync } from "../util/atomic-write.ts";

const SNAPSHOT_VERSION = 8;
/** Records kept besides the newest (other projects, other enabled sets); older ones are removed. */
const KEEP = 12;

/** A plugin's MCP server checked once (zod) at load: a warm start only expands variables. */
export interface CheckedServer {
  name: string;
  file: string;
  config?: McpServerConfig;
  hash: string;
  problems: string[];
}

export interface PluginSnapshot {
  ids: Array<{ name: string; path: string; id: string }>;
  /** Start-up lines: resolution problems, plugins' own errors, server definition problems. */
  lines: string[];
  sources: ComponentSource[];
  hookSources: HookSource[];
  /** Events the plugins' hooks handle, and their problems as start-up lines (see DeferredHooks). */
  hookEvents: string[];
  hookLines: string[];
  servers: Array<{ plugin: string; root: string; dataDir: string; server: CheckedServer }>;
  bins: Array<{ dir: string; root: string }>;
  /** Every install in the record, for the integrity checks a warm start defers. */
  checks: CheckedPlugin[];
  /** Enabled ids with no install record here (for the team-rollout notice). */
  notInstalled: string[];
}

/** A source as stored: the default folders (`skills/`, `commands/`, `agents/` under the root) left out. */
type StoredSource = Omit<ComponentSource, "skills" | "commands" | "agents"> & Partial<Pick<ComponentSource, "skills" | "commands" | "agents">>;

interface StoredSnapshot extends Omit<PluginSnapshot, "sources"> {
  version: number;
  sources: StoredSource[];
}

const FOLDERS = ["skills", "commands", "agents"] as const;

function compact(source: ComponentSource): StoredSource {
  const stored: StoredSource = { ...source };
  for (const kind of FOLDERS) {
    const list = source[kind];
    if (list.length === 1 && list[0] === join(source.root, kind)) delete stored[kind];
  }
  return stored;
}

function expand(stored: StoredSource): ComponentSource {
  return { ...stored, skills: stored.skills ?? [join(stored.root, "skills")], commands: stored.commands ?? [join(stored.root, "commands")], agents: stored.agents ?? [join(stored.root, "agents")] };
}

let lastRead: { path: string; snapshot: PluginSnapshot | undefined } | undefined;

/** The record's path for this start (cheap: one read of the install records, one hash). */
export function snapshotPath(env: Environment, enabledIds: readonly string[]): string {
  // clew replaces the install records by renaming a new file over them, so any change gives a new
  // inode; size and mtime catch an edit made in place by hand.
  let records = "none";
  try {
    const stats = statSync(join(env.pluginsDir, "installed_plugins.json"));
    records = `${stats.ino}:${stats.size}:${stats.mtimeMs}`;
  } catch {
    // No installs: every enabled plugin is reported as not installed, which the record holds too.
  }
  const context = JSON.stringify([SNAPSHOT_VERSION, env.cwd, env.homeDir, [...enabledIds].sort()]);
  const key = `${Bun.hash(context).toString(36)}-${Bun.hash(records).toString(36)}`;
  return join(env.pluginsDir, "index", `session-${key}.json`);
}

export function readSnapshot(path: string): PluginSnapshot | undefined {
  if (lastRead?.path === path) return lastRead.snapshot;
  let snapshot: PluginSnapshot | undefined;
  try {
    const stored = readAsciiJson(path) as Partial<StoredSnapshot>;
    if (stored.version === SNAPSHOT_VERSION && Array.isArray(stored.sources) && Array.isArray(stored.checks)) snapshot = { ...(stored as StoredSnapshot), sources: stored.sources.map(expand) };
  } catch {
    // Missing or damaged: the plugins load from their folders and the record is written again.
  }
  lastRead = { path, snapshot };
  return snapshot;
}

export function writeSnapshot(path: string, snapshot: PluginSnapshot): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileAtomicSync(path, asciiJson({ version: SNAPSHOT_VERSION, ...snapshot, sources: snapshot.sources.map(compact) } satisfies StoredSnapshot));
    lastRead = { path, snapshot };
    prune(dirname(path));
  } catch {
    // A read-only plugins folder: every start loads the plugins from their folders.
  }
}

function prune(dir: string): void {
  const records = readdirSync(dir)
    .filter((name) => name.startsWith("session-") && name.endsWith(".json"))
    .map((name) => ({ path: join(dir, name), mtime: statSync(join(dir, name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const old of records.slice(KEEP)) rmSync(old.path, { force: true });
}

/** After a refusal: the next start loads from the folders again, checking each one first. */
export function dropSnapshot(path: string): void {
  rmSync(path, { force: true });
  if (lastRead?.path === path) lastRead = undefined;
}
