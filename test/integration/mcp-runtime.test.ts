// The MCP runtime against real server processes (fixtures built on the SDK, and servers that
// break the protocol on purpose): one manager for the whole file, started once.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { McpManager } from "../../src/mcp/runtime/manager.ts";
import type { AnyTool } from "../../src/tools/types.ts";
import { ToolError } from "../../src/util/errors.ts";
import { eventually, isProcessRunning, runTool, tempDir, textOf, toolSession } from "../helpers/tool-session.ts";
import { FIXTURES, baseEnv, fixture, stdio } from "./mcp-helpers.ts";

const CONNECT_TIMEOUT = 2500;
const dir = tempDir("clew-mcp-");
const record = join(dir, "record.log");
const grandchildPid = join(dir, "grandchild.pid");
const session = toolSession(dir);
let manager: McpManager;
let changes = 0;

function tool(name: string): AnyTool {
  const found = manager.tools().find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no tool ${name} among ${manager.tools().map((candidate) => candidate.name).join(", ")}`);
  return found;
}

function state(name: string) {
  return manager.states().find((candidate) => candidate.name === name);
}

async function thrown(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to throw");
}

beforeAll(() => {
  manager = McpManager.start({
    servers: [
      fixture("good", "sdk-server.ts", ["--record", record], { env: { FIXTURE_VAR: "from-entry" } }),
      fixture("crashy", "sdk-server.ts"),
      fixture("slowtools", "sdk-server.ts", [], { timeout: 300 }),
      fixture("many", "sdk-server.ts", ["--many"]),
      fixture("garbage", "raw-fault-server.ts", ["garbage"]),
      fixture("silent", "raw-fault-server.ts", ["silent"]),
      fixture("invalid", "raw-fault-server.ts", ["invalid-tools"]),
      fixture("dies", "raw-fault-server.ts", ["exit-at-start"]),
      // A server that leaves a process of its own behind: closing must end the whole group.
      stdio("wrapper", "sh", ["-c", `sleep 300 & echo $! > '${grandchildPid}'; exec bun '${join(FIXTURES, "sdk-server.ts")}'`]),
    ],
    projectDir: dir,
    roots: [dir, "/tmp"],
    env: baseEnv(),
    connectTimeoutMs: CONNECT_TIMEOUT,
    toolTimeoutMs: 60_000,
    maxOutputTokens: 1000,
    clientVersion: "0.0.0-test",
  });
  manager.onChange(() => {
    changes += 1;
  });
});

afterAll(async () => {
  await manager.close();
});

describe("start-up", () => {
  test("start returns at once with every server pending; settled returns once each connected or failed", async () => {
    // Nothing has connected yet (a server that exits at once may already have failed).
    expect(manager.states().filter((server) => server.status !== "pending" && server.status !== "failed")).toEqual([]);
    await manager.settled(0);
    await manager.settled(CONNECT_TIMEOUT + 20_000);
    expect(manager.states().map((server) => [server.name, server.status])).toEqual([
      ["crashy", "connected"],
      ["dies", "failed"],
      ["garbage", "failed"],
      ["good", "connected"],
      ["invalid", "failed"],
      ["many", "connected"],
      ["silent", "failed"],
      ["slowtools", "connected"],
      ["wrapper", "connected"],
    ]);
    expect(changes).toBeGreaterThan(0);
  });

  test("each broken server fails with a message naming it and what to do", () => {
    expect(state("dies")).toEqual({
      name: "dies",
      scope: "cli",
      status: "failed",
      error: 'MCP server "dies" exited with code 2 before it finished connecting; last stderr line: fatal: FIXTURE_API_KEY is not set (test-config.json)',
      stderrTail: ["fatal: FIXTURE_API_KEY is not set"],
      toolCount: 0,
      promptCount: 0,
      resourceCount: 0,
    });
    expect(state("garbage")?.error).toBe(
      `MCP server "garbage" did not finish connecting within ${CONNECT_TIMEOUT} ms (MCP_TIMEOUT); check that it is an MCP server and starts quickly, or raise MCP_TIMEOUT; ` +
        'it wrote text that is not JSON-RPC on stdout ("Welcome to the fixture server!"): a stdio server must write only protocol messages to stdout and log to stderr (test-config.json)',
    );
    expect(state("silent")?.error).toBe(
      `MCP server "silent" did not finish connecting within ${CONNECT_TIMEOUT} ms (MCP_TIMEOUT); check that it is an MCP server and starts quickly, or raise MCP_TIMEOUT (test-config.json)`,
    );
    expect(state("invalid")?.error).toBe(
      'MCP server "invalid" returned an invalid answer to tools/list (tools.0.name: Invalid input: expected string, received number; tools.0.inputSchema: Invalid input: expected object, received string); the server does not follow the MCP schema — update or fix it (test-config.json)',
    );
  });

  test("a connected server's state has its counts, instructions and stderr tail", () => {
    expect(state("good")).toEqual({
      name: "good",
      scope: "cli",
      status: "connected",
      stderrTail: ["fixture: ready"],
      toolCount: 7,
      promptCount: 1,
      resourceCount: 1,
      instructions: "Fixture server: use echo to test.",
    });
  });
});

describe("tools", () => {
  test("tools are listed in server order with normalised names, the server's schema and origin", () => {
    const names = manager.tools().map((candidate) => candidate.name);
    expect(names.slice(0, 7)).toEqual([
      "mcp__crashy__echo", "mcp__crashy__huge", "mcp__crashy__hang", "mcp__crashy__exit", "mcp__crashy__env", "mcp__crashy__add-tool", "mcp__crashy__fails",
    ]);
    expect(names.filter((name) => name.startsWith("mcp__many__tool_"))).toHaveLength(200);
    expect(names.slice(-2)).toEqual(["ListMcpResourcesTool", "ReadMcpResourceTool"]);
    const echo = tool("mcp__good__echo");
    expect({ description: echo.description, access: echo.access, origin: echo.origin, subject: echo.subject({}, session) }).toEqual({
      description: "Echoes its text",
      access: "read",
      origin: { kind: "mcp", server: "good", tool: "echo", alwaysLoad: false, requiresUserInteraction: false },
      subject: "",
    });
    expect(echo.inputSchema).toMatchObject({ type: "object", properties: { text: { type: "string" } }, required: ["text"] });
    expect(tool("mcp__good__huge").access).toBe("exec");
  });

  test("a call returns the server's content; stdio servers get CLAUDECODE, CLAUDE_PROJECT_DIR, the entry's env and the roots", async () => {
    expect(await runTool(tool("mcp__good__echo"), { text: "hello there" }, session)).toEqual({ content: "hello there" });
    const env = JSON.parse(textOf(await runTool(tool("mcp__good__env"), {}, session)));
    expect({ ...env, pid: typeof env.pid }).toEqual({
      pid: "number",
      CLAUDECODE: "1",
      CLAUDE_PROJECT_DIR: dir,
      FIXTURE_VAR: "from-entry",
      cwd: dir,
      roots: [
        { uri: `file://${dir}`, name: dir.split("/").at(-1) },
        { uri: "file:///tmp", name: "tmp" },
      ],
    });
  });

  test("isError results are error outputs; long text is cut at MAX_MCP_OUTPUT_TOKENS with a marker", async () => {
    expect(await runTool(tool("mcp__good__fails"), {}, session)).toEqual({ content: "the thing went wrong", isError: true });
    const huge = textOf(await runTool(tool("mcp__good__huge"), { size: 10_000 }, session));
    expect(huge.startsWith(`${"x".repeat(4000)}\n\n[Output truncated: this MCP tool result is 10000 characters, over the limit of 4000`)).toBe(true);
  });

  test("a call that outlives the server's timeout fails with tool_timeout", async () => {
    const error = await thrown(runTool(tool("mcp__slowtools__hang"), {}, session));
    expect(error).toBeInstanceOf(ToolError);
    expect({ code: (error as ToolError).code, message: (error as ToolError).message }).toEqual({
      code: "tool_timeout",
      message: 'MCP server "slowtools" did not answer the call to "hang" within 300 ms (MCP_TOOL_TIMEOUT, or the server\'s "timeout")',
    });
  });

  test("aborting a call sends notifications/cancelled: the server sees its request cancelled", async () => {
    const controller = new AbortController();
    const call = thrown(runTool(tool("mcp__good__hang"), {}, session, controller.signal));
    expect(await eventually(() => existsSync(record) && readFileSync(record, "utf8").includes("hang started"))).toBe(true);
    controller.abort();
    await call;
    expect(await eventually(() => readFileSync(record, "utf8").includes("hang cancelled"))).toBe(true);
    expect(readFileSync(record, "utf8")).toBe("hang started\nhang cancelled\n");
  });

  test("tools/list_changed refreshes the tools and tells the listeners", async () => {
    const before = changes;
    await runTool(tool("mcp__good__add-tool"), {}, session);
    expect(await eventually(() => manager.tools().some((candidate) => candidate.name === "mcp__good__added"))).toBe(true);
    expect(changes).toBeGreaterThan(before);
    expect(await runTool(tool("mcp__good__added"), {}, session)).toEqual({ content: "added works" });
    expect(state("good")?.toolCount).toBe(8);
  });
});

describe("a server that dies", () => {
  test("killed mid-call: a ToolError with its exit and stderr; the next call restarts it once; a second death is final", async () => {
    const firstPid = JSON.parse(textOf(await runTool(tool("mcp__crashy__env"), {}, session))).pid as number;
    const exitTool = tool("mcp__crashy__exit");
    const error = await thrown(runTool(exitTool, {}, session));
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).code).toBe("tool_failed");
    expect((error as ToolError).message).toBe(
      'MCP server "crashy" exited with code 7 during the call to "exit".\nLast stderr lines:\nfixture: ready\nfixture: exiting in the middle of a call',
    );
    expect(await eventually(() => state("crashy")?.status === "failed")).toBe(true);
    expect(state("crashy")?.error).toBe('MCP server "crashy" exited with code 7; the next call to one of its tools restarts it');
    expect(isProcessRunning(firstPid)).toBe(false);
    // Its tools stay offered so that the next call can restart it.
    expect(manager.tools().some((candidate) => candidate.name === "mcp__crashy__echo")).toBe(true);
    expect(await runTool(tool("mcp__crashy__echo"), { text: "back" }, session)).toEqual({ content: "back" });
    expect(state("crashy")?.status).toBe("connected");

    await thrown(runTool(tool("mcp__crashy__exit"), {}, session));
    expect(await eventually(() => state("crashy")?.status === "failed")).toBe(true);
    expect(state("crashy")?.error).toBe('MCP server "crashy" exited with code 7');
    expect(manager.tools().some((candidate) => candidate.name.startsWith("mcp__crashy__"))).toBe(false);
    const final = await thrown(runTool(exitTool, {}, session));
    expect((final as ToolError).message.startsWith('MCP server "crashy" exited with code 7\nLast stderr lines:\n')).toBe(true);
  });
});

describe("prompts and resources", () => {
  test("prompts are listed as mcp__server__prompt and run with their arguments in order", async () => {
    expect(manager.prompts().filter((prompt) => prompt.server === "good")).toEqual([
      {
        server: "good",
        name: "greet",
        command: "mcp__good__greet",
        description: "Greets someone",
        arguments: [
          { name: "name", required: true },
          { name: "style", required: false },
        ],
      },
    ]);
    const signal = new AbortController().signal;
    expect(await manager.getPrompt("mcp__good__greet", "Ann cheerful", signal)).toEqual({ ok: true, text: "Say hello to Ann in a cheerful way." });
    expect(await manager.getPrompt("/mcp__good__greet", "", signal)).toEqual({ ok: false, message: "/mcp__good__greet needs name: /mcp__good__greet <name> [style]" });
    expect(await manager.getPrompt("mcp__nope__greet", "", signal)).toEqual({
      ok: false,
      message: "No connected MCP server offers the prompt /mcp__nope__greet; run /mcp to see the servers and their state.",
    });
  });

  test("resources: @server:uri reads, and the two resource tools list and read them", async () => {
    const signal = new AbortController().signal;
    expect(await manager.readResource("good", "fixture://notes", signal)).toEqual({ ok: true, text: "These are the fixture notes." });
    const missing = await manager.readResource("good", "fixture://missing", signal);
    expect(missing.ok).toBe(false);
    const listed = await runTool(tool("ListMcpResourcesTool"), { server: "good" }, session);
    expect(listed.data).toEqual([{ server: "good", uri: "fixture://notes", name: "notes", mimeType: "text/plain", description: "Fixture notes" }]);
    expect(await runTool(tool("ReadMcpResourceTool"), { server: "good", uri: "fixture://notes" }, session)).toEqual({ content: "These are the fixture notes." });
    const unknown = await thrown(runTool(tool("ListMcpResourcesTool"), { server: "nope" }, session));
    expect((unknown as ToolError).message.startsWith('No connected MCP server "nope" offers resources.')).toBe(true);
  });
});

describe("close", () => {
  test("close ends every server process, and what the servers started (the process group)", async () => {
    const pid = JSON.parse(textOf(await runTool(tool("mcp__good__env"), {}, session))).pid as number;
    const orphan = Number(readFileSync(grandchildPid, "utf8").trim());
    expect([isProcessRunning(pid), isProcessRunning(orphan)]).toEqual([true, true]);
    await manager.close();
    expect(await eventually(() => !isProcessRunning(pid) && !isProcessRunning(orphan))).toBe(true);
  });
});
