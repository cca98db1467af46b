/**
 * One health check of one server for `clew mcp list` / `mcp get`: connect, count its tools,
 * disconnect (a stdio server's whole process group is ended).
 */
import type { McpServerEntry, McpServerStatus } from "../types.ts";
import { ServerConnection } from "./connection.ts";

export interface ProbeOptions {
  timeoutMs: number;
  /** The project directory: a stdio server's working directory and its CLAUDE_PROJECT_DIR. */
  cwd: string;
  env: Readonly<Record<string, string>>;
  /** Sent as the client version in initialize; "probe" when absent. */
  clientVersion?: string;
}

export interface ProbeResult {
  status: McpServerStatus;
  /** Why it failed or needs authentication, naming the server. */
  detail?: string;
  toolCount?: number;
}

export async function probeServer(entry: McpServerEntry, options: ProbeOptions): Promise<ProbeResult> {
  const connection = new ServerConnection(
    entry,
    { projectDir: options.cwd, roots: [options.cwd], env: options.env, connectTimeoutMs: options.timeoutMs, clientVersion: options.clientVersion ?? "probe" },
    () => undefined,
  );
  try {
    await connection.connect();
    const state = connection.state();
    if (state.status === "connected") return { status: "connected", toolCount: state.toolCount };
    return { status: state.status, ...(state.error !== undefined ? { detail: state.error } : {}) };
  } finally {
    await connection.close();
  }
}
