// Every validation rule of a server entry (spec §2.2), with its message and whether the entry loads.
import { describe, expect, test } from "bun:test";
import { mcpSpace } from "./fixture.ts";

function loadOne(definitions: Record<string, unknown>) {
  const space = mcpSpace();
  const file = space.write("repo/app/.mcp.json", { mcpServers: definitions });
  return { file, ...space.load() };
}

describe("server entries", () => {
  test("type defaults to stdio, streamable-http is http, optional fields are kept", () => {
    const { servers, problems } = loadOne({
      plain: { command: "node", args: ["s.js"], timeout: 5000, alwaysLoad: true },
      streamable: { type: "streamable-http", url: "https://h/mcp", headers: { A: "b" }, headersHelper: "/bin/h", oauth: { clientId: "abc", callbackPort: 8080 } },
      socket: { type: "ws", url: "wss://h/s" },
    });
    expect(problems).toEqual([]);
    expect(servers.map((s) => s.config)).toEqual([
      { type: "stdio", command: "node", args: ["s.js"], env: {}, timeout: 5000, alwaysLoad: true },
      { type: "http", url: "https://h/mcp", headers: { A: "b" }, headersHelper: "/bin/h", oauth: { clientId: "abc", callbackPort: 8080 } },
      { type: "ws", url: "wss://h/s", headers: {} },
    ]);
  });

  test("a url without a type is skipped with Claude Code's message", () => {
    const { file, servers, problems } = loadOne({ bad: { url: "https://h/mcp" } });
    expect(servers).toEqual([]);
    expect(problems).toEqual([
      { file, keyPath: "mcpServers.bad", server: "bad", type: "url_missing_type", severity: "warning", message: 'MCP server "bad" has a "url" but no "type"; add "type": "http" (or "sse" / "ws") to this entry' },
    ]);
  });

  test("an unknown type, a missing command, a remote server without url and a non-object are skipped as errors", () => {
    const { file, servers, problems } = loadOne({ weird: { type: "grpc", url: "x" }, nocmd: { args: ["x"] }, emptycmd: { command: "" }, nourl: { type: "sse" }, text: "npx server", ok: { command: "x" } });
    expect(servers.map((s) => s.name)).toEqual(["ok"]);
    expect(problems).toEqual([
      { file, keyPath: "mcpServers.weird.type", server: "weird", type: "unknown_type", severity: "error", message: 'MCP server "weird" is skipped: unknown "type" "grpc"; use "stdio", "http" (or "streamable-http"), "sse" or "ws"' },
      { file, keyPath: "mcpServers.nocmd.command", server: "nocmd", type: "invalid_config", severity: "error", message: 'MCP server "nocmd" is skipped: it has no "command"; add the program to run (or a "type" and "url" for a remote server)' },
      { file, keyPath: "mcpServers.emptycmd.command", server: "emptycmd", type: "invalid_config", severity: "error", message: 'MCP server "emptycmd" is skipped: it has no "command"; add the program to run (or a "type" and "url" for a remote server)' },
      { file, keyPath: "mcpServers.nourl.url", server: "nourl", type: "invalid_config", severity: "error", message: 'MCP server "nourl" is skipped: a "sse" server needs a "url"; add it (an empty string means "not configured yet")' },
      { file, keyPath: "mcpServers.text", server: "text", type: "invalid_config", severity: "error", message: 'MCP server "text" is skipped: its definition must be a JSON object with a "command" (or a "type" and a "url")' },
    ]);
  });

  test("fields of the wrong shape name the key and skip the entry", () => {
    const { file, servers, problems } = loadOne({ shapes: { command: "x", args: ["ok", 3], env: { A: true }, timeout: -1 } });
    expect(servers).toEqual([]);
    expect(problems).toEqual([
      { file, keyPath: "mcpServers.shapes.timeout", server: "shapes", type: "invalid_config", severity: "error", message: expect.stringMatching(/^MCP server "shapes" is skipped: mcpServers\.shapes\.timeout: .+; fix this field$/) },
      { file, keyPath: "mcpServers.shapes.args[1]", server: "shapes", type: "invalid_config", severity: "error", message: 'MCP server "shapes" is skipped: mcpServers.shapes.args[1]: expected string, received number; fix this field' },
      { file, keyPath: "mcpServers.shapes.env.A", server: "shapes", type: "invalid_config", severity: "error", message: 'MCP server "shapes" is skipped: mcpServers.shapes.env.A: expected string, received boolean; fix this field' },
    ]);
  });

  test("reserved names are skipped with a warning; other odd names load with one", () => {
    const { file, servers, problems } = loadOne({ workspace: { command: "x" }, "Claude Preview": { command: "x" }, "my server": { command: "x" } });
    expect(servers.map((s) => s.name)).toEqual(["my server"]);
    expect(problems).toEqual([
      { file, keyPath: "mcpServers.workspace", server: "workspace", type: "reserved_name", severity: "warning", message: 'MCP server name "workspace" is reserved and the entry is skipped; rename it' },
      { file, keyPath: "mcpServers.Claude Preview", server: "Claude Preview", type: "reserved_name", severity: "warning", message: 'MCP server name "Claude Preview" is reserved and the entry is skipped; rename it' },
      {
        file,
        keyPath: "mcpServers.my server",
        server: "my server",
        type: "invalid_config",
        severity: "warning",
        message: 'MCP server name "my server" should use only letters, digits, "-" and "_"; its tools get the other characters replaced by "_" — rename it to keep tool names predictable',
      },
    ]);
  });

  test("leading or trailing whitespace is warned about and kept as written", () => {
    const { file, servers, problems } = loadOne({ spaced: { command: "node ", args: [" a"], env: { " K": "v " } }, remote: { type: "http", url: " https://h", headers: { H: "x " } } });
    expect(servers.map((s) => s.config)).toEqual([
      { type: "stdio", command: "node ", args: [" a"], env: { " K": "v " } },
      { type: "http", url: " https://h", headers: { H: "x " } },
    ]);
    expect(problems.map((p) => [p.file, p.server, p.type, p.severity, p.keyPath])).toEqual([
      [file, "spaced", "whitespace", "warning", "mcpServers.spaced.command"],
      [file, "spaced", "whitespace", "warning", "mcpServers.spaced.args[0]"],
      [file, "spaced", "whitespace", "warning", "mcpServers.spaced.env"],
      [file, "spaced", "whitespace", "warning", "mcpServers.spaced.env. K"],
      [file, "remote", "whitespace", "warning", "mcpServers.remote.url"],
      [file, "remote", "whitespace", "warning", "mcpServers.remote.headers.H"],
    ]);
    expect(problems[0]?.message).toBe('MCP server "spaced": command "node " has leading or trailing whitespace; it is used as written — remove the spaces if they are not meant');
  });

  test("an empty url is 'not configured': kept, with no problem", () => {
    const { servers, problems } = loadOne({ later: { type: "http", url: "" } });
    expect(problems).toEqual([]);
    expect(servers.map((s) => s.config)).toEqual([{ type: "http", url: "", headers: {} }]);
  });

  test("an invalid stronger definition does not hide a valid weaker one, and a shadowed one reports nothing", () => {
    const space = mcpSpace();
    space.write("home/.clew/clew.json", { mcpServers: { dup: { command: "user" }, shadow: { url: "no-type" } }, projects: { [space.cwd]: { mcpServers: { dup: { type: "nope" }, shadow: { command: "local" } } } } });
    const loaded = space.load();
    expect(loaded.servers.map((s) => [s.name, s.scope, s.config.type === "stdio" ? s.config.command : ""])).toEqual([
      ["shadow", "local", "local"],
      ["dup", "user", "user"],
    ]);
    expect(loaded.problems.map((p) => [p.server, p.type])).toEqual([["dup", "unknown_type"]]);
  });
});
