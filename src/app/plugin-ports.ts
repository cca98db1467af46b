/**
 * The real ports of the install logic (plugins/install/ports.ts): known marketplaces and their
 * catalogues from the marketplaces layer, plugin sources fetched through it, manifests read from
 * the fetched tree, and `enabledPlugins` read from and written to the settings files.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { CatalogInfo, CatalogRead, FetchResult, InstallPorts, PluginDescription } from "../plugins/install/ports.ts";
import { readMarketplace } from "../plugins/marketplace-file.ts";
import { headCommit } from "../plugins/git/clone.ts";
import { gitContext, type MarketplaceContext } from "../plugins/marketplaces/manager.ts";
import { cloneUrlOf, type MarketplaceSource } from "../plugins/marketplaces/sources.ts";
import { readKnownMarketplaces, type KnownMarketplaces } from "../plugins/marketplaces/state.ts";
import type { InstallScope, MarketplaceEntry } from "../plugins/types.ts";
import { loadSettings } from "../settings/load.ts";
import type { Environment } from "../settings/paths.ts";
import { readSettingsValue, removeSettingsValue, setSettingsValue, settingsFileFor } from "../settings/settings-writer.ts";

export interface PortsInput {
  env: Environment;
  projectDir: string;
  now?: () => Date;
}

export function marketplaceContext(input: PortsInput): MarketplaceContext {
  return {
    pluginsDir: input.env.pluginsDir,
    cwd: input.projectDir,
    homeDir: input.env.homeDir,
    env: input.env.childEnv,
    ...(input.env.githubToken === undefined ? {} : { githubToken: input.env.githubToken }),
    ...(input.now ? { now: input.now } : {}),
  };
}

function readJsonObject(file: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(readFileSync(file, "utf8"));
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The manifest that applies: the entry itself for `strict: false`, else plugin.json (version from it, else the entry's). */
export function describeFetched(root: string, entry: MarketplaceEntry): PluginDescription {
  const manifest = entry.strict === false ? entry.raw : readJsonObject(join(root, ".claude-plugin", "plugin.json"));
  const fromManifest = typeof manifest?.version === "string" ? manifest.version : undefined;
  const dependencies = Array.isArray(manifest?.dependencies) ? manifest.dependencies : Array.isArray(entry.raw.dependencies) ? entry.raw.dependencies : [];
  return { ...(fromManifest === undefined ? {} : { version: fromManifest }), dependencies };
}

async function fetchRelative(entry: MarketplaceEntry & { source: { kind: "relative" } }, catalog: CatalogInfo): Promise<FetchResult> {
  const dir = join(catalog.root, entry.source.path);
  if (!existsSync(dir)) return { error: `its folder ${entry.source.path} is not in the marketplace copy at ${catalog.root}` };
  const source = catalog.source as MarketplaceSource | undefined;
  const url = source === undefined ? undefined : cloneUrlOf(source);
  const resolved =
    url !== undefined && catalog.commit !== undefined
      ? { kind: "git-subdir" as const, url, path: entry.source.path, sha: catalog.commit }
      : { kind: "relative" as const, path: entry.source.path };
  return { dir, resolved, marketplaceRoot: catalog.root, ...(catalog.commit === undefined ? {} : { commit: catalog.commit }) };
}

async function fetchRemote(entry: MarketplaceEntry, catalog: CatalogInfo, input: PortsInput): Promise<FetchResult> {
  try {
    const module = await import("../plugins/marketplaces/fetch-source.ts");
    const fetched = await module.fetchPluginSource(entry.source, { ...gitContext(marketplaceContext(input)), marketplaceRoot: catalog.root, pluginsDir: input.env.pluginsDir });
    if ("error" in fetched) return { error: fetched.error };
    const source = entry.source;
    const resolved = fetched.commit !== undefined && (source.kind === "github" || source.kind === "url" || source.kind === "git-subdir") ? { ...source, sha: fetched.commit } : source;
    // A subfolder of a repository: the rest of the checkout is "the marketplace" for the symlink rules.
    const subpath = source.kind === "git-subdir" || (source.kind === "url" && source.path) ? (source.path ?? "").replace(/^\.\//, "").replace(/\/+$/, "") : "";
    const marketplaceRoot = subpath !== "" && fetched.dir.endsWith(`/${subpath}`) ? fetched.dir.slice(0, -subpath.length - 1) : undefined;
    return { dir: fetched.dir, resolved, ...(marketplaceRoot ? { marketplaceRoot } : {}), ...(fetched.commit === undefined ? {} : { commit: fetched.commit }) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

export async function installPorts(input: PortsInput): Promise<InstallPorts & { known: KnownMarketplaces }> {
  const { env, projectDir } = input;
  const state = await readKnownMarketplaces(env.pluginsDir);
  const known = state.marketplaces;
  const git = gitContext(marketplaceContext(input));
  const fileFor = (scope: InstallScope) => settingsFileFor(scope, env.configDir, projectDir);
  const enabledAt = (scope: InstallScope): Record<string, unknown> => {
    const value = readSettingsValue(fileFor(scope), ["enabledPlugins"]);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  };
  return {
    known,
    pluginsDir: env.pluginsDir,
    projectDir,
    now: input.now ?? (() => new Date()),
    marketplaceNames: () => Object.keys(known).sort(),
    async catalog(name): Promise<CatalogRead> {
      const record = known[name];
      if (!record) {
        const names = Object.keys(known);
        return { ok: false, error: `Marketplace "${name}" is not known${names.length ? ` (known: ${names.join(", ")})` : ""}; add it with \`clew plugin marketplace add <source>\`.` };
      }
      const read = readMarketplace(record.installLocation);
      if (!read.marketplace) return { ok: false, error: read.problems.map((problem) => problem.message).join("; ") || `marketplace ${name} cannot be read` };
      let commit = record.commit;
      if (commit === undefined && existsSync(join(record.installLocation, ".git"))) commit = await headCommit(record.installLocation, git).catch(() => undefined);
      return { ok: true, catalog: { name, file: read.marketplace, root: record.installLocation, source: record.source, ...(commit === undefined ? {} : { commit }) } };
    },
    fetch: async (entry, catalog) => (entry.source.kind === "relative" ? fetchRelative(entry as MarketplaceEntry & { source: { kind: "relative" } }, catalog) : fetchRemote(entry, catalog, input)),
    describe: (root, entry) => describeFetched(root, entry),
    enabledAt,
    enabledMerged: () => {
      const loaded = loadSettings({ startDir: projectDir, configDir: env.configDir, managedDirs: env.managedSettingsDirs, homeDir: env.homeDir, keepDenyOnError: true });
      return { ...loaded.settings.enabledPlugins };
    },
    setEnabled(scope, id, value) {
      const file = fileFor(scope);
      if (value === undefined) removeSettingsValue(file, ["enabledPlugins", id]);
      else setSettingsValue(file, ["enabledPlugins", id], value);
      return file;
    },
  };
}
