/**
 * The shapes the MCP layer shares: server definitions as configured (config/), their live
 * state (runtime/), and what the rest of clew reads of them. Plain data, no behaviour.
 */

export type McpTransport = "stdio" | "http" | "sse" | "ws";

/** Where a server definition came from, strongest first (spec §2.1). */
export type McpScope = "managed" | "cli" | "local" | "project" | "user" | "plugin" | "agent" | "sdk";

export interface McpOAuthConfig {
  clientId?: string;
  callbackPort?: number;
  scopes?: string;
  authServerMetadataUrl?: string;
}

interface ServerCommon {
  /** Per-server tool-call timeout override, in ms. */
  timeout?: number;
  /** Exempt this server's tools from deferral (ToolSearch). */
  alwaysLoad?: boolean;
}

export interface StdioServerConfig extends ServerCommon {
  type: "stdio";
  command: string;
  args: string[];
  env: Record<string, string>;
}

export interface RemoteServerConfig extends ServerCommon {
  type: "http" | "sse" | "ws";
  /** Empty means "not configured": no connection is attempted, and that is not an error. */
  url: string;
  headers: Record<string, string>;
  headersHelper?: string;
  oauth?: McpOAuthConfig;
}

export type McpServerConfig = StdioServerConfig | RemoteServerConfig;

/** One server definition in force, after `${VAR}` expansion and policy filtering. */
export interface McpServerEntry {
  name: string;
  scope: McpScope;
  /** The file (or `--mcp-config` argument) that defined it. */
  origin: string;
  config: McpServerConfig;
  /** `${VAR}` references with no value and no default (the literal text was kept). */
  missingVars: string[];
  /** Hash of the definition as written: a project server's approval is remembered against it. */
  hash: string;
  /** Plugin servers: the plugin's root (`${CLAUDE_PLUGIN_ROOT}`). */
  pluginRoot?: string;
}

/**
 * Servers known by name before their definitions are read: enabled plugins' servers, from the
 * stored plugin record. A session that does not wait for its servers reads the definitions only
 * when connecting begins (after its first request went out).
 */
export interface DeferredServers {
  /** How many there are. */
  readonly length: number;
  /** Read when first asked for (600 plugins' names come from the stored record's lists, read on first need). */
  readonly names: readonly DeferredServerName[];
  /** The definitions, `${…}` expanded, read on the first call. */
  entries(): Promise<McpServerEntry[]>;
}

export interface DeferredServerName {
  name: string;
  scope: McpScope;
  /** Why it cannot start whatever else its definition says (a remote server whose URL expands to nothing). */
  disabled?: string;
}

/** Whether a project (`.mcp.json`) server may start; other scopes are always "approved". */
export type McpApproval = "approved" | "pending" | "rejected" | "untrusted";

export type McpProblemType = "json" | "unknown_type" | "url_missing_type" | "invalid_config" | "reserved_name" | "policy" | "whitespace" | "missing_env";

export interface McpProblem {
  /** The file or flag the problem is in. */
  file: string;
  line?: number;
  column?: number;
  /** `mcpServers.bad.command` when the problem is about one key. */
  keyPath?: string;
  server?: string;
  type: McpProblemType;
  /** A full sentence naming the server and what to do. */
  message: string;
  severity: "error" | "warning";
}

export type McpServerStatus = "pending" | "connected" | "failed" | "needs-auth" | "disabled";

/** A server's live state, for `/mcp`, `clew mcp list` and stream-json `system/init.mcp_servers`. */
export interface McpServerState {
  name: string;
  scope: McpScope;
  status: McpServerStatus;
  /** Why it failed, needs auth, or is disabled. */
  error?: string;
  /** The last lines the server wrote to stderr (stdio only). */
  stderrTail: string[];
  toolCount: number;
  promptCount: number;
  resourceCount: number;
  /** Server `instructions` from initialize, capped at 2 KB. */
  instructions?: string;
  /** Problems that leave a connected server usable: a tool skipped (its schema), a list that failed. */
  warnings?: string[];
}

/** An MCP prompt, offered as the slash command `/mcp__<server>__<prompt>`. */
export interface McpPromptInfo {
  server: string;
  name: string;
  /** `mcp__<server>__<prompt>`, normalised. */
  command: string;
  description: string;
  arguments: Array<{ name: string; description?: string; required: boolean }>;
}
