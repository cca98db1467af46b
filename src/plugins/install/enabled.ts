/**
 * What the session loads at start-up: every plugin the merged `enabledPlugins` turns on, with
 * its verified cache folder and data folder. Never throws; a plugin that is enabled but not
 * installed, or whose cache no longer matches its hash, comes back with a problem (and
 * `verified: false`) so the caller skips it and reports, while the others load.
 */
import type { PluginProblem } from "../types.ts";
import { pluginDataDir } from "./cache.ts";
import { PluginIntegrity } from "./integrity.ts";
import { installedFile, readInstalled, recordsFor, type StoredInstallRecord } from "./records.ts";

export interface EnabledPluginsInput {
  /** The merged settings' `enabledPlugins` (id → on/off). */
  enabledPlugins: Readonly<Record<string, unknown>> | undefined;
  pluginsDir: string;
  projectDir: string;
}

export interface EnabledPluginRoot {
  id: string;
  name: string;
  marketplace: string;
  /** The cache folder to load ("" when not installed). */
  root: string;
  /** `${CLAUDE_PLUGIN_DATA}` (created by the loader on first use, not here). */
  dataDir: string;
  /** The install that applies here: local over project over user. Undefined: not installed. */
  record: StoredInstallRecord | undefined;
  /** True only when the cache folder is the tree hashed at install. */
  verified: boolean;
  problem?: PluginProblem;
}

const SCOPE_ORDER: Record<string, number> = { local: 0, project: 1, user: 2 };

function strongest(records: StoredInstallRecord[]): StoredInstallRecord | undefined {
  return [...records].sort((a, b) => (SCOPE_ORDER[a.scope] ?? 9) - (SCOPE_ORDER[b.scope] ?? 9))[0];
}

function splitId(id: string): { name: string; marketplace: string } | undefined {
  const at = id.lastIndexOf("@");
  if (at <= 0 || at === id.length - 1) return undefined;
  return { name: id.slice(0, at), marketplace: id.slice(at + 1) };
}

/**
 * The enabled plugins and the install record that applies to each, without looking at their
 * folders (`verified` stays false): a warm start checks them through PluginIntegrity instead.
 */
export function resolveEnabledPlugins(input: EnabledPluginsInput): EnabledPluginRoot[] {
  const results: EnabledPluginRoot[] = [];
  let installed: ReturnType<typeof readInstalled>;
  try {
    installed = readInstalled(input.pluginsDir);
  } catch {
    installed = { data: { version: 2, plugins: {} }, file: installedFile(input.pluginsDir), problems: [] };
  }
  // Plugin ids match case-insensitively (plugins.md §1).
  const byLowerId = new Map(Object.keys(installed.data.plugins).map((id) => [id.toLowerCase(), id]));
  for (const [id, on] of Object.entries(input.enabledPlugins ?? {})) {
    if (on !== true) continue;
    const parts = splitId(id);
    const base = { id, name: parts?.name ?? id, marketplace: parts?.marketplace ?? "", root: "", dataDir: pluginDataDir(input.pluginsDir, id), record: undefined, verified: false };
    if (parts === undefined) {
      results.push({ ...base, problem: { level: "error", code: "invalid-plugin-id", file: installed.file, field: `enabledPlugins["${id}"]`, message: `enabledPlugins names "${id}", which is not of the form plugin@marketplace; fix the key in your settings.` } });
      continue;
    }
    const storedId = byLowerId.get(id.toLowerCase()) ?? id;
    const record = strongest(recordsFor(installed.data, storedId, input.projectDir));
    if (record === undefined) {
      results.push({ ...base, problem: { level: "error", code: "plugin-not-installed", file: installed.file, message: `Plugin ${id} is enabled in settings but not installed; run \`clew plugin install ${id}\` (or \`clew plugin sync\` in a project with clew.lock).` } });
      continue;
    }
    results.push({ ...base, id: storedId, root: record.installPath, dataDir: pluginDataDir(input.pluginsDir, storedId), record });
  }
  return results;
}

/** Every enabled plugin, each installed one checked now (its folder against its recorded hash). */
export function enabledPluginRoots(input: EnabledPluginsInput): EnabledPluginRoot[] {
  const roots = resolveEnabledPlugins(input);
  const integrity = new PluginIntegrity(input.pluginsDir, roots.flatMap((root) => (root.record ? [{ id: root.id, record: root.record }] : [])));
  const results = roots.map((root): EnabledPluginRoot => {
    if (!root.record) return root;
    const problem = integrity.problem(root.root);
    return problem ? { ...root, problem } : { ...root, verified: true };
  });
  integrity.saveStamps();
  return results;
}
