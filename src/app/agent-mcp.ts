/**
 * MCP servers an agent definition brings (`mcpServers` with inline definitions, C.3): started
 * when a helper of that type starts, offered to that helper only, and stopped when it finishes.
 * A repository's agent file starts none in an untrusted folder; a bad definition is reported and
 * skipped while the helper runs with the rest.
 */
import type { AgentMcpServer } from "../extensions/types.ts";
import type { McpServerEntry } from "../mcp/types.ts";
import type { AnyTool } from "../tools/types.ts";
import { definitionHash, formatMcpProblem, parseEntry } from "./mcp-config.ts";

export interface AgentServers {
  tools: AnyTool[];
  close(): Promise<void>;
}

export interface AgentServerInput {
  servers: readonly AgentMcpServer[];
  /** The agent file, for messages. */
  origin: string;
  /** From the repository: needs a trusted folder. */
  shared: boolean;
  trusted: boolean;
  cwd: string;
  env: Readonly<Record<string, string>>;
  connectTimeoutMs: number;
  toolTimeoutMs: number;
  maxOutputTokens: number;
  version: string;
  report: (line: string) => void;
}

export async function startAgentServers(input: AgentServerInput): Promise<AgentServers | undefined> {
  const inline = input.servers.flatMap((server) => ("config" in server ? [server] : []));
  if (inline.length === 0) return undefined;
  if (input.shared && !input.trusted) {
    input.report(`clew: the MCP servers of ${input.origin} are not started: this folder is not trusted. To start them, run: clew trust ${JSON.stringify(input.cwd)}`);
    return undefined;
  }
  const { expandConfig } = await import("../mcp/config/expand.ts");
  const entries: McpServerEntry[] = [];
  for (const server of inline) {
    const parsed = parseEntry({ file: input.origin, base: "mcpServers" }, server.name, server.config);
    for (const problem of parsed.problems) input.report(`clew: ${formatMcpProblem(problem)}`);
    if (!parsed.config) continue;
    const expanded = expandConfig(parsed.config, input.env);
    entries.push({ name: server.name, scope: "agent", origin: input.origin, config: expanded.config, missingVars: expanded.missing, hash: definitionHash(server.config) });
  }
  if (entries.length === 0) return undefined;
  const { McpManager } = await import("../mcp/runtime/manager.ts");
  const manager = McpManager.start({
    servers: entries,
    projectDir: input.cwd,
    roots: [input.cwd],
    env: input.env,
    connectTimeoutMs: input.connectTimeoutMs,
    toolTimeoutMs: input.toolTimeoutMs,
    maxOutputTokens: input.maxOutputTokens,
    clientVersion: input.version,
  });
  // The helper's first request should offer its own servers' tools: they get the connect timeout.
  await manager.settled(input.connectTimeoutMs);
  for (const state of manager.states()) if (state.status !== "connected") input.report(`clew: MCP server "${state.name}" of ${input.origin} is ${state.status}${state.error ? `: ${state.error}` : ""}`);
  return { tools: manager.tools(), close: () => manager.close() };
}
