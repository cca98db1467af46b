// `clew mcp …` on the compiled binary: definitions written to clew.json / .mcp.json with Claude
// Code's output, errors with exit 1, and `list` probing real servers (a real MCP server from
// test/mcp-servers, and a process that dies at once).
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { definitionHash } from "../../src/mcp/config/entry.ts";
import { rememberProjectChoice } from "../../src/mcp/config/approvals.ts";
import { git } from "../helpers/files.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";

const EVERYTHING = resolve(import.meta.dir, "../mcp-servers/node_modules/@modelcontextprotocol/server-everything/dist/index.js");

function workspace() {
  const root = tempDirectory("clew-mcp-cli-");
  const configDir = join(root, "home");
  const project = join(root, "proj");
  mkdirSync(configDir, { recursive: true });
  mkdirSync(project, { recursive: true });
  git(project, "init", "-q");
  const run = (args: string[], extra: { stdin?: string; env?: Record<string, string> } = {}) =>
    runClew(["mcp", ...args], { cwd: project, configDir, env: { MCP_TIMEOUT: "20000", ...extra.env }, ...(extra.stdin === undefined ? {} : { stdin: extra.stdin }) });
  const state = () => JSON.parse(readFileSync(join(configDir, "clew.json"), "utf8")) as Record<string, unknown>;
  return { root, configDir, project, run, state };
}

describe("clew mcp add / add-json", () => {
  test("stdio with -e and --: Claude Code's output, the entry in the local scope, other keys of clew.json kept", async () => {
    const space = workspace();
    writeFileSync(join(space.configDir, "clew.json"), JSON.stringify({ numStartups: 4, projects: { "/other": { keep: true } } }));
    const added = await space.run(["add", "mytool", "-e", "API_KEY=xyz", "-e", "MODE=a=b", "--", "python", "server.py", "--port", "8080"]);
    expect(added).toEqual({
      code: 0,
      stdout: `Added stdio MCP server mytool with command: python server.py --port 8080 to local config\nFile modified: ${join(space.configDir, "clew.json")} [project: ${space.project}]\n`,
      stderr: "",
    });
    expect(space.state()).toEqual({
      numStartups: 4,
      projects: {
        "/other": { keep: true },
        [space.project]: { mcpServers: { mytool: { type: "stdio", command: "python", args: ["server.py", "--port", "8080"], env: { API_KEY: "xyz", MODE: "a=b" } } } },
      },
    });
  });

  test("http with -H: header values redacted in the output, kept in the file; user scope", async () => {
    const space = workspace();
    const added = await space.run(["add", "--transport", "http", "-s", "user", "remote1", "https://mcp.example.com/mcp", "-H", "Authorization: Bearer s3cret", "-H", "X-Team: core"]);
    expect(added).toEqual({
      code: 0,
      stdout:
        "Added HTTP MCP server remote1 with URL: https://mcp.example.com/mcp to user config\n" +
        'Headers: {\n  "Authorization": "[REDACTED]",\n  "X-Team": "[REDACTED]"\n}\n' +
        `File modified: ${join(space.configDir, "clew.json")}\n`,
      stderr: "",
    });
    expect(space.state()).toEqual({ mcpServers: { remote1: { type: "http", url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer s3cret", "X-Team": "core" } } } });
    const got = await space.run(["get", "remote1"], { env: { MCP_TIMEOUT: "1" } });
    expect(got.stdout).not.toContain("s3cret");
    expect(got.stdout).toContain("  Headers:\n    Authorization: [REDACTED]\n    X-Team: [REDACTED]\n");
  });

  test("project scope writes .mcp.json in the current directory", async () => {
    const space = workspace();
    const added = await space.run(["add", "-s", "project", "-t", "sse", "events", "https://h.example/sse"]);
    expect(added.code).toBe(0);
    expect(added.stdout).toBe(`Added SSE MCP server events with URL: https://h.example/sse to project config\nFile modified: ${join(space.project, ".mcp.json")}\n`);
    expect(JSON.parse(readFileSync(join(space.project, ".mcp.json"), "utf8"))).toEqual({ mcpServers: { events: { type: "sse", url: "https://h.example/sse" } } });
    expect(existsSync(join(space.configDir, "clew.json"))).toBe(false);
  });

  test("bad input: duplicate name, a name swallowed by -e, bad scope and transport, reserved and odd names — exit 1, nothing written", async () => {
    const space = workspace();
    expect((await space.run(["add", "dup", "--", "node", "a.js"])).code).toBe(0);
    const before = readFileSync(join(space.configDir, "clew.json"), "utf8");
    const cases: Array<[string[], string]> = [
      [["add", "dup", "--", "node", "b.js"], "MCP server dup already exists in local config\n"],
      [["add", "-e", "KEY=value", "myserver", "--", "node", "x"], "error: Invalid environment variable format: myserver, environment variables should be added as: -e KEY1=value1 -e KEY2=value2\n"],
      [["add", "-s", "global", "x", "--", "node"], "error: Invalid scope: global. Must be one of: local, user, project\n"],
      [["add", "-t", "ws", "x", "wss://h"], "error: Invalid transport type: ws. Must be one of: stdio, sse, http\n"],
      [["add", "workspace", "--", "node"], 'error: "workspace" is a reserved MCP server name; choose another name\n'],
      [["add", "my tool", "--", "node"], "error: Invalid name my tool. Names can only contain letters, numbers, hyphens, and underscores.\n"],
      [["add", "-t", "http", "h", "https://h", "-H", "no colon"], 'error: Invalid header format: "no colon". Expected format: "Header-Name: value"\n'],
      [["add", "nocmd"], "error: missing required argument 'commandOrUrl'\n"],
    ];
    for (const [args, stderr] of cases) expect({ args, ...(await space.run(args)) }).toEqual({ args, code: 1, stdout: "", stderr });
    expect(readFileSync(join(space.configDir, "clew.json"), "utf8")).toBe(before);
  });

  test("add-json from an argument and from stdin; invalid JSON and invalid definitions name what is wrong", async () => {
    const space = workspace();
    const fromArg = await space.run(["add-json", "api", '{"type":"http","url":"https://a.example/mcp","headers":{"X":"y"}}']);
    expect(fromArg).toEqual({ code: 0, stdout: `Added HTTP MCP server api to local config\nFile modified: ${join(space.configDir, "clew.json")} [project: ${space.project}]\n`, stderr: "" });
    const fromStdin = await space.run(["add-json", "-s", "user", "tool", "-"], { stdin: '{"command":"node","args":["s.js"]}' });
    expect(fromStdin.code).toBe(0);
    expect(space.state()).toEqual({
      projects: { [space.project]: { mcpServers: { api: { type: "http", url: "https://a.example/mcp", headers: { X: "y" } } } } },
      mcpServers: { tool: { command: "node", args: ["s.js"] } },
    });
    expect(await space.run(["add-json", "broken", '{\n  "command": "node",\n  "args": [1,]\n}'])).toEqual({ code: 1, stdout: "", stderr: "error: Invalid JSON at line 3, column 14: expected a value\n" });
    expect(await space.run(["add-json", "remote", '{"url":"https://x"}'])).toEqual({
      code: 1,
      stdout: "",
      stderr: 'error: MCP server "remote" has a "url" but no "type"; add "type": "http" (or "sse" / "ws") to this entry\n',
    });
    expect(await space.run(["add-json", "grpc", '{"type":"grpc"}'])).toEqual({
      code: 1,
      stdout: "",
      stderr: 'error: MCP server "grpc" is skipped: unknown "type" "grpc"; use "stdio", "http" (or "streamable-http"), "sse" or "ws"\n',
    });
  });
});

describe("clew mcp get / remove", () => {
  test("get shows scope, status, type, command, args, environment and the remove hint; unknown names exit 1", async () => {
    const space = workspace();
    await space.run(["add", "dies", "-e", "A=1", "--", "node", "-e", "process.exit(3)"]);
    const got = await space.run(["get", "dies"]);
    expect(got.code).toBe(0);
    const lines = got.stdout.split("\n");
    expect(lines[0]).toBe("dies:");
    expect(lines[1]).toBe("  Scope: Local config (private to you in this project)");
    expect(lines[2]).toStartWith("  Status: ✘ Failed to connect — ");
    expect(lines.slice(3)).toEqual(["  Type: stdio", "  Command: node", "  Args: -e process.exit(3)", "  Environment:", "    A=1", "", "To remove this server, run: clew mcp remove dies -s local", ""]);
    expect(await space.run(["get", "nope"])).toEqual({ code: 1, stdout: "", stderr: "No MCP server found with name: nope\n" });
  });

  test("remove finds the scope by itself, needs -s when two scopes have the name, and says when nothing matches", async () => {
    const space = workspace();
    await space.run(["add", "both", "--", "node", "local.js"]);
    await space.run(["add", "-s", "user", "both", "--", "node", "user.js"]);
    await space.run(["add", "-s", "user", "solo", "--", "node", "solo.js"]);
    const ambiguous = await space.run(["remove", "both"]);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toBe('MCP server "both" exists in multiple scopes: local, user\nRemove it from one with: clew mcp remove both -s <scope> (one of local, user)\n');
    expect(await space.run(["remove", "both", "-s", "user"])).toEqual({ code: 0, stdout: `Removed MCP server both from user config\nFile modified: ${join(space.configDir, "clew.json")}\n`, stderr: "" });
    expect((await space.run(["remove", "solo"])).stdout).toBe(`Removed MCP server solo from user config\nFile modified: ${join(space.configDir, "clew.json")}\n`);
    expect(await space.run(["remove", "solo"])).toEqual({ code: 1, stdout: "", stderr: "No MCP server found with name: solo\n" });
    expect(await space.run(["remove", "-s", "project", "both"])).toEqual({ code: 1, stdout: "", stderr: "No project MCP server found with name: both\n" });
    expect(space.state()).toEqual({ projects: { [space.project]: { mcpServers: { both: { type: "stdio", command: "node", args: ["local.js"], env: {} } } } }, mcpServers: {} });
  });
});

describe("clew mcp list", () => {
  test("a connected real server, a failing one, a pending project server, an untrusted folder, and the diagnostics block", async () => {
    expect(existsSync(EVERYTHING)).toBe(true);
    const space = workspace();
    await space.run(["add", "-s", "user", "everything", "--", "node", EVERYTHING, "stdio"]);
    await space.run(["add", "dies", "--", "node", "-e", "process.exit(3)"]);
    writeFileSync(join(space.project, ".mcp.json"), JSON.stringify({ mcpServers: { proj1: { command: "echo", args: ["${NOPE}"] }, bad: { url: "https://x" } } }));

    const untrusted = await space.run(["list"]);
    expect(untrusted.stdout).toContain("proj1: echo ${NOPE} - ⏸ Waiting for trust (run `clew trust` in this folder, then `clew` to approve)\n");

    expect((await runClew(["trust"], { cwd: space.project, configDir: space.configDir })).code).toBe(0);
    const listed = await space.run(["list"]);
    expect(listed.code).toBe(0);
    const [head, diagnostics] = listed.stdout.split("\n\nMCP config diagnostics ⚠\n");
    const lines = (head ?? "").split("\n");
    expect(lines.slice(0, 2)).toEqual(["Checking MCP server health…", ""]);
    expect(lines[2]).toStartWith("dies: node -e process.exit(3) - ✘ Failed to connect — ");
    expect(lines.slice(3)).toEqual([`proj1: echo \${NOPE} - ⏸ Pending approval (run \`clew\` to approve)`, `everything: node ${EVERYTHING} stdio - ✔ Connected`]);
    expect(diagnostics).toBe(
      "[Has warnings] Project config (shared via .mcp.json)\n" +
        `Location: ${join(space.project, ".mcp.json")}\n` +
        ' └ [Warning] [proj1] mcpServers.proj1: MCP server "proj1" uses ${NOPE}, which is not set and has no default, so the text is used as written; set NOPE or write ${NOPE:-default}\n' +
        ' └ [Warning] [bad] mcpServers.bad: MCP server "bad" has a "url" but no "type"; add "type": "http" (or "sse" / "ws") to this entry\n',
    );
  });

  test("a remembered rejection shows until reset-project-choices; a settings rejection and policy blocks show as such", async () => {
    const space = workspace();
    const definition = { command: "node", args: ["-e", "process.exit(0)"] };
    writeFileSync(join(space.project, ".mcp.json"), JSON.stringify({ mcpServers: { proj: definition, off: definition } }));
    mkdirSync(join(space.project, ".clew"));
    writeFileSync(join(space.project, ".clew", "settings.local.json"), JSON.stringify({ disabledMcpjsonServers: ["off"] }));
    writeFileSync(join(space.configDir, "settings.json"), JSON.stringify({ deniedMcpServers: [{ serverName: "blockedOne" }] }));
    await space.run(["add", "-s", "user", "blockedOne", "--", "node", "x.js"]);
    await runClew(["trust"], { cwd: space.project, configDir: space.configDir });
    rememberProjectChoice(space.configDir, space.project, "proj", definitionHash(definition), "rejected");

    const before = await space.run(["list"]);
    expect(before).toEqual({
      code: 0,
      stderr: "",
      stdout:
        "Checking MCP server health…\n\n" +
        "proj: node -e process.exit(0) - ✘ Rejected (run `clew mcp reset-project-choices` to be asked again)\n" +
        "off: node -e process.exit(0) - ✘ Rejected (see disabledMcpjsonServers in settings)\n" +
        "blockedOne: node x.js - ⊘ Blocked (blocked by deniedMcpServers in settings)\n",
    });
    const reset = await space.run(["reset-project-choices"]);
    expect(reset.code).toBe(0);
    expect(reset.stdout).toStartWith("All project-scoped (.mcp.json) server approvals and rejections have been reset (1 remembered answer).\n");
    expect((await space.run(["list"])).stdout).toContain("proj: node -e process.exit(0) - ⏸ Pending approval (run `clew` to approve)\n");
  });

  test("no servers: says how to add one", async () => {
    const space = workspace();
    expect(await space.run(["list"])).toEqual({ code: 0, stdout: "No MCP servers configured. Use `clew mcp add` to add a server.\n", stderr: "" });
  });
});
