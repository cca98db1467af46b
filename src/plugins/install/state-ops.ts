/**
 * Uninstall, enable and disable (plugins.md §9, §11, §13). Uninstall removes the record, the
 * cache entry no other install uses, the `enabledPlugins` key at that scope and (unless
 * `keepData`) the data folder once no install of the plugin is left. Enable turns dependencies on
 * too; disable refuses while an enabled plugin depends on the one being turned off.
 */
import { rmSync } from "node:fs";
import type { InstallScope } from "../types.ts";
import { pluginDataDir, removeCacheEntry } from "./cache.ts";
import { parseDependencies } from "./dependencies.ts";
import { InstallFailure, splitPluginId } from "./installer.ts";
import type { InstallPorts } from "./ports.ts";
import { dropRecord, installPathInUse, readInstalled, recordsFor, writeInstalled, type InstalledPlugins, type StoredInstallRecord } from "./records.ts";

export type StateOutcome = { ok: true; messages: string[] } | { ok: false; code: string; error: string };

/** The stored id for a name as typed: exact, case-insensitive, or a bare name with one match. */
export function resolveInstalledId(data: InstalledPlugins, spec: string, projectDir: string): string {
  const { name, marketplace } = splitPluginId(spec);
  const ids = Object.keys(data.plugins).filter((id) => recordsFor(data, id, projectDir).length > 0);
  const lower = spec.toLowerCase();
  const exact = ids.find((id) => id.toLowerCase() === lower);
  if (exact) return exact;
  if (marketplace === undefined) {
    const matches = ids.filter((id) => splitPluginId(id).name.toLowerCase() === name.toLowerCase());
    if (matches.length === 1 && matches[0]) return matches[0];
    if (matches.length > 1) throw new InstallFailure("ambiguous-plugin", `"${name}" is installed from several marketplaces: ${matches.join(", ")}. Name one.`);
  }
  throw new InstallFailure("plugin-not-installed", `Plugin ${spec} is not installed here. \`clew plugin list\` shows what is; install it with \`clew plugin install ${spec}\`.`);
}

/** The record a command without `-s` means: the only install applying here, else the strongest. */
function pickRecord(records: StoredInstallRecord[], id: string, scope: InstallScope | undefined): StoredInstallRecord {
  if (scope !== undefined) {
    const found = records.find((record) => record.scope === scope);
    if (found) return found;
    const elsewhere = records.map((record) => record.scope).join(", ");
    throw new InstallFailure("not-installed-at-scope", `Plugin ${id} is not installed at ${scope} scope${elsewhere ? ` (it is at: ${elsewhere}; use -s ${records[0]?.scope})` : ""}.`);
  }
  const order: InstallScope[] = ["local", "project", "user"];
  const sorted = [...records].sort((a, b) => order.indexOf(a.scope) - order.indexOf(b.scope));
  const first = sorted[0];
  if (!first) throw new InstallFailure("plugin-not-installed", `Plugin ${id} is not installed here.`);
  return first;
}

function failure(error: unknown): StateOutcome {
  if (error instanceof InstallFailure) return { ok: false, code: error.code, error: error.message };
  return { ok: false, code: "failed", error: error instanceof Error ? error.message : String(error) };
}

export function uninstallPlugin(ports: InstallPorts, spec: string, options: { scope?: InstallScope; keepData?: boolean }): StateOutcome {
  try {
    const { data } = readInstalled(ports.pluginsDir);
    const id = resolveInstalledId(data, spec, ports.projectDir);
    const record = pickRecord(recordsFor(data, id, ports.projectDir), id, options.scope);
    dropRecord(data, id, record.scope, record.projectPath);
    writeInstalled(ports.pluginsDir, data);
    const messages = [`✔ Successfully uninstalled plugin: ${id} (scope: ${record.scope})`];
    if (!installPathInUse(data, record.installPath)) removeCacheEntry(ports.pluginsDir, record.marketplace, splitPluginId(id).name, record.installPath);
    const file = ports.setEnabled(record.scope, id, undefined);
    messages.push(`Removed ${id} from enabledPlugins in ${file}`);
    const left = data.plugins[id] ?? [];
    if (left.length === 0 && !options.keepData) rmSync(pluginDataDir(ports.pluginsDir, id), { recursive: true, force: true });
    else if (left.length === 0) messages.push(`Kept its data folder ${pluginDataDir(ports.pluginsDir, id)} (--keep-data).`);
    if (ports.enabledMerged()[id] === true) messages.push(`Note: ${id} is still enabled by another settings file; clew will report it as not installed until that entry is removed.`);
    return { ok: true, messages };
  } catch (error) {
    return failure(error);
  }
}

function dependenciesOf(ports: InstallPorts, data: InstalledPlugins, id: string): string[] {
  const record = recordsFor(data, id, ports.projectDir)[0];
  if (!record) return [];
  const raw = record.dependencies;
  if (!raw || raw.length === 0) return [];
  const parsed = parseDependencies(raw, record.marketplace);
  return parsed.ok ? parsed.dependencies.map((dependency) => dependency.id) : [];
}

export function enablePlugin(ports: InstallPorts, spec: string, scope: InstallScope | undefined): StateOutcome {
  try {
    const { data } = readInstalled(ports.pluginsDir);
    const id = resolveInstalledId(data, spec, ports.projectDir);
    const target = scope ?? pickRecord(recordsFor(data, id, ports.projectDir), id, undefined).scope;
    const messages: string[] = [];
    const seen = new Set<string>();
    const visit = (current: string) => {
      if (seen.has(current)) return;
      seen.add(current);
      const file = ports.setEnabled(target, current, true);
      messages.push(current === id ? `✔ Successfully enabled plugin: ${id} (scope: ${target}, ${file})` : `  also enabled its dependency ${current}`);
      for (const dependency of dependenciesOf(ports, data, current)) {
        if (recordsFor(data, dependency, ports.projectDir).length === 0) throw new InstallFailure("dependency-unsatisfied", `Plugin ${current} depends on ${dependency}, which is not installed; run \`clew plugin install ${dependency}\`.`);
        visit(dependency);
      }
    };
    visit(id);
    return { ok: true, messages };
  } catch (error) {
    return failure(error);
  }
}

export function disablePlugin(ports: InstallPorts, spec: string | undefined, options: { scope?: InstallScope; all?: boolean }): StateOutcome {
  try {
    const { data } = readInstalled(ports.pluginsDir);
    const merged = ports.enabledMerged();
    const targets = options.all ? Object.keys(merged).filter((id) => merged[id] === true) : [resolveInstalledId(data, spec ?? "", ports.projectDir)];
    if (!options.all && spec === undefined) throw new InstallFailure("usage", "Name a plugin to disable, or use --all.");
    const messages: string[] = [];
    for (const id of targets) {
      const dependents = options.all ? [] : Object.keys(merged).filter((other) => merged[other] === true && other !== id && dependenciesOf(ports, data, other).includes(id));
      if (dependents.length > 0) {
        const chain = [...dependents, id].map((item) => `clew plugin disable ${item}`).join(" && ");
        throw new InstallFailure("plugin-depended-upon", `Plugin ${id} is needed by ${dependents.join(", ")}, which ${dependents.length === 1 ? "is" : "are"} enabled. Disable ${dependents.length === 1 ? "it" : "them"} first: ${chain}`);
      }
      const records = recordsFor(data, id, ports.projectDir);
      const scope = options.scope ?? (records.length > 0 ? pickRecord(records, id, undefined).scope : "user");
      const file = ports.setEnabled(scope, id, false);
      messages.push(`✔ Successfully disabled plugin: ${id} (scope: ${scope}, ${file})`);
    }
    if (targets.length === 0) messages.push("No plugin is enabled.");
    return { ok: true, messages };
  } catch (error) {
    return failure(error);
  }
}
