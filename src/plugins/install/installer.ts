/**
 * Installing and updating: find the entry in its marketplace, fetch its source, copy the tree
 * into the content-addressed cache, record the install, create its data folder, enable it at
 * the scope, and do the same for its dependencies (plugins.md §9, §10). Update is the same path
 * on an existing record: a tree whose hash did not change re-uses its cache entry and is a no-op.
 */
import { mkdirSync } from "node:fs";
import type { InstallScope, MarketplaceEntry } from "../types.ts";
import { pluginDataDir, putInCache, removeCacheEntry } from "./cache.ts";
import { crossMarketplaceAllowList, parseDependencies, satisfiesRange } from "./dependencies.ts";
import type { CatalogInfo, InstallPorts } from "./ports.ts";
import { findRecord, installPathInUse, putRecord, readInstalled, recordsFor, writeInstalled, type InstalledPlugins, type StoredInstallRecord } from "./records.ts";
import { resolveVersion } from "./version.ts";

export interface InstalledItem {
  id: string;
  scope: InstallScope;
  version: string;
  commit?: string;
  contentHash: string;
  installPath: string;
  /** False when the tree is the one already installed (update no-op). */
  changed: boolean;
  /** Set for plugins installed because another depends on them. */
  dependencyOf?: string;
  /** Links left out of the copy (§10.3), as sentences. */
  notes: string[];
}

export type InstallOutcome =
  | { ok: true; items: InstalledItem[]; warnings: string[]; settingsFile?: string }
  | { ok: false; code: string; error: string };

export class InstallFailure extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
    this.name = "InstallFailure";
  }
}

interface Located {
  catalog: CatalogInfo;
  entry: MarketplaceEntry;
  id: string;
}

export function splitPluginId(spec: string): { name: string; marketplace?: string } {
  const at = spec.lastIndexOf("@");
  return at > 0 ? { name: spec.slice(0, at), marketplace: spec.slice(at + 1) } : { name: spec };
}

function entryNamed(catalog: CatalogInfo, name: string): MarketplaceEntry | undefined {
  const lower = name.toLowerCase();
  const renamed = catalog.file.renames[name];
  return catalog.file.entries.find((entry) => entry.name.toLowerCase() === lower) ?? (renamed === undefined ? undefined : catalog.file.entries.find((entry) => entry.name === renamed));
}

export async function locatePlugin(ports: InstallPorts, spec: string): Promise<Located> {
  const { name, marketplace } = splitPluginId(spec);
  const names = marketplace === undefined ? ports.marketplaceNames() : [marketplace];
  if (names.length === 0) throw new InstallFailure("no-marketplaces", `No marketplace is known, so "${name}" cannot be found. Add one with \`clew plugin marketplace add <source>\`.`);
  const found: Located[] = [];
  for (const market of names) {
    const read = await ports.catalog(market);
    if (!read.ok) {
      if (marketplace !== undefined) throw new InstallFailure("marketplace-not-found", read.error);
      continue;
    }
    const entry = entryNamed(read.catalog, name);
    if (entry) found.push({ catalog: read.catalog, entry, id: `${entry.name}@${read.catalog.name}` });
  }
  if (found.length === 1 && found[0]) return found[0];
  if (found.length > 1) {
    throw new InstallFailure("ambiguous-plugin", `Plugin "${name}" is offered by several marketplaces: ${found.map((item) => item.id).join(", ")}. Name one, e.g. \`clew plugin install ${found[0]?.id}\`.`);
  }
  const where = marketplace === undefined ? `any known marketplace (${names.join(", ")})` : `marketplace ${marketplace}`;
  throw new InstallFailure("plugin-not-found", `Plugin "${name}" was not found in ${where}. \`clew plugin list --json --available\` shows what is offered.`);
}

interface Session {
  ports: InstallPorts;
  scope: InstallScope;
  data: InstalledPlugins;
  items: InstalledItem[];
  warnings: string[];
  /** Ids on the current dependency path, to stop at cycles. */
  path: string[];
}

function projectPathFor(ports: InstallPorts, scope: InstallScope): string | undefined {
  return scope === "user" ? undefined : ports.projectDir;
}

async function installLocated(session: Session, located: Located, dependencyOf?: string): Promise<InstalledItem> {
  const { ports, scope, data } = session;
  const { catalog, entry, id } = located;
  if (entry.source.kind === "unknown") {
    throw new InstallFailure("unsupported-source", `Plugin ${id} uses a source type this version of clew does not support; update clew and try again.`);
  }
  const fetched = await ports.fetch(entry, catalog);
  if ("error" in fetched) throw new InstallFailure("fetch-failed", `Plugin ${id} could not be fetched: ${fetched.error}`);
  let cached: ReturnType<typeof putInCache>;
  let description: ReturnType<InstallPorts["describe"]>;
  try {
    description = ports.describe(fetched.dir, entry, catalog);
    cached = putInCache({ pluginsDir: ports.pluginsDir, marketplace: catalog.name, plugin: entry.name, from: fetched.dir, ...(fetched.marketplaceRoot ? { marketplaceRoot: fetched.marketplaceRoot } : {}) });
  } finally {
    fetched.cleanup?.();
  }
  const projectPath = projectPathFor(ports, scope);
  const previous = findRecord(data, id, scope, projectPath);
  const now = ports.now().toISOString();
  const version = resolveVersion({ manifestVersion: description.version, entryVersion: entry.version, commit: fetched.commit });
  const record: StoredInstallRecord = {
    scope,
    ...(projectPath === undefined ? {} : { projectPath }),
    installPath: cached.dir,
    version,
    installedAt: previous?.installedAt ?? now,
    lastUpdated: previous !== undefined && previous.contentHash === cached.contentHash ? previous.lastUpdated : now,
    ...(fetched.commit === undefined ? {} : { gitCommitSha: fetched.commit }),
    contentHash: cached.contentHash,
    listingStamp: cached.listingStamp,
    source: entry.source,
    resolvedSource: fetched.resolved,
    marketplace: catalog.name,
    ...(description.dependencies.length > 0 ? { dependencies: description.dependencies } : {}),
    ...(dependencyOf !== undefined || previous?.dependencyOf ? { dependencyOf: [...new Set([...(previous?.dependencyOf ?? []), ...(dependencyOf ? [dependencyOf] : [])])] } : {}),
  };
  putRecord(data, id, record);
  if (previous && previous.installPath !== cached.dir && !installPathInUse(data, previous.installPath)) {
    removeCacheEntry(ports.pluginsDir, catalog.name, entry.name, previous.installPath);
  }
  mkdirSync(pluginDataDir(ports.pluginsDir, id), { recursive: true });
  const item: InstalledItem = {
    id, scope, version, contentHash: cached.contentHash, installPath: cached.dir,
    changed: previous?.contentHash !== cached.contentHash,
    notes: cached.skipped.map((link) => `${link.path} was left out: ${link.reason} (${link.target})`),
    ...(fetched.commit === undefined ? {} : { commit: fetched.commit }),
    ...(dependencyOf === undefined ? {} : { dependencyOf }),
  };
  session.items.push(item);
  await installDependencies(session, id, description.dependencies, catalog);
  return item;
}

async function installDependencies(session: Session, id: string, raw: readonly unknown[], catalog: CatalogInfo): Promise<void> {
  if (raw.length === 0) return;
  const parsed = parseDependencies(raw, catalog.name, crossMarketplaceAllowList(catalog.file.raw));
  if (!parsed.ok) throw new InstallFailure("dependency-unsatisfied", `Plugin ${id}: ${parsed.error}.`);
  session.path.push(id);
  try {
    for (const dependency of parsed.dependencies) {
      if (session.path.includes(dependency.id)) continue;
      let version = recordsFor(session.data, dependency.id, session.ports.projectDir)[0]?.version;
      if (version === undefined) {
        const located = await locatePlugin(session.ports, dependency.id).catch((error: unknown) => {
          throw new InstallFailure("dependency-unsatisfied", `Plugin ${id} depends on ${dependency.id}, which cannot be installed: ${error instanceof Error ? error.message : String(error)}`);
        });
        version = (await installLocated(session, located, id)).version;
      }
      if (!satisfiesRange(version, dependency.range)) {
        session.warnings.push(`dependency-version-unsatisfied: ${id} asks for ${dependency.id} ${dependency.range}, but version ${version} is installed; ${id} may not work until they agree.`);
      }
      session.ports.setEnabled(session.scope, dependency.id, true);
    }
  } finally {
    session.path.pop();
  }
}

function failure(error: unknown): InstallOutcome {
  if (error instanceof InstallFailure) return { ok: false, code: error.code, error: error.message };
  return { ok: false, code: "install-failed", error: error instanceof Error ? error.message : String(error) };
}

export async function installPlugin(ports: InstallPorts, spec: string, scope: InstallScope): Promise<InstallOutcome> {
  const { data } = readInstalled(ports.pluginsDir);
  const session: Session = { ports, scope, data, items: [], warnings: [], path: [] };
  try {
    const located = await locatePlugin(ports, spec);
    await installLocated(session, located);
    writeInstalled(ports.pluginsDir, data);
    const settingsFile = ports.setEnabled(scope, located.id, true);
    return { ok: true, items: session.items, warnings: session.warnings, settingsFile };
  } catch (error) {
    // Cache entries already copied stay (content-addressed, re-used next time); no record was written.
    return failure(error);
  }
}

/** Re-fetches an installed plugin at the scope it was installed at; no-op when the tree is unchanged. */
export async function updatePlugin(ports: InstallPorts, record: StoredInstallRecord, id: string): Promise<InstallOutcome> {
  const { data } = readInstalled(ports.pluginsDir);
  const session: Session = { ports, scope: record.scope, data, items: [], warnings: [], path: [] };
  try {
    const located = await locatePlugin(ports, id);
    await installLocated(session, located, record.dependencyOf?.[0]);
    writeInstalled(ports.pluginsDir, data);
    return { ok: true, items: session.items, warnings: session.warnings };
  } catch (error) {
    return failure(error);
  }
}
