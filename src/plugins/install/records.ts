/**
 * `<pluginsDir>/installed_plugins.json` in Claude Code's version-2 shape: plugin id → one record
 * per scope (and per project for project and local installs). Read leniently: a malformed
 * record is reported and skipped, never allowed to hide the others.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomicSync } from "../../util/atomic-write.ts";
import type { InstallRecord, InstallScope, PluginSource } from "../types.ts";

/** What clew stores beyond the shared record: the cheap start-up check and auto-install origin. */
export interface StoredInstallRecord extends InstallRecord {
  /** See content-hash.ts: paths, sizes, mtimes of the tree when it was hashed. */
  listingStamp?: string;
  /** The source pinned to what was fetched (clew.lock's `resolved`). */
  resolvedSource?: PluginSource;
  /** `dependencies` as written in the installed manifest, so disable can check dependents offline. */
  dependencies?: unknown[];
  /** Set when the plugin was installed only because these plugins depend on it. */
  dependencyOf?: string[];
}

export interface InstalledPlugins {
  version: 2;
  plugins: Record<string, StoredInstallRecord[]>;
}

export interface InstalledRead {
  data: InstalledPlugins;
  file: string;
  problems: string[];
}

const SCOPES: readonly string[] = ["user", "project", "local"];

export function installedFile(pluginsDir: string): string {
  return join(pluginsDir, "installed_plugins.json");
}

function isRecord(value: unknown): value is StoredInstallRecord {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.scope === "string" && SCOPES.includes(record.scope) &&
    typeof record.installPath === "string" && typeof record.version === "string" &&
    typeof record.contentHash === "string" && typeof record.marketplace === "string" &&
    typeof record.source === "object" && record.source !== null
  );
}

export function readInstalled(pluginsDir: string): InstalledRead {
  const file = installedFile(pluginsDir);
  const data: InstalledPlugins = { version: 2, plugins: {} };
  const problems: string[] = [];
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return { data, file, problems };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    problems.push(`${file} is not valid JSON (${error instanceof Error ? error.message : String(error)}); no plugin counts as installed until it is fixed or removed`);
    return { data, file, problems };
  }
  const plugins = typeof parsed === "object" && parsed !== null ? (parsed as { plugins?: unknown }).plugins : undefined;
  if (typeof plugins !== "object" || plugins === null || Array.isArray(plugins)) {
    problems.push(`${file} has no "plugins" object; no plugin counts as installed until it is fixed or removed`);
    return { data, file, problems };
  }
  for (const [id, records] of Object.entries(plugins as Record<string, unknown>)) {
    const list = Array.isArray(records) ? records : [];
    list.forEach((record, index) => {
      if (isRecord(record)) (data.plugins[id] ??= []).push(record);
      else problems.push(`${file}: plugins["${id}"][${index}] is not a valid install record; reinstall with \`clew plugin install ${id}\``);
    });
  }
  return { data, file, problems };
}

export function writeInstalled(pluginsDir: string, data: InstalledPlugins): void {
  const plugins: Record<string, StoredInstallRecord[]> = {};
  for (const id of Object.keys(data.plugins).sort()) {
    const records = data.plugins[id];
    if (records && records.length > 0) plugins[id] = records;
  }
  writeFileAtomicSync(installedFile(pluginsDir), `${JSON.stringify({ version: 2, plugins }, null, 2)}\n`);
}

function sameSlot(record: InstallRecord, scope: InstallScope, projectPath: string | undefined): boolean {
  return record.scope === scope && (scope === "user" || record.projectPath === projectPath);
}

export function findRecord(data: InstalledPlugins, id: string, scope: InstallScope, projectPath?: string): StoredInstallRecord | undefined {
  return data.plugins[id]?.find((record) => sameSlot(record, scope, projectPath));
}

/** The records that apply in a project: user installs, and project/local installs of that project. */
export function recordsFor(data: InstalledPlugins, id: string, projectDir: string): StoredInstallRecord[] {
  return (data.plugins[id] ?? []).filter((record) => record.scope === "user" || record.projectPath === projectDir);
}

export function putRecord(data: InstalledPlugins, id: string, record: StoredInstallRecord): void {
  const list = (data.plugins[id] ?? []).filter((existing) => !sameSlot(existing, record.scope, record.projectPath));
  list.push(record);
  data.plugins[id] = list;
}

export function dropRecord(data: InstalledPlugins, id: string, scope: InstallScope, projectPath?: string): StoredInstallRecord | undefined {
  const list = data.plugins[id] ?? [];
  const found = list.find((record) => sameSlot(record, scope, projectPath));
  data.plugins[id] = list.filter((record) => record !== found);
  return found;
}

/** Whether any record (any scope, any project) still uses this cache folder. */
export function installPathInUse(data: InstalledPlugins, installPath: string): boolean {
  return Object.values(data.plugins).some((records) => records.some((record) => record.installPath === installPath));
}
