/**
 * What `clew plugin install|uninstall|enable|disable|update|list|details` do, for the CLI (which
 * may not reach into plugins/ itself): builds the real ports once and calls the install logic.
 */
import { readInstalled, recordsFor, type StoredInstallRecord } from "../plugins/install/records.ts";
import { installPlugin, splitPluginId, updatePlugin, type InstallOutcome } from "../plugins/install/installer.ts";
import { disablePlugin, enablePlugin, resolveInstalledId, uninstallPlugin, type StateOutcome } from "../plugins/install/state-ops.ts";
import { verifyInstall } from "../plugins/install/verify.ts";
import { InstallFailure } from "../plugins/install/installer.ts";
import type { InstallScope } from "../plugins/types.ts";
import type { Environment } from "../settings/paths.ts";
import { installPorts, marketplaceContext, type PortsInput } from "./plugin-ports.ts";

export type { InstallOutcome, StateOutcome };
export { pluginDetails, type PluginDetails } from "./plugin-details.ts";

export interface PluginCommandContext {
  env: Environment;
  projectDir: string;
}

function portsInput(context: PluginCommandContext): PortsInput {
  return { env: context.env, projectDir: context.projectDir };
}

/** An install's outcome, with what each newly installed plugin can run (plugin-capabilities.ts). */
export type InstallReport = InstallOutcome & { runs?: Record<string, string[]> };

export async function runInstall(context: PluginCommandContext, spec: string, scope: InstallScope): Promise<InstallReport> {
  const outcome = await installPlugin(await installPorts(portsInput(context)), spec, scope);
  if (!outcome.ok) return outcome;
  const { installedRuns } = await import("./plugin-capabilities.ts");
  const runs: Record<string, string[]> = {};
  for (const item of outcome.items) if (item.changed) runs[item.id] = await installedRuns(item.installPath, item.id);
  return { ...outcome, runs };
}

export async function runUninstall(context: PluginCommandContext, spec: string, options: { scope?: InstallScope; keepData?: boolean }): Promise<StateOutcome> {
  return uninstallPlugin(await installPorts(portsInput(context)), spec, options);
}

export async function runEnable(context: PluginCommandContext, spec: string, scope?: InstallScope): Promise<StateOutcome> {
  return enablePlugin(await installPorts(portsInput(context)), spec, scope);
}

export async function runDisable(context: PluginCommandContext, spec: string | undefined, options: { scope?: InstallScope; all?: boolean }): Promise<StateOutcome> {
  return disablePlugin(await installPorts(portsInput(context)), spec, options);
}

export type UpdateOutcome = (InstallOutcome & { refreshNote?: string }) | { ok: false; code: string; error: string };

/** Refreshes the plugin's marketplace first (a failed refresh is reported, the cached copy used). */
export async function runUpdate(context: PluginCommandContext, spec: string, scope?: InstallScope): Promise<UpdateOutcome> {
  const { data } = readInstalled(context.env.pluginsDir);
  let id: string;
  let record: StoredInstallRecord | undefined;
  try {
    id = resolveInstalledId(data, spec, context.projectDir);
    const records = recordsFor(data, id, context.projectDir);
    record = scope === undefined ? records[0] : records.find((item) => item.scope === scope);
    if (!record) throw new InstallFailure("not-installed-at-scope", `Plugin ${id} is not installed at ${scope} scope.`);
  } catch (error) {
    return { ok: false, code: error instanceof InstallFailure ? error.code : "failed", error: error instanceof Error ? error.message : String(error) };
  }
  let refreshNote: string | undefined;
  const { updateMarketplace } = await import("../plugins/marketplaces/update.ts");
  const refreshed = await updateMarketplace(splitPluginId(id).marketplace, marketplaceContext(portsInput(context)));
  if (!refreshed.ok) refreshNote = `marketplace not refreshed: ${refreshed.error}`;
  const outcome = await updatePlugin(await installPorts(portsInput(context)), record, id);
  return refreshNote === undefined ? outcome : { ...outcome, refreshNote };
}

export interface ListedPlugin {
  id: string;
  name: string;
  marketplace: string;
  version: string;
  scope: InstallScope;
  projectPath?: string;
  enabled: boolean;
  installPath: string;
  installedAt: string;
  lastUpdated: string;
  gitCommitSha?: string;
  contentHash: string;
  errors: string[];
}

export interface AvailablePlugin {
  pluginId: string;
  name: string;
  marketplaceName: string;
  description?: string;
  version?: string;
  source: unknown;
  installed: boolean;
}

export interface PluginListing {
  installed: ListedPlugin[];
  available?: AvailablePlugin[];
  /** installed_plugins.json or marketplace problems. */
  problems: string[];
}

export async function listPlugins(context: PluginCommandContext, options: { available?: boolean }): Promise<PluginListing> {
  const ports = await installPorts(portsInput(context));
  const { data, problems } = readInstalled(context.env.pluginsDir);
  const merged = ports.enabledMerged();
  const installed: ListedPlugin[] = [];
  for (const id of Object.keys(data.plugins).sort()) {
    for (const record of recordsFor(data, id, context.projectDir)) {
      const verdict = verifyInstall(record);
      installed.push({
        id, name: splitPluginId(id).name, marketplace: record.marketplace, version: record.version, scope: record.scope,
        ...(record.projectPath === undefined ? {} : { projectPath: record.projectPath }),
        enabled: merged[id] === true, installPath: record.installPath, installedAt: record.installedAt, lastUpdated: record.lastUpdated,
        ...(record.gitCommitSha === undefined ? {} : { gitCommitSha: record.gitCommitSha }),
        contentHash: record.contentHash,
        errors: verdict.ok ? [] : [`${verdict.reason}; reinstall with \`clew plugin install ${id}${record.scope === "user" ? "" : ` -s ${record.scope}`}\``],
      });
    }
  }
  for (const [id, on] of Object.entries(merged)) {
    if (on === true && !installed.some((item) => item.id.toLowerCase() === id.toLowerCase())) problems.push(`${id} is enabled in settings but not installed; run \`clew plugin install ${id}\``);
  }
  if (!options.available) return { installed, problems };
  const available: AvailablePlugin[] = [];
  for (const name of ports.marketplaceNames()) {
    const read = await ports.catalog(name);
    if (!read.ok) {
      problems.push(read.error);
      continue;
    }
    for (const entry of read.catalog.file.entries) {
      const pluginId = `${entry.name}@${name}`;
      available.push({
        pluginId, name: entry.name, marketplaceName: name,
        ...(entry.description === undefined ? {} : { description: entry.description }),
        ...(entry.version === undefined ? {} : { version: entry.version }),
        source: entry.source, installed: pluginId in data.plugins,
      });
    }
  }
  return { installed, available, problems };
}
