/**
 * The session's plugins: every enabled, installed plugin (and each `--plugin-dir`) turned into
 * what the other layers already understand — a component source for the extensions registry,
 * hook sources for the hook engine, MCP server definitions, a `bin/` folder for the Bash tool's
 * PATH. Plugins add sources, never code paths. A session that enables none loads none of this.
 *
 * Loading 600 installed plugins must stay cheap: what they contribute is kept in one record
 * (plugin-snapshot.ts), written after every folder in it was checked against its hash. A warm
 * start reads the record's front — names, start-up lines, what the extensions summary is keyed
 * by — and nothing else before its first request: the component sources, the hooks' contents,
 * the MCP server definitions and the install hashes (the rest) are read when the registry is
 * built, a hook compiled, a server started, or a plugin checked. Each folder is checked again when
 * something of it is first read or run (PluginIntegrity), and the others once the first request
 * went out.
 */
import { join, resolve } from "node:path";
import type { ComponentSource, SourceSet } from "../extensions/types.ts";
import { pluginSource, sourceSetOf } from "../extensions/sources.ts";
import type { DeferredHooks } from "./hooks-setup.ts";
import type { HookSource } from "../hooks/types.ts";
import type { DeferredServers } from "../mcp/types.ts";
import type { CheckedPlugin, PluginIntegrity } from "../plugins/install/integrity.ts";
import type { LoadedPlugin, MarketplaceEntry, PluginProblem } from "../plugins/types.ts";
import type { Environment } from "../settings/paths.ts";
import type { LoadedSettings } from "../settings/types.ts";
import { dropSnapshot, readSnapshot, snapshotPath, startupLinesOf, writeSnapshot, type PluginHookOrigin, type PluginSnapshot, type SnapshotRest, type StartupLines } from "./plugin-snapshot.ts";
import { checkServers, deferredServers, nameServers } from "./plugin-servers.ts";
import { START_UP_LINES } from "./report-lines.ts";

export interface SessionPlugins {
  /** `name@marketplace` of every plugin that loaded, for stream-json `system/init.plugins`. */
  ids: Array<{ name: string; path: string; id: string }>;
  /** One component source per plugin, made when the extensions registry is built. */
  sources: SourceSet;
  /** The plugins' hooks, compiled by the hook layer once one of their events matters. */
  hooks: DeferredHooks;
  /** Named at once; their definitions are read when they start (after the first request, unless `-p` waits for them). */
  mcpServers: DeferredServers;
  binDirs: string[];
  /** One line per problem (errors and warnings): every one (read from the stored record when first asked for). */
  readonly problems: string[];
  /** The first of them, as many as a start prints and one more, and how many there are: what `reportPluginProblems` prints. */
  startupLines: StartupLines;
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

const enabledOf = new WeakMap<LoadedSettings, string[]>();

/**
 * Whether `enabledPlugins` turns any plugin on. A warm start needs no more than this and the
 * record's key (snapshotPath hashes the map itself): listing 600 ids is left to a cold load.
 */
function anyEnabled(loaded: LoadedSettings): boolean {
  const enabled = loaded.settings.enabledPlugins;
  for (const id in enabled) if (enabled[id] === true) return true;
  return false;
}

/** The ids `enabledPlugins` turns on (worked out once per settings load: the rollout and a cold load both ask). */
export function enabledIds(loaded: LoadedSettings): readonly string[] {
  const known = enabledOf.get(loaded);
  if (known) return known;
  const ids: string[] = [];
  const enabled = loaded.settings.enabledPlugins;
  for (const id in enabled) if (enabled[id] === true) ids.push(id);
  enabledOf.set(loaded, ids);
  return ids;
}

/**
 * The plugins' problems as a start prints them (the first few, then how many more, as
 * reportCapped does), from `startupLines`: a start with hundreds of them reads no other.
 */
export function reportPluginProblems(report: (line: string) => void, plugins: Pick<SessionPlugins, "startupLines">): void {
  const { lines, count } = plugins.startupLines;
  // One more line than the limit is printed whole rather than summarised as "1 more".
  if (count <= START_UP_LINES + 1) {
    if (lines.length > 0) report(lines.join("\n"));
    return;
  }
  report(lines.slice(0, START_UP_LINES).join("\n"));
  report(`clew: ${count - START_UP_LINES} more plugin problems; \`clew plugin list\` (installed) or \`clew plugin validate <folder>\` shows each plugin's.`);
}

function formatPluginProblem(problem: PluginProblem, homeDir: string): string {
  const where = `${problem.file.replace(homeDir, "~")}${problem.line ? `:${problem.line}` : ""}${problem.field ? ` (${problem.field})` : ""}`;
  return `clew: ${where}: ${problem.message}`;
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


/**
 * Whether the team rollout (team-rollout.ts) may find something to do: a marketplace is declared,
 * or some enabled plugin is not known to be installed. A start whose stored record says every
 * enabled plugin is installed, with no marketplace declared, does not load the rollout at all.
 */
export function rolloutMayBeDue(env: Environment, loaded: LoadedSettings): boolean {
  if (Object.keys(loaded.settings.extraKnownMarketplaces).length > 0) return true;
  if (!anyEnabled(loaded)) return false;
  const missing = notInstalledFromSnapshot(env, loaded);
  return missing === undefined || missing.length > 0;
}

/** Enabled plugins that have no install record here, from the stored record when it holds (team rollout). */
export function notInstalledFromSnapshot(env: Environment, loaded: LoadedSettings): string[] | undefined {
  return anyEnabled(loaded) ? readSnapshot(snapshotPath(env, loaded.settings.enabledPlugins))?.snapshot.notInstalled : [];
}

/** What one plugin adds to the record: its source, hooks, checked servers, `bin/`, errors. */
async function addPlugin(snapshot: PluginSnapshot, rest: SnapshotRest, plugin: LoadedPlugin, dataDir: string, immutable: boolean, homeDir: string): Promise<void> {
  for (const problem of plugin.problems) if (problem.level === "error") snapshot.lines.push(formatPluginProblem(problem, homeDir));
  // A plugin that cannot load (unreadable manifest, conflicting manifests) is skipped alone.
  if (plugin.invalid) return;
  snapshot.ids.push({ name: plugin.name, path: plugin.root, id: plugin.id });
  rest.sources.push(
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
    snapshot.hookOrigins.push({ kind: "plugin", plugin: plugin.id, root: plugin.root, dataDir, file: hooks.file, sharedProject: false });
    rest.hooks.push(hooks.hooks);
  }
  for (const server of await checkServers(plugin, homeDir)) {
    snapshot.lines.push(...server.problems);
    // An invalid definition was reported above, and is not started.
    if (!server.config) continue;
    rest.servers.push({ plugin: plugin.name, root: plugin.root, dataDir, name: server.name, file: server.file, config: server.config, hash: server.hash });
  }
  if (plugin.binDir) snapshot.bins.push({ dir: plugin.binDir, root: plugin.root });
}

function emptySnapshot(): PluginSnapshot {
  return { ids: [], lines: [], sourceSet: { digest: "", anyFolder: false, immutable: true }, hookOrigins: [], hookCount: 0, hooksForced: false, hookEvents: [], hookLines: [], hookLineCount: 0, serverNames: [], serverCount: 0, unsureServers: [], bins: [], notInstalled: [] };
}

/** A hook block whose origin and contents are read (with the record's lists and its rest) only when hooks are compiled. */
function storedHookSource(origin: () => PluginHookOrigin, contents: () => unknown): HookSource {
  return {
    get origin(): PluginHookOrigin {
      return origin();
    },
    keyPath: "hooks",
    get hooks(): unknown {
      return contents();
    },
  };
}

/** Loads the plugins from their folders, checking each installed one first (a cold start). */
async function loadFromFolders(input: PluginsInput, integrityOf: (checks: CheckedPlugin[]) => PluginIntegrity): Promise<{ snapshot: PluginSnapshot; rest: SnapshotRest; complete: boolean; integrity: PluginIntegrity }> {
  const { env } = input;
  const ids = enabledIds(input.loaded);
  const { resolveEnabledPlugins } = await import("../plugins/install/enabled.ts");
  const loadPlugin = (await import("../plugins/load.ts")).loadPlugin;
  const snapshot = emptySnapshot();
  const rest: SnapshotRest = { sources: [], checks: [], hooks: [], servers: [] };
  // `--plugin-dir` first: a session-only plugin overrides an installed one of the same name.
  const inline = new Set<string>();
  for (const dir of input.pluginDirs) {
    const plugin = loadPlugin({ root: resolve(env.cwd, dir), marketplace: "inline" });
    inline.add(plugin.name);
    await addPlugin(snapshot, rest, plugin, join(env.pluginsDir, "data", `${plugin.name}-inline`), false, env.homeDir);
  }
  const roots = ids.length === 0 ? [] : resolveEnabledPlugins({ enabledPlugins: input.loaded.settings.enabledPlugins, pluginsDir: env.pluginsDir, projectDir: env.cwd });
  for (const root of roots) {
    if (root.problem?.code === "plugin-not-installed") snapshot.notInstalled.push(root.id);
    // Not installed: the team-rollout notice names every missing plugin in one line, with `clew plugin sync`.
    else if (root.problem) snapshot.lines.push(formatPluginProblem(root.problem, env.homeDir));
  }
  const candidates = roots.filter((root) => root.record !== undefined && !root.problem && !inline.has(root.name));
  rest.checks = candidates.flatMap(({ id, record }) => (record ? [{ id, record: { installPath: record.installPath, contentHash: record.contentHash, scope: record.scope, ...(record.listingStamp ? { listingStamp: record.listingStamp } : {}) } }] : []));
  const integrity = integrityOf(rest.checks);
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
    await addPlugin(snapshot, rest, plugin, root.dataDir, true, env.homeDir);
  }
  nameServers(snapshot, rest, env.homeDir);
  snapshot.serverCount = snapshot.serverNames.length;
  snapshot.hookCount = snapshot.hookOrigins.length;
  snapshot.hooksForced = snapshot.hookOrigins.some((origin) => origin.managedForced === true);
  const set = sourceSetOf(rest.sources);
  snapshot.sourceSet = { digest: set.digest, anyFolder: set.anyFolder, immutable: set.immutable };
  if (snapshot.hookOrigins.length > 0) {
    const sources = snapshot.hookOrigins.map((origin, index): HookSource => ({ origin, hooks: rest.hooks[index], keyPath: "hooks" }));
    const described = await (await import("./hooks-setup.ts")).describeHooks(sources, env.cwd);
    snapshot.hookEvents = [...described.events];
    snapshot.hookLines = [...described.lines];
    snapshot.hookLineCount = described.lines.length;
  }
  return { snapshot, rest, complete: usable.length === candidates.length && input.pluginDirs.length === 0, integrity };
}

/**
 * A hook block's origin when the record's list of them could not be read: every plugin is refused
 * then (the root is the record's, which no plugin has), so none of its hooks runs.
 */
function unreadableOrigin(record: string): PluginHookOrigin {
  return { kind: "plugin", plugin: "(unreadable plugin record)", root: record, dataDir: "", file: record, sharedProject: false };
}

type IntegrityModule = typeof import("../plugins/install/integrity.ts");

/**
 * The integrity checker, loaded when a plugin is first asked about. A warm start asks nothing of
 * its plugins before the first request (unless one has a `bin/`), so it loads none of it until then.
 */
function integrityModule(): IntegrityModule {
  return require("../plugins/install/integrity.ts") as IntegrityModule;
}

/** Makes `make()` on the first call to any of its methods: the methods a session calls on its PluginIntegrity. */
function lazyIntegrity(make: () => PluginIntegrity): Pick<PluginIntegrity, "problem" | "admits" | "refuseEvery" | "checkRest"> {
  let made: PluginIntegrity | undefined;
  const integrity = () => (made ??= make());
  return {
    problem: (root) => integrity().problem(root),
    admits: (root) => integrity().admits(root),
    refuseEvery: (reason) => integrity().refuseEvery(reason),
    checkRest: () => integrity().checkRest(),
  };
}

export async function loadSessionPlugins(input: PluginsInput): Promise<SessionPlugins | undefined> {
  const { env } = input;
  if (input.pluginDirs.length === 0 && !anyEnabled(input.loaded)) return undefined;
  const path = snapshotPath(env, input.loaded.settings.enabledPlugins);
  let started = false;
  const integrityOf = (checks: readonly CheckedPlugin[] | (() => readonly CheckedPlugin[])) =>
    new (integrityModule().PluginIntegrity)(env.pluginsDir, checks, (problem) => {
      if (!started) return;
      input.report?.(formatPluginProblem(problem, env.homeDir));
      dropSnapshot(path);
    });
  const stored = input.pluginDirs.length === 0 ? readSnapshot(path) : undefined;
  let snapshot: PluginSnapshot;
  let readRest: () => SnapshotRest;
  // The parts of the record past its first line (the ids and lines, then the rest) are read when
  // first needed. Should one be unreadable or not the one written (removed or edited by hand
  // mid-session), no plugin of the record is used rather than some half of one.
  let recordFailure: string | undefined;
  const fromRecord = <T>(read: () => T): T | undefined => {
    if (recordFailure !== undefined) return undefined;
    try {
      return read();
    } catch (error) {
      recordFailure = `the stored plugin record ${path.replace(env.homeDir, "~")} could not be read (${error instanceof Error ? error.message : String(error)}); the next start loads the plugins from their folders`;
      integrity.refuseEvery(`${recordFailure}.`);
      input.report?.(`clew: ${recordFailure}, and none of them is used in this session.`);
      dropSnapshot(path);
      return undefined;
    }
  };
  const rest = (): SnapshotRest | undefined => fromRecord(readRest);
  let integrity: Pick<PluginIntegrity, "problem" | "admits" | "refuseEvery" | "checkRest">;
  let startup: StartupLines;
  const lines: string[] = [];
  if (stored) {
    ({ snapshot, rest: readRest, startup } = stored);
    integrity = lazyIntegrity(() => integrityOf(() => rest()?.checks ?? []));
    // A `bin/` folder is on the Bash tool's PATH from the start, so its plugin is checked now.
    for (const bin of snapshot.bins) {
      const problem = integrity.problem(bin.root);
      if (problem) lines.push(formatPluginProblem(problem, env.homeDir));
    }
  } else {
    const loaded = await loadFromFolders(input, integrityOf);
    ({ snapshot, integrity } = loaded);
    const folders = loaded.rest;
    readRest = () => folders;
    startup = startupLinesOf(snapshot.lines);
    if (loaded.complete) writeSnapshot(path, snapshot, folders);
  }
  started = true;
  const admits = (root: string) => integrity.admits(root);
  let sources: ComponentSource[] | undefined;
  const made = (): ComponentSource[] => {
    if (sources) return sources;
    sources = rest()?.sources ?? [];
    // Nothing of a plugin's folder is read before its own check.
    for (const source of sources) source.guard = () => integrity.problem(source.root)?.message;
    return sources;
  };
  let problems: string[] | undefined;
  return {
    // Both read from the record's tail on first use (a start need not, before its first request).
    get ids() {
      return fromRecord(() => snapshot.ids) ?? [];
    },
    sources: { ...snapshot.sourceSet, list: made },
    hooks: {
      sources: Array.from({ length: snapshot.hookCount }, (_, index) => storedHookSource(() => fromRecord(() => snapshot.hookOrigins[index]) ?? unreadableOrigin(path), () => rest()?.hooks[index] ?? {})),
      managedForced: snapshot.hooksForced,
      events: snapshot.hookEvents,
      lines: snapshot.hookLines,
      lineCount: snapshot.hookLineCount,
    },
    mcpServers: await deferredServers(snapshot, () => fromRecord(() => snapshot.serverNames) ?? [], () => rest()?.servers, env),
    binDirs: snapshot.bins.filter((bin) => admits(bin.root)).map((bin) => bin.dir),
    get problems() {
      return (problems ??= [...(fromRecord(() => snapshot.lines) ?? []), ...lines]);
    },
    startupLines: { lines: [...startup.lines, ...lines].slice(0, START_UP_LINES + 1), count: startup.count + lines.length },
    checkRest: async () => void (await integrity.checkRest()),
    admits,
  };
}
