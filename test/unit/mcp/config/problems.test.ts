// One-line reports for stderr and stream-json's system/init.mcp_server_errors (spec §2.13).
import { describe, expect, test } from "bun:test";
import { formatMcpProblem, mcpServerInitErrors, untrustedProjectNotice } from "../../../../src/mcp/config/problems.ts";
import { mcpSpace } from "./fixture.ts";

describe("reporting problems", () => {
  test("file:line:column with the home directory shortened", () => {
    expect(formatMcpProblem({ file: "/home/me/p/.mcp.json", line: 3, column: 7, type: "json", message: "bad", severity: "error" }, "/home/me")).toBe("clew: ~/p/.mcp.json:3:7: bad");
    expect(formatMcpProblem({ file: "--mcp-config", type: "invalid_config", message: "worse", severity: "error" }, "/home/me")).toBe("clew: --mcp-config: worse");
  });

  test("init errors list each skipped server once, and not warnings about servers that still load", () => {
    const space = mcpSpace();
    space.write("repo/app/.mcp.json", {
      mcpServers: { noType: { url: "https://x" }, weird: { type: "grpc" }, workspace: { command: "x" }, "odd name": { command: "x" }, empty: {}, spaced: { command: "x " } },
    });
    const loaded = space.load();
    const names = new Set(loaded.servers.map((server) => server.name));
    expect(mcpServerInitErrors(loaded.problems, names)).toEqual([
      { name: "noType", type: "url_missing_type", message: 'MCP server "noType" has a "url" but no "type"; add "type": "http" (or "sse" / "ws") to this entry' },
      { name: "weird", type: "unknown_type", message: 'MCP server "weird" is skipped: unknown "type" "grpc"; use "stdio", "http" (or "streamable-http"), "sse" or "ws"' },
      { name: "workspace", type: "reserved_name", message: 'MCP server name "workspace" is reserved and the entry is skipped; rename it' },
      { name: "empty", type: "invalid_config", message: 'MCP server "empty" is skipped: it has no "command"; add the program to run (or a "type" and "url" for a remote server)' },
    ]);
  });

  test("headless notice names the waiting project servers and the trust command", () => {
    const space = mcpSpace();
    space.write("repo/app/.mcp.json", { mcpServers: { a: { command: "a" }, b: { command: "b" } } });
    space.write("home/.clew/clew.json", { mcpServers: { mine: { command: "m" } } });
    expect(untrustedProjectNotice(space.load({ trusted: false }).servers, space.repo)).toBe(
      `clew: 2 project MCP servers from .mcp.json not started (a, b): this folder is not trusted. To allow them, run: clew trust ${JSON.stringify(space.repo)}`,
    );
    expect(untrustedProjectNotice(space.load({ trusted: true }).servers, space.repo)).toBeUndefined();
  });
});
