/**
 * MCP for one session: the servers in force (config), started in the background (runtime), their
 * tools offered beside the built-ins — deferred behind ToolSearch when they would take too much
 * of the window — and refreshed between turns when servers connect, die or change their lists.
 * A session without MCP configuration never loads the runtime or the SDK.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { ApiTool, StreamFn } from "../model/types.ts";
import type { DeferredServerName, DeferredServers, McpServerEntry, McpServerState } from "../mcp/types.ts";
import { toolVisibility, type RuleSet } from "../permissions/rules.ts";
import type { Environment } from "../settings/paths.ts";
import type { LoadedSettings } from "../settings/types.ts";
import { subprocessEnv } from "../util/subprocess-env.ts";
import type { AnyTool } from "../tools/types.ts";
import type { McpManager } from "../mcp/runtime/manager.ts";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { HostRelayTransport } from "../mcp/runtime/host-transport.ts";
import { formatMcpProblem, isStartable, loadMcpConfigFor, mcpServerInitErrors, rememberProjectChoice, untrustedProjectNotice, type ConfiguredServer, type McpServerInitError } from "./mcp-config.ts";

/** How long `-p` waits for servers before its first request (MCP_CONNECT_TIMEOUT_MS in Claude Code's terms). */
const HEADLESS_CONNECT_WAIT_MS = 5_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
const DEFAULT_TOOL_TIMEOUT_MS = 100_000_000;
const DEFAULT_MAX_OUTPUT_TOKENS = 25_000;

export interface SessionMcp {
  manager: McpManager;
  /** Every server configured, with its state (pending approval and blocked ones too). */
  states(): McpServerState[];
  /** Connected servers' tools that no bare deny rule hides. */
  tools(): AnyTool[];
  initErrors: McpServerInitError[];
  close(): Promise<void>;
}

/** Asks the user whether a project (`.mcp.json`) server may start; absent headless. */
export type McpApprovalPort = (server: { name: string; origin: string; summary: string; untrusted: boolean }) => Promise<"yes" | "always" | "no">;

export interface McpStartInput {
  env: Environment;
  loaded: LoadedSettings;
  cliConfigs: readonly string[];
  strict: boolean;
  rules: RuleSet;
  interactive: boolean;
  version: string;
  report: (line: string) => void;
  approve?: McpApprovalPort;
  /** When the servers may start connecting, if not at once (after the first request went out). */
  startAfter?: Promise<void>;
  /**
   * Enabled plugins' servers (`plugin_<plugin>_<server>`): enabling the plugin was the consent.
   * Their definitions are read once connecting begins (at once when the run waits for its servers).
   */
  pluginServers?: DeferredServers;
  /** Asked before a plugin's server starts: false when its folder changed since install. */
  admitPlugin?: (root: string) => boolean;
  /** Servers living in the host process (the Agent SDK's in-process servers), by name: their transport. */
  hostServers?: ReadonlyMap<string, () => Transport>;
}

export interface McpOutcome {
  mcp?: SessionMcp;
  initErrors: McpServerInitError[];
  /** Configured servers that do not run (pending approval, untrusted folder, rejected, blocked). */
  idle: McpServerState[];
}

function idleState(server: { name: string; scope: McpServerState["scope"]; approval: string; blocked?: string }): McpServerState {
  const why = server.blocked ?? (server.approval === "rejected" ? "rejected (disabledMcpjsonServers)" : server.approval === "untrusted" ? "this folder is not trusted" : "pending approval");
  return { name: server.name, scope: server.scope, status: server.approval === "pending" || server.approval === "untrusted" ? "pending" : "disabled", error: why, stderrTail: [], toolCount: 0, promptCount: 0, resourceCount: 0 };
}

export async function startSessionMcp(input: McpStartInput): Promise<McpOutcome> {
  const { env } = input;
  const config = loadMcpConfigFor(env, input.loaded, { cliConfigs: input.cliConfigs, strict: input.strict });
  for (const problem of config.problems) input.report(`clew: ${formatMcpProblem(problem, env.homeDir)}`);
  const approvedNow = input.approve ? await askForProjectServers(config.servers, input.approve, env.configDir, env.cwd) : new Set<string>();
  // Headless, a trusted folder's pending servers start (nobody can be asked); interactive sessions asked above.
  const runs = (server: ConfiguredServer) => approvedNow.has(server.name) || (isStartable(server) && (server.approval !== "pending" || !input.approve));
  // A configured server of the same name wins over a plugin's (plugins rank lowest, spec §2.1).
  const taken = new Set(config.servers.map((server) => server.name));
  const hosted = hostEntries(input.hostServers);
  const hostNames = new Set(hosted.map((entry) => entry.name));
  // The host that drives clew named its in-process servers explicitly: they win over configured ones.
  for (const server of config.servers) if (hostNames.has(server.name)) input.report(`clew: MCP server "${server.name}" of ${server.origin} is replaced by the host's in-process server of the same name`);
  const startable: McpServerEntry[] = [...hosted, ...config.servers.filter((server) => runs(server) && !hostNames.has(server.name))];
  const plugins = input.pluginServers;
  // Plugins' servers are named (600 plugins: the stored record's list read) only when listed,
  // unless a configured or host server could take a name of theirs.
  const kept = taken.size === 0 && hostNames.size === 0 ? undefined : plugins?.names.filter((server) => !taken.has(server.name) && !hostNames.has(server.name));
  const pluginCount = kept?.length ?? plugins?.length ?? 0;
  const pluginNames = (): readonly DeferredServerName[] => kept ?? plugins?.names ?? [];
  const idle = config.servers.filter((server) => !runs(server) && !hostNames.has(server.name)).map(idleState);
  const initErrors = mcpServerInitErrors(config.problems, new Set(config.servers.map((server) => server.name)));
  const notice = input.approve ? undefined : untrustedProjectNotice(config.servers, env.cwd);
  if (notice) input.report(`clew: ${notice}`);
  if (startable.length === 0 && pluginCount === 0) return { initErrors, idle };
  const withHeaders = async (entries: McpServerEntry[]): Promise<McpServerEntry[]> =>
    entries.some((server) => server.config.type !== "stdio" && server.config.headersHelper)
      ? await (await import("./mcp-headers.ts")).withHelperHeaders(entries, { trusted: input.loaded.trusted, env: env.childEnv, cwd: env.cwd, report: input.report })
      : entries;
  const pluginEntries = async (): Promise<McpServerEntry[]> => {
    if (!plugins || pluginCount === 0) return [];
    const entries = await plugins.entries();
    if (kept === undefined) return entries;
    const names = new Set(kept.map((server) => server.name));
    return entries.filter((server) => names.has(server.name));
  };
  const { McpManager } = await import("../mcp/runtime/manager.ts");
  // Headless has nobody typing meanwhile: give the servers a short, bounded head start so the
  // first request can offer their tools. Interactive sessions never wait; tools appear per turn.
  const blocking = env.mcpConnectionBlocking || (!input.interactive && env.mcpConnectionNonblocking !== true);
  const startAfter = !blocking ? input.startAfter : undefined;
  // Not waited for: 600 plugins' definitions are read (and their variables expanded) once the first request is out.
  const later = startAfter !== undefined && pluginCount > 0;
  const servers = await withHeaders(later ? startable : [...startable, ...(await pluginEntries())]);
  const manager = McpManager.start({
    ...(startAfter ? { startAfter } : {}),
    ...(later ? { later: { names: pluginNames, load: async () => withHeaders(await pluginEntries()) } } : {}),
    servers,
    projectDir: env.cwd,
    roots: [env.cwd, ...input.loaded.settings.permissions.additionalDirectories],
    env: subprocessEnv(env.childEnv, env.subprocessEnvScrub),
    connectTimeoutMs: env.mcpTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    toolTimeoutMs: env.mcpToolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
    maxOutputTokens: env.maxMcpOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
    clientVersion: input.version,
    ...(input.hostServers ? { hostTransports: input.hostServers } : {}),
    ...(input.admitPlugin ? { admit: (entry: McpServerEntry) => (entry.pluginRoot !== undefined && input.admitPlugin?.(entry.pluginRoot) === false ? `MCP server "${entry.name}" was not started: its plugin's files changed after install (${entry.pluginRoot})` : undefined) } : {}),
  });
  if (blocking) await manager.settled(Math.min(env.mcpTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS, env.mcpConnectWaitMs ?? HEADLESS_CONNECT_WAIT_MS));
  const tools = (): AnyTool[] => {
    const all = manager.tools();
    const hidden = new Set(toolVisibility(input.rules, all.map((tool) => tool.name)));
    return all.filter((tool) => !hidden.has(tool.name));
  };
  const mcp: SessionMcp = { manager, states: () => [...manager.states(), ...idle], tools, initErrors, close: () => manager.close() };
  return { mcp, initErrors, idle };
}

/** Entries for the host's in-process servers: their transport comes from the host, not from a config. */
function hostEntries(servers: ReadonlyMap<string, () => Transport> | undefined): McpServerEntry[] {
  return [...(servers?.keys() ?? [])].map((name) => ({
    name,
    scope: "sdk",
    origin: "the Agent SDK host (initialize sdkMcpServers)",
    config: { type: "stdio", command: "", args: [], env: {} },
    missingVars: [],
    hash: "",
  }));
}

function summaryOf(server: ConfiguredServer): string {
  const config = server.config;
  return config.type === "stdio" ? [config.command, ...config.args].join(" ") : `${config.url} (${config.type})`;
}

/**
 * Project servers not yet approved — and, in an untrusted folder, every project server — are put
 * to the user one by one; "always" and "no" are remembered for this definition (a changed
 * definition asks again; `clew mcp reset-project-choices` forgets).
 */
async function askForProjectServers(servers: readonly ConfiguredServer[], approve: McpApprovalPort, configDir: string, cwd: string): Promise<Set<string>> {
  const approved = new Set<string>();
  for (const server of servers) {
    if (server.blocked !== undefined || (server.approval !== "pending" && server.approval !== "untrusted")) continue;
    const answer = await approve({ name: server.name, origin: server.origin, summary: summaryOf(server), untrusted: server.approval === "untrusted" });
    if (answer !== "no") approved.add(server.name);
    if (answer !== "yes") rememberProjectChoice(configDir, server.folder ?? cwd, server.name, server.hash, answer === "always" ? "approved" : "rejected");
  }
  return approved;
}

/** The host's in-process MCP servers (Agent SDK `sdkMcpServers`): a transport per name, and what the host sends on its own. */
export interface HostMcpServers {
  transports: ReadonlyMap<string, () => Transport>;
  /** A message the host's server sent unasked (a list_changed notification); false for an unknown server. */
  deliver(server: string, message: unknown): boolean;
}

/** `relay` carries one JSON-RPC message to the host's server and resolves with its reply. */
export function hostMcpServers(names: readonly string[], relay: (server: string, message: unknown) => Promise<unknown>): HostMcpServers {
  const live = new Map<string, HostRelayTransport>();
  const transports = new Map<string, () => Transport>(
    names.map((name) => [
      name,
      () => {
        const transport = new HostRelayTransport((message) => relay(name, message), name);
        live.set(name, transport);
        return transport;
      },
    ]),
  );
  return {
    transports,
    deliver: (server, message) => {
      if (!transports.has(server)) return false;
      if (typeof message === "object" && message !== null) live.get(server)?.deliver(message as JSONRPCMessage);
      return true;
    },
  };
}

/** stream-json `system/init.mcp_servers`. */
export function initServers(states: readonly McpServerState[]): Array<{ name: string; status: string }> {
  return states.map((state) => ({ name: state.name, status: state.status }));
}

export type ApiToolMapper = (tool: AnyTool) => ApiTool;

/** How long an interactive session lets its prompt come up before servers start connecting. */
const INTERACTIVE_CONNECT_DELAY_MS = 200;

/**
 * Settles once the first request has gone out (its response began, or it failed) — or, in an
 * interactive session, shortly after start-up, while the user types. Servers that are not waited
 * for connect then, so loading the MCP SDK never holds up that first request.
 */
export function firstRequestSignal(interactive: boolean): { out: Promise<void>; sent: Promise<void>; watch: (stream: StreamFn) => StreamFn } {
  let settle: () => void = () => undefined;
  let answered: () => void = () => undefined;
  const out = new Promise<void>((resolve) => {
    settle = resolve;
  });
  /** Only the first request itself: its response began (the self-update health mark). */
  const sent = new Promise<void>((resolve) => {
    answered = resolve;
  });
  if (interactive) setTimeout(settle, INTERACTIVE_CONNECT_DELAY_MS).unref?.();
  let heard = false;
  const watch = (stream: StreamFn): StreamFn => {
    const watched = async function* (request: Parameters<StreamFn>[0], signal: AbortSignal) {
      for await (const event of stream(request, signal)) {
        settle();
        // A retry notice means the request did not get through; only a response counts.
        if (event.type !== "retry") {
          answered();
          heard = true;
        }
        yield event;
      }
      settle();
    };
    // Once the API has answered, both signals are given: later requests skip this layer, which
    // would cost each of their SSE events a promise round-trip.
    return (request, signal) => (heard ? stream(request, signal) : watched(request, signal));
  };
  return { out, sent, watch };
}
