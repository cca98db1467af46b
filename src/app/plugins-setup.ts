/**
 * The session's plugins: every enabled, installed plugin (and each `--plugin-dir`) turned into
 * what the other layers already understand — a component source for the extensions registry,
 * hook sources for the hook engine, MCP server definitions, a `bin/` folder for the Bash tool's
 * PATH. Plugins add sources, never code paths. A session that enables none loads none of this.
 *
 * Loading 600 installed plugins must stay cheap: installs live in content-addressed folders that
 * never change, so what their manifests say is kept in one index file keyed by the set of
 * (id, content hash) pairs; a warm start reads that one file.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { ComponentSource } from "../extensions/types.ts";
import { pluginSource } from "../extensions/sources.ts";
import type { HookSource } from "../hooks/types.ts";
import type { McpServerConfig, McpServerEntry } from "../mcp/types.ts";
import type { LoadedPlugin, MarketplaceEntry, PluginProblem } from "../plugins/types.ts";
import type { Environment } from "../settings/paths.ts";
import type { LoadedSettings } from "../settings/types.ts";
import { writeFileAtomicSync } from "../util/atomic-write.ts";

const INDEX_VERSION = 2;

export interface SessionPlugins {
  /** `name@marketplace` of every plugin that loaded, for stream-json `system/init.plugins`. */
  ids: Array<{ name: string; path: string; id: string }>;
  sources: ComponentSource[];
  hookSources: HookSource[];
  mcpServers: McpServerEntry[];
  binDirs: string[];
  /** One line per problem (errors and warnings), for start-up reporting. */
  problems: string[];
}

/** A plugin's MCP servers checked once (zod), kept in the index: a warm start only expands variables. */
interface CheckedServer {
  name: string;
  file: string;
  config?: McpServerConfig;
  hash: string;
  problems: string[];
}

interface IndexedPlugin {
  plugin: LoadedPlugin;
  servers: CheckedServer[];
}

interface PluginAtRoot extends IndexedPlugin {
  dataDir: string;
  immutable: boolean;
}

function enabledIds(loaded: LoadedSettings): string[] {
  const enabled = loaded.settings.enabledPlugins;
  return Object.entries(enabled).flatMap(([id, on]) => (on === true ? [id] : []));
}

function formatPluginProblem(problem: PluginProblem, homeDir: string): string {
  const where = `${problem.file.replace(homeDir, "~")}${problem.line ? `:${problem.line}` : ""}${problem.field ? ` (${problem.field})` : ""}`;
  return `clew: ${where}: ${problem.message}`;
}

/** One index file for a set of immutable installs; damaged or missing: load them and write it again. */
function indexPath(pluginsDir: string, key: string): string {
  return join(pluginsDir, "index", `session-${Bun.hash(key).toString(36)}.json`);
}

function readIndex(path: string): IndexedPlugin[] | undefined {
  try {
    const stored = JSON.parse(readFileSync(path, "utf8")) as { version?: number; plugins?: IndexedPlugin[] };
    return stored.version === INDEX_VERSION && Array.isArray(stored.plugins) ? stored.plugins : undefined;
  } catch {
    return undefined;
  }
}

function writeIndex(path: string, plugins: readonly IndexedPlugin[]): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileAtomicSync(path, JSON.stringify({ version: INDEX_VERSION, plugins }));
  } catch {
    // A read-only plugins folder: every start loads the manifests again.
  }
}

function hookSourcesOf(entry: PluginAtRoot): HookSource[] {
  const { plugin } = entry;
  return plugin.hooks.map((hooks) => ({
    origin: { kind: "plugin" as const, plugin: plugin.id, root: plugin.root, dataDir: entry.dataDir, file: hooks.file, sharedProject: false },
    hooks: hooks.hooks,
    keyPath: "hooks",
  }));
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

/** `${CLAUDE_PLUGIN_ROOT}`, `${CLAUDE_PLUGIN_DATA}`, `${CLAUDE_PROJECT_DIR}` and the environment. */
async function pluginServers(entry: PluginAtRoot, env: Environment, problems: string[]): Promise<McpServerEntry[]> {
  if (entry.servers.length === 0) return [];
  const { expandConfig } = await import("../mcp/config/expand.ts");
  const vars = { ...env.childEnv, CLAUDE_PLUGIN_ROOT: entry.plugin.root, CLAUDE_PLUGIN_DATA: entry.dataDir, CLAUDE_PROJECT_DIR: env.cwd };
  const out: McpServerEntry[] = [];
  for (const server of entry.servers) {
    problems.push(...server.problems);
    if (!server.config) continue;
    const expanded = expandConfig(server.config, vars);
    // Claude Code's naming: the server is `plugin_<plugin>_<server>`, its tools `mcp__plugin_<plugin>_<server>__<tool>`.
    out.push({ name: `plugin_${entry.plugin.name}_${server.name}`, scope: "plugin", origin: server.file, config: expanded.config, missingVars: expanded.missing, hash: server.hash, pluginRoot: entry.plugin.root });
  }
  return out;
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

export interface PluginsInput {
  env: Environment;
  loaded: LoadedSettings;
  /** `--plugin-dir` folders, used in place for this session. */
  pluginDirs: readonly string[];
}

export async function loadSessionPlugins(input: PluginsInput): Promise<SessionPlugins | undefined> {
  const { env } = input;
  const ids = enabledIds(input.loaded);
  if (ids.length === 0 && input.pluginDirs.length === 0) return undefined;
  const { enabledPluginRoots } = await import("../plugins/install/enabled.ts");
  // The loader is needed only for --plugin-dir folders and installs not in the index yet.
  const loader = async () => (await import("../plugins/load.ts")).loadPlugin;
  const problems: string[] = [];
  const entries: PluginAtRoot[] = [];

  // `--plugin-dir` first: a session-only plugin overrides an installed one of the same name.
  const inline = new Set<string>();
  for (const dir of input.pluginDirs) {
    const root = resolve(env.cwd, dir);
    const plugin = (await loader())({ root, marketplace: "inline" });
    inline.add(plugin.name);
    entries.push({ plugin, servers: await checkServers(plugin, env.homeDir), dataDir: join(env.pluginsDir, "data", `${plugin.name}-inline`), immutable: false });
  }

  const roots = ids.length === 0 ? [] : enabledPluginRoots({ enabledPlugins: input.loaded.settings.enabledPlugins, pluginsDir: env.pluginsDir, projectDir: env.cwd });
  const usable = roots.filter((root) => {
    // Not installed: the team-rollout notice names every missing plugin in one line, with `clew plugin sync`.
    if (root.problem && root.problem.code !== "plugin-not-installed") problems.push(formatPluginProblem(root.problem, env.homeDir));
    return root.verified && !root.problem && !inline.has(root.name);
  });
  const key = JSON.stringify([INDEX_VERSION, usable.map((root) => [root.id, root.root, root.record?.contentHash ?? ""])]);
  const path = indexPath(env.pluginsDir, key);
  let installed: IndexedPlugin[] | undefined = usable.length === 0 ? [] : readIndex(path);
  if (!installed) {
    const [entryOf, loadPlugin] = await Promise.all([marketplaceEntries(env.pluginsDir), loader()]);
    installed = [];
    for (const root of usable) {
      // A `strict: false` entry is the plugin's manifest: the install copied the files, not the entry.
      const found = entryOf(root.marketplace, root.name);
      const plugin = loadPlugin({ root: root.root, name: root.name, marketplace: root.marketplace, ...(found ? { entry: found.entry, marketplaceRoot: found.root } : {}) });
      installed.push({ plugin, servers: await checkServers(plugin, env.homeDir) });
    }
    writeIndex(path, installed);
  }
  usable.forEach((root, index) => {
    const indexed = installed?.[index];
    if (indexed) entries.push({ ...indexed, dataDir: root.dataDir, immutable: true });
  });

  const result: SessionPlugins = { ids: [], sources: [], hookSources: [], mcpServers: [], binDirs: [], problems };
  for (const entry of entries) {
    const { plugin } = entry;
    for (const problem of plugin.problems) if (problem.level === "error") problems.push(formatPluginProblem(problem, env.homeDir));
    // A plugin that cannot load (unreadable manifest, conflicting manifests) is skipped alone.
    if (plugin.invalid) continue;
    result.ids.push({ name: plugin.name, path: plugin.root, id: plugin.id });
    result.sources.push(
      pluginSource({
        root: plugin.root,
        name: plugin.name,
        skills: plugin.components.skills,
        skillsReplaceDefault: plugin.components.skillsReplaceDefault,
        commands: plugin.components.commands,
        agents: plugin.components.agents,
        dataDir: entry.dataDir,
        immutable: entry.immutable,
      }),
    );
    result.hookSources.push(...hookSourcesOf(entry));
    result.mcpServers.push(...(await pluginServers(entry, env, problems)));
    if (plugin.binDir) result.binDirs.push(plugin.binDir);
  }
  return result;
}
