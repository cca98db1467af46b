/**
 * Plugins' MCP servers in the stored record: checked once per install, named the way Claude Code
 * names them, and handed to the MCP layer counted at start, named when first listed and defined
 * (their variables expanded) when they start.
 */
import type { DeferredServerName, DeferredServers, McpServerEntry } from "../mcp/types.ts";
import { noUrlError } from "../mcp/config/problems.ts";
import type { LoadedPlugin } from "../plugins/types.ts";
import type { Environment } from "../settings/paths.ts";
import type { CheckedServer, PluginSnapshot, SnapshotRest, SnapshotServer } from "./plugin-snapshot.ts";

/** Checks a plugin's server definitions (the MCP config layer's rules); done once per install. */
export async function checkServers(plugin: LoadedPlugin, homeDir: string): Promise<CheckedServer[]> {
  const servers = Object.entries(plugin.mcpServers);
  if (servers.length === 0) return [];
  const { parseEntry, definitionHash, formatMcpProblem } = await import("./mcp-config.ts");
  return servers.map(([name, { file, config }]) => {
    const parsed = parseEntry({ file, base: "mcpServers" }, name, config);
    return { name, file, ...(parsed.config ? { config: parsed.config } : {}), hash: definitionHash(config), problems: parsed.problems.map((problem) => `clew: ${formatMcpProblem(problem, homeDir).replace(/^clew: /, "")}`) };
  });
}

/**
 * The servers in name order (the order the MCP layer lists them in, so a start sorts nothing), each
 * named once: a blank URL means it cannot start, a URL that is a variable is looked at by each start.
 * Two enabled plugins of one name (from two marketplaces) give their servers one name: only the
 * first plugin's is kept — the other's tools would have the same names, and it would be started
 * for nothing — and the other is reported.
 */
export function nameServers(snapshot: PluginSnapshot, rest: SnapshotRest, homeDir: string): void {
  rest.servers.sort((a, b) => (serverName(a) < serverName(b) ? -1 : serverName(a) > serverName(b) ? 1 : 0));
  const ids = new Map(snapshot.ids.map((plugin) => [plugin.path, plugin.id]));
  const idOf = (server: SnapshotServer): string => ids.get(server.root) ?? server.root;
  let kept: SnapshotServer | undefined;
  rest.servers = rest.servers.filter((server) => {
    if (kept === undefined || serverName(kept) !== serverName(server)) {
      kept = server;
      return true;
    }
    snapshot.lines.push(`clew: ${server.file.replace(homeDir, "~")}: MCP server "${server.name}" of ${idOf(server)} is not started: ${idOf(kept)} has one of that name (${serverName(server)}), and their tools would clash; enable one of the two.`);
    return false;
  });
  rest.servers.forEach((server, index) => {
    const name = serverName(server);
    const url = server.config.type === "stdio" ? undefined : server.config.url;
    if (url?.includes("${")) snapshot.unsureServers.push({ index, url, file: server.file, root: server.root, dataDir: server.dataDir });
    snapshot.serverNames.push({ name, scope: "plugin", ...(url?.trim() === "" ? { disabled: noUrlError(name, server.file) } : {}) });
  });
}

/** One copy of the environment for every server (a null prototype: `${constructor}` stays unset), and each plugin's own variables over it. */
function serverVariables(env: Environment): (plugin: { root: string; dataDir: string }) => Record<string, string> {
  const base: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>, env.childEnv, { CLAUDE_PROJECT_DIR: env.cwd });
  return (plugin) => Object.assign(Object.create(base) as Record<string, string>, { CLAUDE_PLUGIN_ROOT: plugin.root, CLAUDE_PLUGIN_DATA: plugin.dataDir });
}

/** Claude Code's naming: the server is `plugin_<plugin>_<server>`, its tools `mcp__plugin_<plugin>_<server>__<tool>`. */
const serverName = (server: Pick<SnapshotServer, "plugin" | "name">): string => `plugin_${server.plugin}_${server.name}`;

/** `${CLAUDE_PLUGIN_ROOT}`, `${CLAUDE_PLUGIN_DATA}`, `${CLAUDE_PROJECT_DIR}` and the environment. */
async function expandServers(servers: readonly SnapshotServer[], env: Environment): Promise<McpServerEntry[]> {
  if (servers.length === 0) return [];
  const { expandConfig } = await import("../mcp/config/expand.ts");
  const variables = serverVariables(env);
  return servers.map((server) => {
    // Whether the plugin may run is asked when the server starts (McpRuntimeOptions.admit).
    const expanded = expandConfig(server.config, variables(server));
    return { name: serverName(server), scope: "plugin" as const, origin: server.file, config: expanded.config, missingVars: expanded.missing, hash: server.hash, pluginRoot: server.root };
  });
}

/**
 * The servers counted now, named when first listed (a URL that expands to nothing in this start's
 * environment is looked at now), their definitions read on first use.
 */
export async function deferredServers(snapshot: PluginSnapshot, stored: () => readonly DeferredServerName[], definitions: () => SnapshotServer[] | undefined, env: Environment): Promise<DeferredServers> {
  let blank: ReadonlyMap<number, string> | undefined;
  if (snapshot.unsureServers.length > 0) {
    const { expandString } = await import("../mcp/config/expand.ts");
    const variables = serverVariables(env);
    blank = new Map(snapshot.unsureServers.flatMap((server) => (expandString(server.url, variables(server)).value.trim() === "" ? [[server.index, server.file] as const] : [])));
  }
  let names: readonly DeferredServerName[] | undefined;
  const named = (): readonly DeferredServerName[] => {
    if (names) return names;
    const all = stored();
    names = blank === undefined || blank.size === 0 ? all : all.map((server, index) => {
      const file = blank?.get(index);
      return file === undefined ? server : { ...server, disabled: noUrlError(server.name, file) };
    });
    return names;
  };
  let entries: Promise<McpServerEntry[]> | undefined;
  return {
    length: snapshot.serverCount,
    get names() {
      return named();
    },
    entries: () => (entries ??= expandServers(definitions() ?? [], env)),
  };
}
