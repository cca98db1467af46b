// allowedMcpServers / deniedMcpServers (spec §2.12): by name, exact argv and URL pattern; deny wins;
// blocked servers stay in the result, marked, so `mcp list` can show them and nothing starts them.
import { describe, expect, test } from "bun:test";
import { urlMatches } from "../../../../src/mcp/config/policy.ts";
import { mcpSpace } from "./fixture.ts";

function spaceWithServers() {
  const space = mcpSpace();
  space.write("home/.clew/clew.json", {
    mcpServers: {
      fs: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"] },
      other: { command: "python", args: ["srv.py"] },
      api: { type: "http", url: "https://mcp.example.com/v1/mcp" },
      evil: { type: "sse", url: "https://evil.test/sse" },
    },
  });
  return space;
}

function blocked(space: ReturnType<typeof mcpSpace>, settings: Record<string, unknown>) {
  const loaded = space.load({ settings });
  return { map: Object.fromEntries(loaded.servers.map((s) => [s.name, s.blocked ?? "ok"])), problems: loaded.problems };
}

describe("policy", () => {
  test("no lists: everything allowed", () => {
    expect(blocked(spaceWithServers(), {}).map).toEqual({ fs: "ok", other: "ok", api: "ok", evil: "ok" });
  });

  test("deny by name, by exact command and by URL pattern", () => {
    const result = blocked(spaceWithServers(), {
      deniedMcpServers: [{ serverName: "other" }, { serverCommand: ["npx", "-y", "@modelcontextprotocol/server-filesystem", "/tmp"] }, { serverUrl: "https://evil.test/*" }],
    });
    const denied = "blocked by deniedMcpServers in settings";
    expect(result.map).toEqual({ fs: denied, other: denied, api: "ok", evil: denied });
    expect(result.problems).toEqual([]);
  });

  test("a command entry matches the exact argv only", () => {
    const result = blocked(spaceWithServers(), { deniedMcpServers: [{ serverCommand: ["npx", "-y", "@modelcontextprotocol/server-filesystem"] }] });
    expect(result.map.fs).toBe("ok");
  });

  test("an allowlist of names; an empty allowlist blocks everything; deny beats allow", () => {
    const notIn = "not in allowedMcpServers in settings";
    expect(blocked(spaceWithServers(), { allowedMcpServers: [{ serverName: "fs" }, { serverName: "api" }] }).map).toEqual({ fs: "ok", other: notIn, api: "ok", evil: notIn });
    expect(blocked(spaceWithServers(), { allowedMcpServers: [] }).map).toEqual({ fs: notIn, other: notIn, api: notIn, evil: notIn });
    expect(blocked(spaceWithServers(), { allowedMcpServers: [{ serverName: "fs" }], deniedMcpServers: [{ serverName: "fs" }] }).map.fs).toBe("blocked by deniedMcpServers in settings");
  });

  test("once the allowlist has command (URL) entries, stdio (remote) servers must match one of them, not their name", () => {
    const notIn = "not in allowedMcpServers in settings";
    const result = blocked(spaceWithServers(), {
      allowedMcpServers: [{ serverName: "other" }, { serverName: "evil" }, { serverCommand: ["npx", "-y", "@modelcontextprotocol/server-filesystem", "/tmp"] }, { serverUrl: "https://mcp.example.com/*" }],
    });
    expect(result.map).toEqual({ fs: "ok", other: notIn, api: "ok", evil: notIn });
  });

  test("allowManagedMcpServersOnly: only the managed allowlist counts; deny lists still apply", () => {
    const result = blocked(spaceWithServers(), {
      allowManagedMcpServersOnly: true,
      allowedMcpServers: [{ serverName: "fs" }, { serverName: "other" }, { serverName: "api" }],
      managedAllowedMcpServers: [{ serverName: "other" }, { serverName: "api" }],
      deniedMcpServers: [{ serverName: "api" }],
    });
    const notIn = "not in the managed allowedMcpServers (allowManagedMcpServersOnly)";
    expect(result.map).toEqual({ fs: notIn, other: "ok", api: "blocked by deniedMcpServers in settings", evil: notIn });
  });

  test("malformed entries are reported and match nothing; the valid ones still deny", () => {
    const result = blocked(spaceWithServers(), { deniedMcpServers: [{ serverName: "other", serverUrl: "x" }, "fs", { serverName: "evil" }] });
    expect(result.map).toEqual({ fs: "ok", other: "ok", api: "ok", evil: "blocked by deniedMcpServers in settings" });
    expect(result.problems.map((p) => [p.type, p.keyPath, p.severity])).toEqual([
      ["policy", "deniedMcpServers[0]", "warning"],
      ["policy", "deniedMcpServers[1]", "warning"],
    ]);
  });

  test("URL patterns: * matches any run of characters, everything else literally", () => {
    expect(urlMatches("https://*.example.com/*", "https://mcp.example.com/v1")).toBe(true);
    expect(urlMatches("https://*.example.com/*", "https://mcp.exampleXcom/v1")).toBe(false);
    expect(urlMatches("https://a.test/mcp", "https://a.test/mcp/extra")).toBe(false);
  });

  test("policy applies to the expanded definition", () => {
    const space = mcpSpace();
    space.write("repo/app/.mcp.json", { mcpServers: { p: { type: "http", url: "${HOST}/mcp" } } });
    const loaded = space.load({ env: { HOST: "https://evil.test" }, settings: { deniedMcpServers: [{ serverUrl: "https://evil.test/*" }] } });
    expect(loaded.servers.map((s) => s.blocked)).toEqual(["blocked by deniedMcpServers in settings"]);
  });
});
