// Where servers come from and which definition wins (spec §2.1), ${VAR} expansion (§2.3), and
// broken files reported with their position while everything else still loads.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { definitionHash } from "../../../../src/mcp/config/entry.ts";
import { MANAGED_EXCLUSIVE_MESSAGE } from "../../../../src/mcp/config/load.ts";
import { mcpSpace, stdio } from "./fixture.ts";

function summary(servers: ReadonlyArray<{ name: string; scope: string; origin: string; config: unknown }>) {
  return servers.map(({ name, scope, origin, config }) => ({ name, scope, origin, config }));
}

describe("sources and precedence", () => {
  test("cli > local > project (nearest first) > user, each name taking the strongest definition whole", () => {
    const space = mcpSpace();
    const state = space.write("home/.clew/clew.json", {
      numStartups: 3,
      mcpServers: { shared: { command: "user-cmd", env: { ONLY_USER: "1" } }, userOnly: stdio("u") },
      projects: { [space.cwd]: { mcpServers: { shared: { command: "local-cmd" }, localOnly: stdio("l") } }, "/elsewhere": { mcpServers: { far: stdio("f") } } },
    });
    const near = space.write("repo/app/.mcp.json", { mcpServers: { nearProject: stdio("near"), both: stdio("near-both"), shared: stdio("project-cmd") } });
    const far = space.write("repo/.mcp.json", { mcpServers: { both: stdio("far-both"), farProject: { type: "http", url: "https://x/mcp" } } });
    const cli = space.write("cli.json", { mcpServers: { localOnly: stdio("from-cli") } });
    const loaded = space.load({ cliConfigs: [cli, '{"mcpServers":{"inline":{"command":"i"}}}'] });
    const plain = (command: string, args: string[] = [], env: Record<string, string> = {}) => ({ type: "stdio", command, args, env });
    expect(summary(loaded.servers)).toEqual([
      { name: "localOnly", scope: "cli", origin: cli, config: plain("from-cli") },
      { name: "inline", scope: "cli", origin: "--mcp-config", config: plain("i") },
      { name: "shared", scope: "local", origin: state, config: plain("local-cmd") },
      { name: "nearProject", scope: "project", origin: near, config: plain("near") },
      { name: "both", scope: "project", origin: near, config: plain("near-both") },
      { name: "farProject", scope: "project", origin: far, config: { type: "http", url: "https://x/mcp", headers: {} } },
      { name: "userOnly", scope: "user", origin: state, config: plain("u") },
    ]);
    expect(loaded.problems).toEqual([]);
    expect(loaded.managed).toBe(false);
  });

  test("a .mcp.json above the repository root is not read; outside a repository only cwd's is", () => {
    const space = mcpSpace();
    space.write(".mcp.json", { mcpServers: { above: stdio("x") } });
    expect(space.load().servers).toEqual([]);
    space.write("repo/app/.mcp.json", { mcpServers: { here: stdio("x") } });
    space.write("repo/.mcp.json", { mcpServers: { root: stdio("x") } });
    expect(space.load({ projectRoot: undefined }).servers.map((s) => s.name)).toEqual(["here"]);
  });

  test("--strict-mcp-config loads only the --mcp-config servers", () => {
    const space = mcpSpace();
    space.write("home/.clew/clew.json", { mcpServers: { user: stdio("u") } });
    space.write("repo/app/.mcp.json", { mcpServers: { project: stdio("p") } });
    const loaded = space.load({ strict: true, cliConfigs: ['{"mcpServers":{"only":{"type":"sse","url":"http://h/sse"}}}'] });
    expect(loaded.servers.map((s) => [s.name, s.scope])).toEqual([["only", "cli"]]);
    expect(space.load({ strict: true }).servers).toEqual([]);
  });

  test("a managed-mcp.json decides alone, and --mcp-config next to it is refused with Claude Code's message", () => {
    const space = mcpSpace();
    const second = join(space.root, "managed2");
    space.write("managed2/managed-mcp.json", { mcpServers: { notUsed: stdio("n") } });
    const managed = space.write("managed/managed-mcp.json", { mcpServers: { corp: stdio("corp-server") } });
    space.write("home/.clew/clew.json", { mcpServers: { user: stdio("u") } });
    space.write("repo/app/.mcp.json", { mcpServers: { project: stdio("p") } });
    const loaded = space.load({ managedDirs: [space.managedDir, second] });
    expect(summary(loaded.servers)).toEqual([{ name: "corp", scope: "managed", origin: managed, config: { type: "stdio", command: "corp-server", args: [], env: {} } }]);
    expect(loaded.managed).toBe(true);
    expect(() => space.load({ cliConfigs: ['{"mcpServers":{}}'] })).toThrow(expect.objectContaining({ code: "usage", message: `Error: ${MANAGED_EXCLUSIVE_MESSAGE}` }));
    expect(() => space.load({ strict: true })).toThrow(expect.objectContaining({ code: "usage" }));
  });

  test("a broken managed file still shuts the other sources out", () => {
    const space = mcpSpace();
    const file = space.write("managed/managed-mcp.json", "{ oops");
    space.write("home/.clew/clew.json", { mcpServers: { user: stdio("u") } });
    const loaded = space.load();
    expect(loaded.servers).toEqual([]);
    expect(loaded.problems).toEqual([
      expect.objectContaining({ file, line: 1, column: 3, type: "json", severity: "error" }),
    ]);
  });
});

describe("broken files", () => {
  test("invalid JSON is reported with file, line and column and what to do; other sources still load", () => {
    const space = mcpSpace();
    const file = space.write("repo/app/.mcp.json", '{\n  "mcpServers": {\n    "a": { "command": "x" }\n    "b": {}\n  }\n}\n');
    space.write("home/.clew/clew.json", { mcpServers: { user: stdio("u") } });
    const loaded = space.load();
    expect(loaded.servers.map((s) => s.name)).toEqual(["user"]);
    expect(loaded.problems).toEqual([
      {
        file,
        line: 4,
        column: 5,
        type: "json",
        severity: "error",
        message: `The project MCP configuration ${file} is not valid JSON at line 4, column 5: expected ','; none of its MCP servers load until it is fixed`,
      },
    ]);
  });

  test("a broken inline --mcp-config, a missing --mcp-config file and a wrongly shaped mcpServers are each reported", () => {
    const space = mcpSpace();
    const shaped = space.write("repo/app/.mcp.json", { mcpServers: ["not", "an", "object"] });
    const loaded = space.load({ cliConfigs: ['{"mcpServers": {', "missing.json"] });
    expect(loaded.servers).toEqual([]);
    expect(loaded.problems).toEqual([
      expect.objectContaining({ file: "--mcp-config", type: "json", line: 1, column: 17 }),
      expect.objectContaining({ file: join(space.cwd, "missing.json"), type: "invalid_config", severity: "error" }),
      expect.objectContaining({ file: shaped, keyPath: "mcpServers", type: "invalid_config" }),
    ]);
  });

  test("a broken clew.json is reported, and the project servers still load", () => {
    const space = mcpSpace();
    const file = space.write("home/.clew/clew.json", "{\n\n  mcpServers: {}\n}");
    space.write("repo/app/.mcp.json", { mcpServers: { p: stdio("p") } });
    const loaded = space.load();
    expect(loaded.servers.map((s) => s.name)).toEqual(["p"]);
    expect(loaded.problems).toEqual([expect.objectContaining({ file, line: 3, column: 3, type: "json" })]);
  });
});

describe("${VAR} expansion", () => {
  test("expands command, args, env, url and headers; defaults apply when unset; missing ones keep their text and are reported", () => {
    const space = mcpSpace();
    const file = space.write("repo/app/.mcp.json", {
      mcpServers: {
        local: { command: "${BIN_DIR}/server", args: ["--port", "${PORT:-8080}", "${NOPE}"], env: { TOKEN: "${TOKEN}", KEEP: "plain" } },
        remote: { type: "http", url: "${BASE:-https://api.example.com}/mcp", headers: { Authorization: "Bearer ${TOKEN}", "X-Missing": "${ALSO_NOPE:-}" } },
      },
    });
    const raw = { command: "${BIN_DIR}/server", args: ["--port", "${PORT:-8080}", "${NOPE}"], env: { TOKEN: "${TOKEN}", KEEP: "plain" } };
    const loaded = space.load({ env: { BIN_DIR: "/opt/bin", TOKEN: "s3cret" } });
    expect(loaded.servers.map(({ name, config, missingVars }) => ({ name, config, missingVars }))).toEqual([
      { name: "local", config: { type: "stdio", command: "/opt/bin/server", args: ["--port", "8080", "${NOPE}"], env: { TOKEN: "s3cret", KEEP: "plain" } }, missingVars: ["NOPE"] },
      { name: "remote", config: { type: "http", url: "https://api.example.com/mcp", headers: { Authorization: "Bearer s3cret", "X-Missing": "" } }, missingVars: [] },
    ]);
    expect(loaded.problems).toEqual([
      {
        file,
        keyPath: "mcpServers.local",
        server: "local",
        type: "missing_env",
        severity: "warning",
        message: 'MCP server "local" uses ${NOPE}, which is not set and has no default, so the text is used as written; set NOPE or write ${NOPE:-default}',
      },
    ]);
    // The hash is of the definition as written, so it does not change with the environment.
    expect(loaded.servers[0]?.hash).toBe(definitionHash(raw));
    expect(space.load({ env: {} }).servers[0]?.hash).toBe(definitionHash(raw));
  });
});
