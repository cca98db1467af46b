/**
 * The session's plugins: every enabled, installed plugin (and each `--plugin-dir`) turned into
 * what the other layers already understand — a component source for the extensions registry,
 * hook sources for the hook engine, MCP server definitions, a `bin/` folder for the Bash tool's
 * PATH. Plugins add sources, never code paths. A session that enables none loads none of this.
 *
 * Loading 600 installed plugins must stay cheap: what they contribute is kept in one record
 * (plugin-snapshot.ts), written after every folder in it was checked against its hash. A warm
 * start reads that record; each folder is checked again when something of it is first read or
 * run (PluginIntegrity), and the rest once the first request went out.
 */
import { join, resolve } from "node:path";
import type { ComponentSource } from "../extensions/types.ts";
import { pluginSource } from "../extensions/sources.ts";
import type { DeferredHooks } from "./hooks-setup.ts";
import type { McpServerEntry } from "../mcp/types.ts";
import type { CheckedPlugin, PluginIntegrity } from "../plugins/install/integrity.ts";
import type { LoadedPlugin, MarketplaceEntry, PluginProblem } from "../plugins/types.ts";
import type { Environment } from "../settings/paths.ts";
import type { LoadedSettings } from "../settings/types.ts";
import { dropSnapshot, readSnapshot, snapshotPath, writeSnapshot, type CheckedServer, type PluginSnapshot } from "./plugin-snapshot.ts";

export interface SessionPlugins {
  /** `name@marketplace` of every plugin that loaded, for stream-json `system/init.plugins`. */
  ids: Array<{ name: string; path: string; id: string }>;
  sources: ComponentSource[];
  /** The plugins' hooks, compiled by the hook layer once one of their events matters. */
  hooks: DeferredHooks;
  mcpServers: McpServerEntry[];
  binDirs: string[];
  /** One line per problem (errors and warnings), for start-up reporting. */
  problems: string[];
  /**
   * Checks the installed plugins not checked yet (call once the first request went out); a plugin
   * whose folder changed since install is refused from then on and named through `report`.
   */
  checkRest: () => Promise<void>;
  /** Whether the plugin at `root` may be read and run now (hooks and MCP servers ask first). */
  admits: (root: string) => boolean;
}

export interface PluginsInput {
  env: Environment;
  loaded: LoadedSettings;
  /** `--plugin-dir` folders, used in place for this session. */
  pluginDirs: readonly string[];
  /** Hears of a plugin refused after start-up (its folder changed since install). */
  report?: (line: string) => void;
}

export function enabledIds(loaded: LoadedSettings): string[] {
  const enabled = loaded.settings.enabledPlugins;
  return Object.entries(enabled).flatMap(([id, on]) => (on === true ? [id] : []));
}

function formatPluginProblem(problem: PluginProblem, homeDir: string): string {
  const where = `${problem.file.replace(homeDir, "~")}${problem.line ? `:${problem.line}` : ""}${problem.field ? ` (${problem.field})` : ""}`;
  return `clew: ${where}: ${problem.message}`;
}

/** Checks a plugin's server definitions (the MCP config layer's rules); done once per install. */
async function checkServers(plugin: LoadedPlugin, homeDir: string): Promise<CheckedServer[]> {
  const servers = Object.entries(plugin.mcpServers);
  if (servers.length === 0) return [];
  const { parseEntry, definitionHash, formatMcpProblem } = await import("./mcp-config.ts");
  return servers.map(([name, { file, config }]) => {
    const parsed = parseEntry({ file, base: "mcpServers" }, name, config);
    return { name, file, ...(parsed.config ? { config: parsed.config } : {}), hash: definitionHash(config), problems: parsed.problems.map((problem) => `clew: ${formatMcpProblem(problem, homeDir).replace(/^clew: /, "")}`) };
  });
}

/** Each known marketplace's entries, read on first need (a cold index only). */
async function marketplaceEntries(pluginsDir: string): Promise<(marketplace: string, name: string) => { entry: MarketplaceEntry; root: string } | undefined> {
  const [{ readKnownMarketplaces }, { readMarketplace }] = await Promise.all([import("../plugins/marketplaces/state.ts"), import("../plugins/marketplace-file.ts")]);
  let known: Awaited<ReturnType<typeof readKnownMarketplaces>>["marketplaces"] = {};
  try {
    known = (await readKnownMarketplaces(pluginsDir)).marketplaces;
  } catch {
    // Unreadable state: plugins load from their own manifests.
  }
  const files = new Map<string, ReturnType<typeof readMarketplace>["marketplace"]>();
  return (marketplace, name) => {
    const location = known[marketplace]?.installLocation;
    if (!location) return undefined;
    if (!files.has(marketplace)) files.set(marketplace, readMarketplace(location).marketplace);
    const file = files.get(marketplace);
    const entry = file?.entries.find((candidate) => candidate.name.toLowerCase() === name.toLowerCase());
    return entry && file ? { entry, root: file.root } : undefined;
  };
}


/** Enabled plugins that have no install record here, from the stored record when it holds (team rollout). */
export function notInstalledFromSnapshot(env: Environment, loaded: LoadedSettings): string[] | undefined {
  const ids = enabledIds(loaded);
  return ids.length === 0 ? [] : readSnapshot(snapshotPath(env, ids))?.notInstalled;
}

/** What one plugin adds to the record: its source, hooks, checked servers, `bin/`, errors. */
async function addPlugin(snapshot: PluginSnapshot, plugin: LoadedPlugin, dataDir: string, immutable: boolean, homeDir: string): Promise<void> {
  for (const problem of plugin.problems) if (problem.level === "error") snapshot.lines.push(formatPluginProblem(problem, homeDir));
  // A plugin that cannot load (unreadable manifest, conflicting manifests) is skipped alone.
  if (plugin.invalid) return;
  snapshot.ids.push({ name: plugin.name, path: plugin.root, id: plugin.id });
  snapshot.sources.push(
    pluginSource({
      root: plugin.root,
      name: plugin.name,
      skills: plugin.components.skills,
      skillsReplaceDefault: plugin.components.skillsReplaceDefault,
      commands: plugin.components.commands,
      agents: plugin.components.agents,
      dataDir,
      immutable,
    }),
  );
  for (const hooks of plugin.hooks) {
    snapshot.hookSources.push({ origin: { kind: "plugin", plugin: plugin.id, root: plugin.root, dataDir, file: hooks.file, sharedProject: false }, hooks: hooks.hooks, keyPath: "hooks" });
  }
  for (const server of await checkServers(plugin, homeDir)) {
    snapshot.lines.push(...server.problems);
    snapshot.servers.push({ plugin: plugin.name, root: plugin.root, dataDir, server });
  }
  if (plugin.binDir) snapshot.bins.push({ dir: plugin.binDir, root: plugin.root });
}

function emptySnapshot(): PluginSnapshot {
  return { ids: [], lines: [], sources: [], hookSources: [], hookEvents: [], hookLines: [], servers: [], bins: [], checks: [], notInstalled: [] };
}

/** Loads the plugins from their folders, checking each installed one first (a cold start). */
async function loadFromFolders(input: PluginsInput, ids: readonly string[], integrityOf: (checks: CheckedPlugin[]) => PluginIntegrity): Promise<{ snapshot: PluginSnapshot; complete: boolean; integrity: PluginIntegrity }> {
  const { env } = input;
  const { resolveEnabledPlugins } = await import("../plugins/install/enabled.ts");
  const loadPlugin = (await import("../plugins/load.ts")).loadPlugin;
  const snapshot = emptySnapshot();
  // `--plugin-dir` first: a session-only plugin overrides an installed one of the same name.
  const inline = new Set<string>();
  for (const dir of input.pluginDirs) {
    const plugin = loadPlugin({ root: resolve(env.cwd, dir), marketplace: "inline" });
    inline.add(plugin.name);
    await addPlugin(snapshot, plugin, join(env.pluginsDir, "data", `${plugin.name}-inline`), false, env.homeDir);
  }
  const roots = ids.length === 0 ? [] : resolveEnabledPlugins({ enabledPlugins: input.loaded.settings.enabledPlugins, pluginsDir: env.pluginsDir, projectDir: env.cwd });
  for (const root of roots) {
    if (root.problem?.code === "plugin-not-installed") snapshot.notInstalled.push(root.id);
    // Not installed: the team-rollout notice names every missing plugin in one line, with `clew plugin sync`.
    else if (root.problem) snapshot.lines.push(formatPluginProblem(root.problem, env.homeDir));
  }
  const candidates = roots.filter((root) => root.record !== undefined && !root.problem && !inline.has(root.name));
  snapshot.checks = candidates.flatMap(({ id, record }) => (record ? [{ id, record: { installPath: record.installPath, contentHash: record.contentHash, scope: record.scope, ...(record.listingStamp ? { listingStamp: record.listingStamp } : {}) } }] : []));
  const integrity = integrityOf(snapshot.checks);
  const usable = candidates.filter((root) => {
    const problem = integrity.problem(root.root);
    if (problem) snapshot.lines.push(formatPluginProblem(problem, env.homeDir));
    return problem === undefined;
  });
  integrity.saveStamps();
  const entryOf = usable.length > 0 ? await marketplaceEntries(env.pluginsDir) : () => undefined;
  for (const root of usable) {
    // A `strict: false` entry is the plugin's manifest: the install copied the files, not the entry.
    const found = entryOf(root.marketplace, root.name);
    const plugin = loadPlugin({ root: root.root, name: root.name, marketplace: root.marketplace, ...(found ? { entry: found.entry, marketplaceRoot: found.root } : {}) });
    await addPlugin(snapshot, plugin, root.dataDir, true, env.homeDir);
  }
  if (snapshot.hookSources.length > 0) {
    const described = await (await import("./hooks-setup.ts")).describeHooks(snapshot.hookSources, env.cwd);
    snapshot.hookEvents = [...described.events];
    snapshot.hookLines = [...described.lines];
  }
  return { snapshot, complete: usable.length === candidates.length && input.pluginDirs.length === 0, integrity };
}

/** `${CLAUDE_PLUGIN_ROOT}`, `${CLAUDE_PLUGIN_DATA}`, `${CLAUDE_PROJECT_DIR}` and the environment. */
async function expandServers(snapshot: PluginSnapshot, env: Environment): Promise<McpServerEntry[]> {
  if (snapshot.servers.length === 0) return [];
  const { expandConfig } = await import("../mcp/config/expand.ts");
  const out: McpServerEntry[] = [];
  // One copy of the environment for every server (a null prototype: `${constructor}` stays unset).
  const base: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>, env.childEnv, { CLAUDE_PROJECT_DIR: env.cwd });
  for (const { plugin, root, dataDir, server } of snapshot.servers) {
    // Whether the plugin may run is asked when the server starts (McpRuntimeOptions.admit).
    if (!server.config) continue;
    const vars: Record<string, string> = Object.assign(Object.create(base) as Record<string, string>, { CLAUDE_PLUGIN_ROOT: root, CLAUDE_PLUGIN_DATA: dataDir });
    const expanded = expandConfig(server.config, vars);
    // Claude Code's naming: the server is `plugin_<plugin>_<server>`, its tools `mcp__plugin_<plugin>_<server>__<tool>`.
    out.push({ name: `plugin_${plugin}_${server.name}`, scope: "plugin", origin: server.file, config: expanded.config, missingVars: expanded.missing, hash: server.hash, pluginRoot: root });
  }
  return out;
}

export async function loadSessionPlugins(input: PluginsInput): Promise<SessionPlugins | undefined> {
  const { env } = input;
  const ids = enabledIds(input.loaded);
  if (ids.length === 0 && input.pluginDirs.length === 0) return undefined;
  const { PluginIntegrity } = await import("../plugins/install/integrity.ts");
  const path = snapshotPath(env, ids);
  let started = false;
  const integrityOf = (checks: CheckedPlugin[]) =>
    new PluginIntegrity(env.pluginsDir, checks, (problem) => {
      if (!started) return;
      input.report?.(formatPluginProblem(problem, env.homeDir));
      dropSnapshot(path);
    });
  const stored = input.pluginDirs.length === 0 ? readSnapshot(path) : undefined;
  let snapshot: PluginSnapshot;
  let integrity: PluginIntegrity;
  const lines: string[] = [];
  if (stored) {
    snapshot = stored;
    integrity = integrityOf(snapshot.checks);
    // A `bin/` folder is on the Bash tool's PATH from the start, so its plugin is checked now.
    for (const bin of snapshot.bins) {
      const problem = integrity.problem(bin.root);
      if (problem) lines.push(formatPluginProblem(problem, env.homeDir));
    }
  } else {
    const loaded = await loadFromFolders(input, ids, integrityOf);
    ({ snapshot, integrity } = loaded);
    if (loaded.complete) writeSnapshot(path, snapshot);
  }
  started = true;
  const admits = (root: string) => integrity.admits(root);
  const guard = (root: string) => () => integrity.problem(root)?.message;
  for (const source of snapshot.sources) source.guard = guard(source.root);
  return {
    ids: snapshot.ids,
    sources: snapshot.sources,
    hooks: { sources: snapshot.hookSources, events: snapshot.hookEvents, lines: snapshot.hookLines },
    mcpServers: await expandServers(snapshot, env),
    binDirs: snapshot.bins.filter((bin) => admits(bin.root)).map((bin) => bin.dir),
    problems: [...snapshot.lines, ...lines],
    checkRest: async () => void (await integrity.checkRest()),
    admits,
  };
}
