// Shared by the MCP integration tests: server entries for the fixture and npm test servers.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import type { McpServerConfig, McpServerEntry } from "../../src/mcp/types.ts";

export const MCP_SERVERS_DIR = resolve(import.meta.dir, "../mcp-servers");
export const FIXTURES = join(MCP_SERVERS_DIR, "fixtures");
export const EVERYTHING_BIN = join(MCP_SERVERS_DIR, "node_modules/.bin/mcp-server-everything");
export const FILESYSTEM_BIN = join(MCP_SERVERS_DIR, "node_modules/.bin/mcp-server-filesystem");

/** The npm servers are installed by .ci/run (`bun install` in test/mcp-servers); say how when they are not. */
export function requireTestServers(): void {
  if (!existsSync(EVERYTHING_BIN) || !existsSync(FILESYSTEM_BIN)) {
    throw new Error(`the test MCP servers are not installed: run \`bun install\` in ${MCP_SERVERS_DIR}`);
  }
}

export function entry(name: string, config: McpServerConfig): McpServerEntry {
  return { name, scope: "cli", origin: "test-config.json", config, missingVars: [], hash: name };
}

export function stdio(name: string, command: string, args: string[], extra: Partial<McpServerConfig> = {}): McpServerEntry {
  return entry(name, { type: "stdio", command, args, env: {}, ...extra } as McpServerConfig);
}

export function fixture(name: string, file: string, args: string[] = [], extra: Partial<McpServerConfig> = {}): McpServerEntry {
  return stdio(name, "bun", [join(FIXTURES, file), ...args], extra);
}

export function baseEnv(): Record<string, string> {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp" };
}

/** A free TCP port on localhost (the OS picks it). */
export function freePort(): number {
  const server = Bun.serve({ port: 0, fetch: () => new Response("") });
  const port = server.port;
  server.stop(true);
  if (port === undefined) throw new Error("no free port");
  return port;
}
