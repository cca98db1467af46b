/**
 * The transport for one server entry (stdio, streamable HTTP, SSE, WebSocket), and what a failed
 * connection means: an HTTP 401/403 is "needs authentication", anything else is a failure whose
 * message names the server and what to do.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpServerEntry, McpServerStatus } from "../types.ts";
import { loadRemoteMcpSdk, type McpSdk, type RemoteMcpSdk } from "./load-sdk.ts";
import { StdioProcessTransport } from "./stdio-transport.ts";

export interface TransportContext {
  projectDir: string;
  env: Readonly<Record<string, string>>;
  onStderr?: () => void;
  /** Servers living in the host process (Agent SDK in-process servers), by name: their transport. */
  hostTransports?: ReadonlyMap<string, () => Transport>;
}

export interface BuiltTransport {
  transport: Transport;
  /** Present for stdio servers: the process, its stderr tail and exit status. */
  stdio?: StdioProcessTransport;
  /** Present for remote servers: the SDK's remote transports, whose errors say what failed. */
  remote?: RemoteMcpSdk;
}

/** The environment a stdio server starts with (spec §2.2): the session's, then clew's markers, then the entry's own. */
export function stdioEnvironment(entryEnv: Readonly<Record<string, string>>, context: TransportContext): Record<string, string> {
  return { ...context.env, CLAUDECODE: "1", CLAUDE_PROJECT_DIR: context.projectDir, ...entryEnv };
}

/** A remote entry loads the SDK's remote transports first (load-sdk.ts); stdio and in-process ones never do. */
export async function buildTransport(sdk: McpSdk, entry: McpServerEntry, context: TransportContext): Promise<BuiltTransport> {
  const hosted = entry.scope === "sdk" ? context.hostTransports?.get(entry.name) : undefined;
  if (entry.scope === "sdk") {
    if (!hosted) throw new Error(`the host registered no in-process server named "${entry.name}"`);
    return { transport: hosted() };
  }
  const config = entry.config;
  if (config.type === "stdio") {
    const stdio = new StdioProcessTransport(
      sdk,
      { command: config.command, args: config.args, cwd: context.projectDir, env: stdioEnvironment(config.env, context) },
      context.onStderr,
    );
    return { transport: stdio, stdio };
  }
  const url = new URL(config.url);
  const requestInit: RequestInit = { headers: { ...config.headers } };
  const remote = await loadRemoteMcpSdk();
  switch (config.type) {
    case "http":
      return { transport: new remote.StreamableHTTPClientTransport(url, { requestInit }), remote };
    case "sse":
      return { transport: new remote.SSEClientTransport(url, { requestInit }), remote };
    case "ws":
      return { transport: new remote.WebSocketClientTransport(url), remote };
  }
}

/** The HTTP status of a failed remote request, when the error carries one. */
function httpStatus(remote: RemoteMcpSdk, error: unknown): number | undefined {
  if (error instanceof remote.StreamableHTTPError || error instanceof remote.SseError) return typeof error.code === "number" ? error.code : undefined;
  if (error instanceof Error) {
    const match = /\b(401|403)\b/.exec(error.message);
    if (match?.[1] && /unauthori[sz]ed|forbidden|HTTP|status/i.test(error.message)) return Number(match[1]);
  }
  return undefined;
}

export interface Classified {
  status: McpServerStatus;
  message: string;
}

/** A remote server (`built` by its remote transport) that refused us for lack of credentials. */
export function authFailure(built: BuiltTransport | undefined, entry: McpServerEntry, error: unknown): Classified | undefined {
  const remote = built?.remote;
  if (entry.config.type === "stdio" || !remote) return undefined;
  const status = error instanceof remote.UnauthorizedError ? 401 : httpStatus(remote, error);
  if (status !== 401 && status !== 403) return undefined;
  const hasAuthorization = Object.keys(entry.config.headers).some((name) => name.toLowerCase() === "authorization");
  if (hasAuthorization) {
    return { status: "failed", message: `MCP server "${entry.name}" rejected the configured Authorization header (HTTP ${status}); check the token in its "headers" (${entry.origin})` };
  }
  return { status: "needs-auth", message: `MCP server "${entry.name}" needs authentication (HTTP ${status}): clew cannot sign in to MCP servers (OAuth) yet — add an Authorization header, or a headersHelper that prints one, to its entry in ${entry.origin}` };
}
