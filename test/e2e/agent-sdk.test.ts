// The official Claude Agent SDK (npm, installed in test/agent-sdk) drives the compiled clew
// binary through `pathToClaudeCodeExecutable`, unchanged, against the fake Anthropic API: a
// one-shot query that fixes a failing test; a streaming-input session with two user messages,
// a canUseTool that denies one call and an interrupt during a long Bash; an in-process MCP tool
// with a PreToolUse hook callback.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { messagesOf, reply, startFakeAnthropic, toolNames, toolResults, type FakeServer, type RecordedRequest } from "../fake-anthropic/index.ts";
import { clewCommand, clewEnv, tempDirectory, transcripts } from "../helpers/clew-process.ts";
import { transcriptLines } from "../helpers/transcript.ts";
import { DONE, failingTestWorkspace, fixScript, writeWorkspace } from "../scenarios/workspaces.ts";
import { createSdkMcpServer, query, tool, z, type CanUseTool, type Options, type SDKMessage, type SDKUserMessage } from "../agent-sdk/sdk.ts";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const binary = clewCommand();

function sdkOptions(cwd: string, configDir: string, baseURL: string, extra: Partial<Options>): { options: Options; stderr: string[] } {
  const stderr: string[] = [];
  if (binary.length !== 1 || !binary[0]) throw new Error("the Agent SDK tests need the compiled binary: set CLEW_BIN or build dist/clew");
  return {
    stderr,
    options: {
      pathToClaudeCodeExecutable: binary[0],
      cwd,
      env: clewEnv({ cwd, configDir, baseURL }),
      stderr: (text: string) => stderr.push(text),
      ...extra,
    },
  };
}

/** Every message the query yields, in order. */
async function collect(messages: AsyncIterable<SDKMessage>, onMessage?: (message: SDKMessage) => void): Promise<SDKMessage[]> {
  const all: SDKMessage[] = [];
  for await (const message of messages) {
    all.push(message);
    onMessage?.(message);
  }
  return all;
}

function shape(message: SDKMessage): string {
  if (message.type === "system") return `system:${message.subtype}`;
  if (message.type === "result") return `result:${message.subtype}`;
  if (message.type === "assistant" || message.type === "user") {
    const content = message.message.content;
    return `${message.type}:${Array.isArray(content) ? (content[0] as { type: string } | undefined)?.type : "text"}`;
  }
  return message.type;
}

function userMessage(text: string): SDKUserMessage {
  return { type: "user", message: { role: "user", content: text }, parent_tool_use_id: null };
}

describe("the Claude Agent SDK drives clew", () => {
  test("a one-shot query() fixes the failing test and yields init, the tool loop and a success result", async () => {
    const dir = failingTestWorkspace();
    const configDir = tempDirectory("clew-sdk-config-");
    server = await startFakeAnthropic({ script: fixScript(dir) });
    const { options, stderr } = sdkOptions(dir, configDir, server.url, { permissionMode: "bypassPermissions", allowDangerouslySkipPermissions: true });
    const messages = await collect(query({ prompt: "the test in test/math.test.ts fails; fix the bug", options }));

    expect(stderr.join("")).toBe("");
    expect(server.violations).toEqual([]);
    expect(readFileSync(join(dir, "src/math.ts"), "utf8")).toContain("return a + b;");
    const shapes = messages.map(shape).filter((kind) => kind !== "system:status" && kind !== "system:session_state_changed");
    expect(shapes).toEqual([
      "system:init",
      "assistant:text", "assistant:tool_use", "user:tool_result",
      "assistant:tool_use", "user:tool_result",
      "assistant:text", "assistant:tool_use", "user:tool_result",
      "assistant:tool_use", "user:tool_result",
      "assistant:text",
      "result:success",
    ]);
    const init = messages[0];
    expect(init).toMatchObject({ type: "system", subtype: "init", cwd: dir, permissionMode: "bypassPermissions" });
    const sessionId = (init as { session_id: string }).session_id;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(messages.every((message) => (message as { session_id?: string }).session_id === sessionId)).toBe(true);
    expect(messages.filter((message) => message.type === "result")).toMatchObject([{ type: "result", subtype: "success", is_error: false, result: DONE, num_turns: 5, session_id: sessionId }]);
    // The host reads the session's state: running while the turn runs, idle once it is over.
    const states = messages.filter((message) => message.type === "system" && message.subtype === "session_state_changed").map((message) => (message as { state: string }).state);
    expect(states).toEqual(["running", "idle"]);
    const [path] = transcripts(configDir);
    expect(transcriptLines(path as string)[0]).toMatchObject({ type: "clew-session", sessionId });

    // `resume` with the session id: the next query goes on with the same conversation.
    server.enqueue((request: RecordedRequest) => reply().text(`I remember ${messagesOf(request).length} messages.`));
    const again = sdkOptions(dir, configDir, server.url, { resume: sessionId, permissionMode: "bypassPermissions", allowDangerouslySkipPermissions: true });
    const resumed = await collect(query({ prompt: "what did you change?", options: again.options }));
    expect(again.stderr.join("")).toBe("");
    const firstAsked = messagesOf(server.requests[5] as RecordedRequest)[0];
    expect(firstAsked?.content.map((block) => block.text).join("")).toContain("the test in test/math.test.ts fails; fix the bug");
    expect(resumed.filter((message) => message.type === "result")).toMatchObject([{ subtype: "success", session_id: sessionId, result: `I remember ${messagesOf(server.requests[5] as RecordedRequest).length} messages.` }]);
    expect(transcripts(configDir)).toEqual([path as string]);
  });

  test("streaming input: two user messages, a denied call that reaches the model, an interrupt during a long Bash", async () => {
    const dir = writeWorkspace({ "notes.txt": "keep me\n" });
    const configDir = tempDirectory("clew-sdk-config-");
    const marker = join(dir, "sleep-started");
    server = await startFakeAnthropic({
      script: [
        reply().text("Removing the notes.").toolUse("Bash", { command: "rm notes.txt", description: "Remove the notes" }),
        (request: RecordedRequest) => reply().text(`The host said: ${toolResults(request)[0]?.text ?? "(nothing)"}`),
        reply().toolUse("Bash", { command: `touch ${marker} && sleep 30 && echo finished`, description: "Wait for a while" }),
        reply().text("unused: the turn was interrupted before this"),
      ],
    });
    const asked: Array<{ tool: string; input: Record<string, unknown>; toolUseID: string }> = [];
    const canUseTool: CanUseTool = async (toolName, input, context) => {
      asked.push({ tool: toolName, input, toolUseID: context.toolUseID });
      if (String(input.command).startsWith("rm ")) return { behavior: "deny", message: "The notes stay: do not delete files." };
      return { behavior: "allow", updatedInput: input };
    };
    let resultCount = 0;
    let resultSeen: () => void = () => undefined;
    const nextResult = () => new Promise<void>((resolve) => (resultSeen = resolve));
    async function* prompts(): AsyncGenerator<SDKUserMessage> {
      const first = nextResult();
      yield userMessage("delete notes.txt");
      await first;
      const second = nextResult();
      // Switched between the turns through the SDK's own methods.
      await q.setPermissionMode("acceptEdits");
      await q.setModel("sonnet");
      yield userMessage("now wait for a while");
      await second;
    }
    const { options, stderr } = sdkOptions(dir, configDir, server.url, { canUseTool });
    const q = query({ prompt: prompts(), options });
    const interrupting = (async () => {
      while (!existsSync(marker)) await Bun.sleep(20);
      await q.interrupt();
    })();
    const messages = await collect(q, (message) => {
      if (message.type !== "result") return;
      resultCount += 1;
      resultSeen();
    });
    await interrupting;

    expect(stderr.join("")).toBe("");
    expect(server.violations).toEqual([]);
    expect(readFileSync(join(dir, "notes.txt"), "utf8")).toBe("keep me\n");
    // Both calls were put to canUseTool with the tool_use id the model gave them.
    const toolUses = messages.flatMap((message) => (message.type === "assistant" ? message.message.content.filter((block) => block.type === "tool_use") : []));
    expect(asked).toEqual(toolUses.map((block) => ({ tool: "Bash", input: (block as { input: Record<string, unknown> }).input, toolUseID: (block as { id: string }).id })));
    // The denial reached the model as an error tool_result carrying the host's message.
    const denial = toolResults(server.requests[1] as RecordedRequest)[0];
    expect(denial).toMatchObject({ isError: true });
    expect(denial?.text).toContain("The notes stay: do not delete files.");
    const results = messages.filter((message) => message.type === "result");
    expect(results.map((result) => result.subtype)).toEqual(["success", "error_during_execution"]);
    expect(results[0]).toMatchObject({ is_error: false, result: "The host said: " + (denial?.text ?? "") });
    expect(results[1]).toMatchObject({ is_error: true });
    expect(resultCount).toBe(2);
    // Each user message starts a turn with its own init; one session throughout.
    const inits = messages.filter((message) => message.type === "system" && message.subtype === "init");
    expect(inits.map((init) => [(init as { permissionMode: string }).permissionMode, (init as { model: string }).model])).toEqual([["default", "claude-opus-5-5"], ["acceptEdits", "claude-sonnet-5-5"]]);
    expect(server.requests.map((request) => request.body.model)).toEqual(["claude-opus-5-5", "claude-opus-5-5", "claude-sonnet-5-5"]);
    const ids = new Set(messages.map((message) => (message as { session_id?: string }).session_id));
    expect(ids.size).toBe(1);
    expect(server.requests.length).toBe(3);
    expect(existsSync(marker)).toBe(true);
  });

  test("an in-process SDK MCP tool (createSdkMcpServer + tool) is called by the model through the control channel", async () => {
    const dir = writeWorkspace({ "README.md": "calc\n" });
    const configDir = tempDirectory("clew-sdk-config-");
    server = await startFakeAnthropic({
      script: [
        reply().toolUse("mcp__calc__add", { a: 2, b: 3 }),
        (request: RecordedRequest) => reply().text(`The sum is ${toolResults(request)[0]?.text ?? "?"}.`),
      ],
    });
    const calls: Array<{ a: number; b: number }> = [];
    const calc = createSdkMcpServer({
      name: "calc",
      version: "1.0.0",
      tools: [
        tool("add", "Adds two numbers", { a: z.number(), b: z.number() }, async (args) => {
          calls.push(args);
          return { content: [{ type: "text", text: String(args.a + args.b) }] };
        }),
      ],
    });
    // A hook callback in the host sees the call before it runs.
    const hooked: Array<{ event: string; tool: unknown }> = [];
    const hooks: Options["hooks"] = {
      PreToolUse: [{ matcher: "mcp__calc__add", hooks: [async (input) => (hooked.push({ event: input.hook_event_name, tool: (input as { tool_name?: unknown }).tool_name }), {})] }],
    };
    const { options, stderr } = sdkOptions(dir, configDir, server.url, { mcpServers: { calc }, allowedTools: ["mcp__calc__add"], hooks });
    const q = query({ prompt: "add 2 and 3", options });
    let status: ReturnType<typeof q.mcpServerStatus> | undefined;
    const messages = await collect(q, (message) => {
      if (message.type === "system" && message.subtype === "init") status = q.mcpServerStatus();
    });

    expect(stderr.join("")).toBe("");
    expect(server.violations).toEqual([]);
    expect(calls).toEqual([{ a: 2, b: 3 }]);
    expect(hooked).toEqual([{ event: "PreToolUse", tool: "mcp__calc__add" }]);
    expect(await status).toEqual([{ name: "calc", status: "connected", scope: "sdk", source: "sdk" }]);
    expect(toolNames(server.requests[0] as RecordedRequest)).toContain("mcp__calc__add");
    expect(toolResults(server.requests[1] as RecordedRequest)[0]).toMatchObject({ text: "5", isError: false });
    expect(messages[0]).toMatchObject({ type: "system", subtype: "init", mcp_servers: [{ name: "calc", status: "connected" }] });
    expect(messages.filter((message) => message.type === "result")).toMatchObject([{ type: "result", subtype: "success", result: "The sum is 5." }]);
    // The state ends idle after the result: the SDK closes the session on it.
    expect(messages.at(-1)).toMatchObject({ type: "system", subtype: "session_state_changed", state: "idle" });
  });

  test("enableFileCheckpointing: rewindFiles by the replayed user message's uuid removes the file the turn wrote", async () => {
    const dir = writeWorkspace({ "notes.txt": "old\n" });
    const configDir = tempDirectory("clew-sdk-config-");
    server = await startFakeAnthropic({ script: [reply().toolUse("Write", { file_path: join(dir, "made.txt"), content: "new\n" }), reply().text("wrote it")] });
    let resultSeen: () => void = () => undefined;
    const result = new Promise<void>((resolve) => (resultSeen = resolve));
    let prompt: string | undefined;
    let rewound: unknown;
    let contentBeforeRewind = "";
    async function* prompts(): AsyncGenerator<SDKUserMessage> {
      yield userMessage("write made.txt");
      await result;
      contentBeforeRewind = readFileSync(join(dir, "made.txt"), "utf8");
      rewound = await q.rewindFiles(String(prompt));
    }
    const { options, stderr } = sdkOptions(dir, configDir, server.url, { enableFileCheckpointing: true, permissionMode: "acceptEdits", extraArgs: { "replay-user-messages": null } });
    const q = query({ prompt: prompts(), options });
    const messages = await collect(q, (message) => {
      if (message.type === "user" && (message as { isReplay?: boolean }).isReplay) prompt = message.uuid;
      if (message.type === "result") resultSeen();
    });
    expect(stderr.join("")).toBe("");
    expect(prompt).toMatch(/^[0-9a-f-]{36}$/);
    expect(contentBeforeRewind).toBe("new\n");
    expect(rewound).toEqual({ canRewind: true, filesChanged: ["made.txt"], filesKept: [] });
    expect(existsSync(join(dir, "made.txt"))).toBe(false);
    expect(readFileSync(join(dir, "notes.txt"), "utf8")).toBe("old\n");
    expect(messages.filter((message) => message.type === "result")).toMatchObject([{ subtype: "success", result: "wrote it" }]);
  });
});
