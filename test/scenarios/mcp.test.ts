// MCP servers in a session, against the compiled binary: a real server from the npm registry
// (server-everything) configured in .mcp.json of a trusted folder and through --mcp-config, its
// tools offered and called from a fake-API scenario; a server killed mid-call gives an is_error
// result and the run finishes; a server that never answers does not hold the first request past
// the bounded wait; an untrusted folder's project servers are not started; a failed server is
// reported in system/init while the session goes on.
import { afterEach, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startFakeAnthropic, toolNames, toolResults, type FakeServer, type RecordedRequest } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";
import { parseFrames, systemFrames } from "../helpers/scenario.ts";
import { EVERYTHING_BIN, FILESYSTEM_BIN, FIXTURES, baseEnv, freePort, requireTestServers } from "../integration/mcp-helpers.ts";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
beforeAll(() => requireTestServers());

const everything = { command: EVERYTHING_BIN, args: ["stdio"] };
const fixture = (...args: string[]) => ({ command: "bun", args: [join(FIXTURES, "sdk-server.ts"), ...args] });
const raw = (mode: string) => ({ command: "bun", args: [join(FIXTURES, "raw-fault-server.ts"), mode] });

describe("MCP in a session", () => {
  test("server-everything from a trusted folder's .mcp.json: its tools are offered, a call returns its result", async () => {
    const dir = tempDirectory("clew-mcp-");
    const configDir = tempDirectory("clew-config-");
    writeFileSync(join(dir, ".mcp.json"), JSON.stringify({ mcpServers: { everything } }));
    expect((await runClew(["trust"], { cwd: dir, configDir })).code).toBe(0);
    server = await startFakeAnthropic({ script: [reply().toolUse("mcp__everything__echo", { message: "hello from the model" }), reply().text("echoed")] });
    const run = await runClew(["-p", "echo something", "--allowedTools", "mcp__everything", "--output-format", "stream-json", "--verbose"], { cwd: dir, baseURL: server.url, configDir });
    expect(run.code).toBe(0);
    expect(server.violations).toEqual([]);
    const offered = toolNames(server.requests[0] as RecordedRequest);
    expect(offered).toContain("mcp__everything__echo");
    expect(offered.filter((name) => name.startsWith("mcp__everything__")).length).toBeGreaterThan(5);
    const result = toolResults(server.requests[1] as RecordedRequest)[0];
    expect(result?.isError).toBe(false);
    expect(result?.text).toContain("hello from the model");
    const init = systemFrames(parseFrames(run.stdout), "init")[0] as Record<string, unknown>;
    expect(init.mcp_servers).toEqual([{ name: "everything", status: "connected" }]);
  }, 60_000);

  test("structuredContent checked against the tool's outputSchema (by the binary's validator) reaches the json result's data", async () => {
    const dir = tempDirectory("clew-mcp-");
    server = await startFakeAnthropic({ script: [reply().toolUse("mcp__everything__get-structured-content", { location: "New York" }), reply().text("weather known")] });
    const run = await runClew(["-p", "weather", "--allowedTools", "mcp__everything", "--output-format", "stream-json", "--verbose", "--mcp-config", JSON.stringify({ mcpServers: { everything } })], { cwd: dir, baseURL: server.url, configDir: tempDirectory("clew-config-") });
    expect(run.code).toBe(0);
    const result = toolResults(server.requests[1] as RecordedRequest)[0];
    expect(result?.isError).toBe(false);
    const frame = parseFrames(run.stdout).find((candidate) => candidate.type === "user" && candidate.tool_use_result !== undefined) as Record<string, unknown>;
    expect(frame.tool_use_result).toMatchObject({ temperature: expect.any(Number), conditions: expect.any(String) });
  }, 60_000);

  test("without an allow rule the call is refused headless, naming the rule that would allow it", async () => {
    const dir = tempDirectory("clew-mcp-");
    server = await startFakeAnthropic({ script: [reply().toolUse("mcp__everything__echo", { message: "x" }), reply().text("ok")] });
    const run = await runClew(["-p", "echo", "--mcp-config", JSON.stringify({ mcpServers: { everything } })], { cwd: dir, baseURL: server.url, configDir: tempDirectory("clew-config-") });
    expect(run.code).toBe(0);
    const result = toolResults(server.requests[1] as RecordedRequest)[0];
    expect(result?.isError).toBe(true);
    expect(result?.text).toContain("mcp__everything__echo");
  }, 60_000);

  test("a server killed mid-call gives an is_error result and the run finishes", async () => {
    const dir = tempDirectory("clew-mcp-");
    server = await startFakeAnthropic({ script: [reply().toolUse("mcp__fx__exit", {}), reply().text("the server died; moving on")] });
    const run = await runClew(["-p", "go", "--mcp-config", JSON.stringify({ mcpServers: { fx: fixture() } }), "--allowedTools", "mcp__fx"], { cwd: dir, baseURL: server.url, configDir: tempDirectory("clew-config-") });
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe("the server died; moving on");
    const result = toolResults(server.requests[1] as RecordedRequest)[0];
    expect(result?.isError).toBe(true);
    expect(result?.text).toContain("fx");
  }, 60_000);

  test("a server that never answers initialize holds the first request only for the bounded wait; the good one still works", async () => {
    const dir = tempDirectory("clew-mcp-");
    server = await startFakeAnthropic({ script: [reply().text("done")] });
    const run = await runClew(["-p", "go", "--output-format", "stream-json", "--verbose", "--mcp-config", JSON.stringify({ mcpServers: { silent: raw("silent"), fx: fixture() } })], {
      cwd: dir, baseURL: server.url, configDir: tempDirectory("clew-config-"), env: { MCP_CONNECT_TIMEOUT_MS: "1500", MCP_TIMEOUT: "60000" },
    });
    expect(run.code).toBe(0);
    // The first request went out while the silent server was still pending (MCP_TIMEOUT is 60 s).
    const offered = toolNames(server.requests[0] as RecordedRequest);
    expect(offered).toContain("mcp__fx__echo");
    expect(offered.some((name) => name.startsWith("mcp__silent__"))).toBe(false);
    const init = systemFrames(parseFrames(run.stdout), "init")[0] as Record<string, unknown>;
    expect(init.mcp_servers).toEqual([{ name: "fx", status: "connected" }, { name: "silent", status: "pending" }]);
  }, 60_000);

  test("an untrusted folder's .mcp.json starts no process: one stderr line names clew trust", async () => {
    const dir = tempDirectory("clew-mcp-");
    const marker = join(dir, "server-started");
    writeFileSync(join(dir, ".mcp.json"), JSON.stringify({ mcpServers: { local: { command: "sh", args: ["-c", `touch ${marker}; sleep 5`] } } }));
    server = await startFakeAnthropic({ script: [reply().text("done")] });
    const run = await runClew(["-p", "go"], { cwd: dir, baseURL: server.url, configDir: tempDirectory("clew-config-") });
    expect(run.code).toBe(0);
    const lines = run.stderr.split("\n").filter((line) => line.includes("clew trust"));
    expect(lines.length).toBe(1);
    expect(lines[0]).toContain("local");
    expect(existsSync(marker)).toBe(false);
  }, 60_000);

  test("/mcp__server__prompt args sends the server's prompt; @server:uri attaches the resource", async () => {
    const dir = tempDirectory("clew-mcp-");
    const config = ["--mcp-config", JSON.stringify({ mcpServers: { fx: fixture() } })];
    server = await startFakeAnthropic({ script: [reply().text("hello!")] });
    const prompted = await runClew(["-p", "/mcp__fx__greet Ada cheerful", ...config], { cwd: dir, baseURL: server.url, configDir: tempDirectory("clew-config-") });
    expect(prompted.code).toBe(0);
    expect(JSON.stringify(server.requests[0]?.body.messages)).toContain("Say hello to Ada in a cheerful way.");
    await server.close();
    server = await startFakeAnthropic({ script: [reply().text("read it")] });
    const mentioned = await runClew(["-p", "summarise @fx:fixture://notes please", ...config], { cwd: dir, baseURL: server.url, configDir: tempDirectory("clew-config-") });
    expect(mentioned.code).toBe(0);
    expect(JSON.stringify(server.requests[0]?.body.messages)).toContain("These are the fixture notes.");
  }, 60_000);

  test("server-everything over streamable HTTP and server-filesystem over stdio, called from one run", async () => {
    const dir = tempDirectory("clew-mcp-");
    writeFileSync(join(dir, "notes.txt"), "FILESYSTEM-MARKER\n");
    const port = freePort();
    const http = Bun.spawn(["bun", EVERYTHING_BIN, "streamableHttp"], { env: { ...baseEnv(), PORT: String(port) }, stdout: "ignore", stderr: "ignore" });
    try {
      let up = false;
      for (let attempt = 0; attempt < 100 && !up; attempt++) {
        up = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(500) }).then(() => true, () => false);
        if (!up) await Bun.sleep(100);
      }
      expect(up).toBe(true);
      const servers = { remote: { type: "http", url: `http://127.0.0.1:${port}/mcp` }, files: { command: FILESYSTEM_BIN, args: [dir] } };
      server = await startFakeAnthropic({
        script: [
          reply().toolUse("mcp__remote__echo", { message: "over http" }).toolUse("mcp__files__read_text_file", { path: join(dir, "notes.txt") }),
          reply().text("both answered"),
        ],
      });
      const run = await runClew(["-p", "go", "--mcp-config", JSON.stringify({ mcpServers: servers }), "--allowedTools", "mcp__remote", "mcp__files"], { cwd: dir, baseURL: server.url, configDir: tempDirectory("clew-config-") });
      expect(run.code).toBe(0);
      const results = toolResults(server.requests[1] as RecordedRequest);
      expect(results.map((result) => result.isError)).toEqual([false, false]);
      expect(results[0]?.text).toContain("over http");
      expect(results[1]?.text).toContain("FILESYSTEM-MARKER");
    } finally {
      http.kill();
    }
  }, 60_000);

  test("MCP_CONNECTION_NONBLOCKING=1: the first request goes out without waiting; the servers start after it", async () => {
    const dir = tempDirectory("clew-mcp-");
    const marker = join(dir, "server-started");
    const late = { command: "sh", args: ["-c", `touch ${marker}; exec bun ${join(FIXTURES, "sdk-server.ts")}`] };
    server = await startFakeAnthropic({ script: [reply().toolUse("Bash", { command: "sleep 1" }), reply().text("done")] });
    const run = await runClew(["-p", "go", "--permission-mode", "bypassPermissions", "--mcp-config", JSON.stringify({ mcpServers: { late } })], {
      cwd: dir, baseURL: server.url, configDir: tempDirectory("clew-config-"), env: { MCP_CONNECTION_NONBLOCKING: "1" },
    });
    expect(run.code).toBe(0);
    expect(toolNames(server.requests[0] as RecordedRequest).some((name) => name.startsWith("mcp__"))).toBe(false);
    expect(existsSync(marker)).toBe(true);
  }, 60_000);

  test("headersHelper: its JSON output is merged into a remote server's headers; a failing helper is reported by name", async () => {
    const seen: Array<Record<string, string>> = [];
    const remote = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (request) => {
      seen.push(Object.fromEntries(request.headers));
      return new Response("no", { status: 500 });
    } });
    try {
      const url = `http://127.0.0.1:${remote.port}/mcp`;
      const servers = {
        good: { type: "http", url, headers: { "X-Static": "s" }, headersHelper: "echo '{\"X-Token\": \"from-helper\"}'" },
        bad: { type: "http", url: `${url}?bad`, headersHelper: "echo not-json" },
      };
      server = await startFakeAnthropic({ script: [reply().text("done")] });
      const run = await runClew(["-p", "go", "--mcp-config", JSON.stringify({ mcpServers: servers })], { cwd: tempDirectory("clew-mcp-"), baseURL: server.url, configDir: tempDirectory("clew-config-"), env: { MCP_CONNECT_TIMEOUT_MS: "3000" } });
      expect(run.code).toBe(0);
      expect(seen.some((headers) => headers["x-token"] === "from-helper" && headers["x-static"] === "s")).toBe(true);
      expect(run.stderr).toContain('clew: MCP server "bad": headersHelper did not print a JSON object of headers; connecting with its static headers');
    } finally {
      remote.stop(true);
    }
  }, 60_000);
});
