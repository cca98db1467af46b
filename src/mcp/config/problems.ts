/** How MCP configuration problems are reported: one stderr line each, and stream-json's `system/init`. */
import type { McpProblem, McpProblemType } from "../types.ts";

function displayPath(file: string, homeDir: string | undefined): string {
  if (homeDir && homeDir !== "/" && file.startsWith(`${homeDir}/`)) return `~${file.slice(homeDir.length)}`;
  return file;
}

/** `clew: ~/proj/.mcp.json:3:5: message` — the form terminals and editors turn into links. */
export function formatMcpProblem(problem: McpProblem, homeDir?: string): string {
  const file = displayPath(problem.file, homeDir);
  const where = problem.line === undefined ? file : `${file}:${problem.line}:${problem.column ?? 1}`;
  return `clew: ${where}: ${problem.message}`;
}

/** A remote server whose URL is blank (as written, or once its variables are expanded): it is listed, never started. */
export function noUrlError(name: string, origin: string): string {
  return `MCP server "${name}" has no URL configured (${origin})`;
}

/** The problem types stream-json reports as skipped servers (spec §2.13). */
const INIT_ERROR_TYPES: ReadonlySet<McpProblemType> = new Set(["unknown_type", "url_missing_type", "invalid_config", "reserved_name"]);

export interface McpServerInitError {
  name: string;
  type: "unknown_type" | "url_missing_type" | "invalid_config" | "reserved_name";
  message: string;
}

/**
 * `system/init.mcp_server_errors`: the servers skipped for their definition, one per name (the
 * first reason). Warnings about a server that still loads are not errors there.
 */
export function mcpServerInitErrors(problems: readonly McpProblem[], loadedNames: ReadonlySet<string>): McpServerInitError[] {
  const seen = new Set<string>();
  const errors: McpServerInitError[] = [];
  for (const problem of problems) {
    const name = problem.server;
    if (name === undefined || seen.has(name) || loadedNames.has(name) || !INIT_ERROR_TYPES.has(problem.type)) continue;
    seen.add(name);
    errors.push({ name, type: problem.type as McpServerInitError["type"], message: problem.message });
  }
  return errors;
}

/**
 * The one stderr line a headless run prints when project servers wait for workspace trust (no
 * process of theirs is started), or undefined when none do.
 */
export function untrustedProjectNotice(servers: ReadonlyArray<{ name: string; approval: string; blocked?: string }>, folder: string): string | undefined {
  const waiting = servers.filter((server) => server.approval === "untrusted" && server.blocked === undefined).map((server) => server.name);
  if (waiting.length === 0) return undefined;
  const count = waiting.length === 1 ? "1 project MCP server" : `${waiting.length} project MCP servers`;
  return `clew: ${count} from .mcp.json not started (${waiting.join(", ")}): this folder is not trusted. To allow them, run: clew trust ${JSON.stringify(folder)}`;
}
