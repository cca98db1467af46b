// The MCP runtime against the reference servers from the npm registry (installed in
// test/mcp-servers by .ci/run): server-everything over stdio, streamable HTTP and SSE, and
// server-filesystem over stdio; plus probeServer, the health check behind `clew mcp list`.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { McpManager } from "../../src/mcp/runtime/manager.ts";
import { probeServer } from "../../src/mcp/runtime/probe.ts";
import type { AnyTool } from "../../src/tools/types.ts";
import { eventually, runTool, tempDir, textOf, toolSession } from "../helpers/tool-session.ts";
import { EVERYTHING_BIN, FILESYSTEM_BIN, baseEnv, entry, fixture, freePort, requireTestServers, stdio } from "./mcp-helpers.ts";

const dir = tempDir("clew-mcp-servers-");
const session = toolSession(dir);
const children: Subprocess[] = [];
let manager: McpManager;
let httpUrl = "";
let sseUrl = "";

const EVERYTHING_TOOLS = [
  "echo", "get-annotated-message", "get-env", "get-resource-links", "get-resource-reference", "get-structured-content", "get-sum",
  "get-tiny-image", "gzip-file-as-resource", "toggle-simulated-logging", "toggle-subscriber-updates", "trigger-long-running-operation",
  "get-roots-list", "simulate-research-query",
];

/** Starts server-everything in one of its HTTP modes on a free port and waits until it answers. */
async function startHttpServer(mode: "streamableHttp" | "sse", path: string): Promise<string> {
  const port = freePort();
  const child = Bun.spawn(["bun", EVERYTHING_BIN, mode], { env: { ...baseEnv(), PORT: String(port) }, stdout: "ignore", stderr: "ignore" });
  children.push(child);
  const url = `http://127.0.0.1:${port}${path}`;
  let up = false;
  const answered = await eventually(() => up, 20_000, async () => {
    up = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(500) }).then(() => true, () => false);
  });
  if (!answered) throw new Error(`server-everything ${mode} did not start on port ${port}`);
  return url;
}

function tool(name: string): AnyTool {
  const found = manager.tools().find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

beforeAll(async () => {
  requireTestServers();
  writeFileSync(join(dir, "hello.txt"), "hello from the filesystem server\n");
  [httpUrl, sseUrl] = await Promise.all([startHttpServer("streamableHttp", "/mcp"), startHttpServer("sse", "/sse")]);
  manager = McpManager.start({
    servers: [
      stdio("everything", EVERYTHING_BIN, ["stdio"]),
      stdio("files", FILESYSTEM_BIN, [dir]),
      entry("everything-http", { type: "http", url: httpUrl, headers: { "X-Test": "1" } }),
      entry("everything-sse", { type: "sse", url: sseUrl, headers: {} }),
    ],
    projectDir: dir,
    roots: [dir],
    env: baseEnv(),
    connectTimeoutMs: 30_000,
    toolTimeoutMs: 30_000,
    maxOutputTokens: 25_000,
    clientVersion: "0.0.0-test",
  });
  await manager.settled(40_000);
});

afterAll(async () => {
  await manager?.close();
  for (const child of children) child.kill();
});

describe("server-everything", () => {
  test("every transport connects, with the server's tools under normalised names", () => {
    expect(manager.states().map((state) => [state.name, state.status, state.error])).toEqual([
      ["everything", "connected", undefined],
      ["everything-http", "connected", undefined],
      ["everything-sse", "connected", undefined],
      ["files", "connected", undefined],
    ]);
    const names = manager.tools().map((candidate) => candidate.name);
    expect(names.filter((name) => name.startsWith("mcp__everything__"))).toEqual(EVERYTHING_TOOLS.map((name) => `mcp__everything__${name}`));
    expect(names.filter((name) => name.startsWith("mcp__everything-http__"))).toEqual(EVERYTHING_TOOLS.map((name) => `mcp__everything-http__${name}`));
    expect(tool("mcp__everything__get-sum").inputSchema).toMatchObject({
      type: "object",
      properties: { a: { type: "number", description: "First number" }, b: { type: "number", description: "Second number" } },
      required: ["a", "b"],
    });
    expect(manager.states()[0]?.instructions?.startsWith("# Everything Server")).toBe(true);
  });

  test("calls return the server's content over stdio, streamable HTTP and SSE", async () => {
    for (const server of ["everything", "everything-http", "everything-sse"]) {
      expect(await runTool(tool(`mcp__${server}__echo`), { message: "hi" }, session)).toEqual({ content: "Echo: hi" });
    }
    expect(await runTool(tool("mcp__everything-http__get-sum"), { a: 2, b: 3 }, session)).toEqual({ content: "The sum of 2 and 3 is 5." });
  });

  test("images become image blocks, structuredContent the call's data, resource links and references text", async () => {
    const image = await runTool(tool("mcp__everything__get-tiny-image"), {}, session);
    expect(Array.isArray(image.content)).toBe(true);
    const blocks = image.content as Array<{ type: string; source?: { media_type: string; data: string } }>;
    expect(blocks.map((block) => block.type)).toEqual(["text", "image", "text"]);
    expect(blocks[1]?.source?.media_type).toBe("image/png");
    expect(blocks[1]?.source?.data.startsWith("iVBORw0KGgo")).toBe(true);
    expect(await runTool(tool("mcp__everything-http__get-structured-content"), { location: "Chicago" }, session)).toEqual({
      content: JSON.stringify({ temperature: 36, conditions: "Light rain / drizzle", humidity: 82 }),
      data: { temperature: 36, conditions: "Light rain / drizzle", humidity: 82 },
    });
    const links = textOf(await runTool(tool("mcp__everything__get-resource-links"), { count: 1 }, session));
    expect(links.split("\n").slice(1)).toEqual(["Resource link: Blob Resource 1 <demo://resource/dynamic/blob/1> (text/plain) — Resource 1: plaintext resource"]);
  });

  test("roots/list is answered with the session's roots", async () => {
    const text = textOf(await runTool(tool("mcp__everything__get-roots-list"), {}, session));
    expect(text).toContain(`file://${dir}`);
  });

  test("prompts and resources over streamable HTTP", async () => {
    const signal = new AbortController().signal;
    const prompt = manager.prompts().find((candidate) => candidate.command === "mcp__everything-http__args-prompt");
    expect(prompt).toEqual({
      server: "everything-http",
      name: "args-prompt",
      command: "mcp__everything-http__args-prompt",
      description: "A prompt with two arguments, one required and one optional",
      arguments: [
        { name: "city", description: "Name of the city", required: true },
        { name: "state", required: false },
      ],
    });
    const result = await manager.getPrompt("mcp__everything-http__args-prompt", "Paris France", signal);
    expect(result).toEqual({ ok: true, text: "What's weather in Paris, France?" });
    const first = manager.listResources("everything-http")[0];
    expect(first?.server).toBe("everything-http");
    const read = await manager.readResource("everything-http", first?.uri ?? "", signal);
    expect(read.ok).toBe(true);
  });
});

describe("server-filesystem", () => {
  test("reads a file inside its root; a path outside is an isError result, not a throw", async () => {
    expect(await runTool(tool("mcp__files__read_text_file"), { path: join(dir, "hello.txt") }, session)).toEqual({
      content: "hello from the filesystem server\n",
      data: { content: "hello from the filesystem server\n" },
    });
    const outside = await runTool(tool("mcp__files__read_text_file"), { path: "/etc/hostname" }, session);
    expect(outside.isError).toBe(true);
    expect(textOf(outside)).toContain("Access denied");
    expect(tool("mcp__files__write_file").access).toBe("exec");
    expect(tool("mcp__files__list_directory").access).toBe("read");
  });
});

describe("probeServer", () => {
  const options = { timeoutMs: 20_000, cwd: dir, env: baseEnv() };

  test("a working server: connected, with its tool count (stdio and HTTP)", async () => {
    expect(await probeServer(stdio("everything", EVERYTHING_BIN, ["stdio"]), options)).toEqual({ status: "connected", toolCount: 14 });
    expect(await probeServer(entry("remote", { type: "http", url: httpUrl, headers: {} }), options)).toEqual({ status: "connected", toolCount: 14 });
  });

  test("a broken server: failed, with the reason", async () => {
    expect(await probeServer(fixture("dies", "raw-fault-server.ts", ["exit-at-start"]), options)).toEqual({
      status: "failed",
      detail: 'MCP server "dies" exited with code 2 before it finished connecting; last stderr line: fatal: FIXTURE_API_KEY is not set (test-config.json)',
    });
    expect(await probeServer(stdio("missing", "no-such-mcp-command", []), options)).toEqual({
      status: "failed",
      detail: 'MCP server "missing" failed to connect: command not found: no-such-mcp-command (looked in the PATH the server gets) (test-config.json)',
    });
    expect(await probeServer(entry("unset", { type: "http", url: "", headers: {} }), options)).toEqual({
      status: "disabled",
      detail: 'MCP server "unset" has no URL configured (test-config.json)',
    });
  });

  test("HTTP 401: needs authentication, or a failure when the configured Authorization header was refused", async () => {
    const refusing = Bun.serve({ port: 0, fetch: () => new Response("unauthorized", { status: 401 }) });
    try {
      const url = `http://127.0.0.1:${refusing.port}/mcp`;
      expect(await probeServer(entry("locked", { type: "http", url, headers: {} }), options)).toEqual({
        status: "needs-auth",
        detail: 'MCP server "locked" needs authentication (HTTP 401): clew cannot sign in to MCP servers (OAuth) yet — add an Authorization header, or a headersHelper that prints one, to its entry in test-config.json',
      });
      expect(await probeServer(entry("badtoken", { type: "http", url, headers: { Authorization: "Bearer nope" } }), options)).toEqual({
        status: "failed",
        detail: 'MCP server "badtoken" rejected the configured Authorization header (HTTP 401); check the token in its "headers" (test-config.json)',
      });
    } finally {
      refusing.stop(true);
    }
  });
});
