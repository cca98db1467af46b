// A stream-json input session run in this process (the real session, tools, files and
// transcript; only the model is faked): control requests answered while the session lives, bad
// input lines reported one by one without ending it, and permission prompts put to the host.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "../../src/cli/args.ts";
import { AsyncQueue } from "../../src/cli/control/queue.ts";
import { runStreamingSession } from "../../src/cli/control/streaming.ts";
import { readEnvironment } from "../../src/settings/paths.ts";
import { reply, startFakeAnthropic, toolResults, type FakeServer, type RecordedRequest, type ScriptStep } from "../fake-anthropic/index.ts";
import { clewEnv, tempDirectory, transcripts } from "../helpers/clew-process.ts";
import { writeWorkspace } from "../scenarios/workspaces.ts";

type Frame = Record<string, unknown> & { type: string };

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A session fed line by line; its frames are read as they are written. */
async function session(script: ScriptStep[], args: string[] = [], files: Record<string, string> = { "README.md": "hi\n" }) {
  server = await startFakeAnthropic({ script });
  const dir = writeWorkspace(files);
  const configDir = tempDirectory("clew-control-config-");
  const input = new AsyncQueue<string>();
  const frames: Frame[] = [];
  const stderr: string[] = [];
  let wake: () => void = () => undefined;
  let signal: (name: "SIGINT" | "SIGTERM") => void = () => undefined;
  const env = readEnvironment({ ...clewEnv({ cwd: dir, configDir, baseURL: server.url }), CLAUDE_CODE_SDK_READS_SESSION_STATE: "1" }, dir);
  const options = parseArgs(["--output-format", "stream-json", "--verbose", "--input-format", "stream-json", ...args]);
  const exit = runStreamingSession(options, env, "0.0.0-test", {
    write: (text) => {
      for (const line of text.split("\n")) if (line !== "") frames.push(JSON.parse(line) as Frame);
      wake();
    },
    writeError: (text) => stderr.push(text),
    input,
    onSignal: (handler) => (signal = handler),
  });
  const send = (value: unknown) => input.push(`${typeof value === "string" ? value : JSON.stringify(value)}\n`);
  /** The first frame from `from` on that matches; waits for it. */
  const waitFor = async (match: (frame: Frame) => boolean, from = 0): Promise<Frame> => {
    for (;;) {
      const found = frames.slice(from).find(match);
      if (found) return found;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  };
  const control = async (id: string, request: Record<string, unknown>) => {
    send({ type: "control_request", request_id: id, request });
    const frame = await waitFor((candidate) => candidate.type === "control_response" && (candidate.response as { request_id: string }).request_id === id);
    return frame.response as Record<string, unknown>;
  };
  const user = (content: unknown, extra: Record<string, unknown> = {}) => send({ type: "user", message: { role: "user", content }, parent_tool_use_id: null, ...extra });
  return { dir, configDir, frames, stderr, send, waitFor, control, user, exit, end: () => input.end(), signal: (name: "SIGINT" | "SIGTERM") => signal(name) };
}

const isResult = (frame: Frame) => frame.type === "result";

describe("stream-json control protocol", () => {
  test("set_model refuses a model availableModels leaves out; the model stays", async () => {
    const s = await session([reply().text("answer")], ["--settings", JSON.stringify({ availableModels: ["sonnet"] }), "--model", "sonnet"]);
    expect(await s.control("i1", { subtype: "initialize" })).toMatchObject({ subtype: "success" });
    expect(await s.control("s1", { subtype: "set_model", model: "opus" })).toEqual({ subtype: "error", request_id: "s1", error: "set_model: opus is not in availableModels (sonnet); the model stays claude-sonnet-5-5." });
    s.user("hello");
    await s.waitFor(isResult);
    expect(server?.requests[0]?.body.model).toBe("claude-sonnet-5-5");
    s.end();
  });

  test("opusplan: Sonnet outside plan mode, Opus once set_permission_mode switches to plan, Sonnet again after", async () => {
    const s = await session([reply().text("one"), reply().text("two"), reply().text("three")], ["--model", "opusplan"]);
    expect(await s.control("i1", { subtype: "initialize" })).toMatchObject({ subtype: "success" });
    const turn = async (text: string, count: number) => {
      s.user(text);
      await s.waitFor(() => s.frames.filter(isResult).length === count);
    };
    await turn("first", 1);
    expect(await s.control("p1", { subtype: "set_permission_mode", mode: "plan" })).toMatchObject({ subtype: "success" });
    await turn("plan it", 2);
    expect(await s.control("p2", { subtype: "set_permission_mode", mode: "default" })).toMatchObject({ subtype: "success" });
    await turn("do it", 3);
    expect(server?.requests.map((request) => request.body.model)).toEqual(["claude-sonnet-5-5", "claude-opus-5-5", "claude-sonnet-5-5"]);
    s.end();
  });

  test("initialize, then mode, model, MCP status and context usage are answered; the next turn uses them", async () => {
    const s = await session([reply().text("first answer"), reply().text("second answer")]);
    const init = await s.control("i1", { subtype: "initialize", systemPrompt: [""] });
    expect(init).toMatchObject({ subtype: "success", request_id: "i1", response: { output_style: "default", account: { apiKeySource: "ANTHROPIC_API_KEY" } } });
    expect((init.response as { agents: Array<{ name: string }> }).agents.map((agent) => agent.name)).toEqual(["general-purpose", "Explore", "Plan"]);
    expect(await s.control("i2", { subtype: "initialize" })).toEqual({ subtype: "error", request_id: "i2", error: "initialize was already answered: clew takes one initialize, as the first line of input" });
    expect(await s.control("m1", { subtype: "set_permission_mode", mode: "acceptEdits" })).toEqual({ subtype: "success", request_id: "m1", response: { mode: "acceptEdits" } });
    expect(await s.control("m2", { subtype: "set_permission_mode", mode: "bypassPermissions" })).toEqual({
      subtype: "error",
      request_id: "m2",
      error: "set_permission_mode: bypassPermissions needs the session to start with --allow-dangerously-skip-permissions or --permission-mode bypassPermissions (the SDK's allowDangerouslySkipPermissions)",
    });
    expect(await s.control("m3", { subtype: "set_permission_mode", mode: "sideways" })).toMatchObject({ subtype: "error", error: expect.stringContaining('mode "sideways" is not one of default, ') });
    expect(await s.control("s1", { subtype: "set_model", model: "sonnet" })).toEqual({ subtype: "success", request_id: "s1", response: { model: "claude-sonnet-5-5" } });
    expect(await s.control("c1", { subtype: "mcp_status" })).toEqual({ subtype: "success", request_id: "c1", response: { mcpServers: [] } });
    const usage = await s.control("u1", { subtype: "get_context_usage" });
    expect(usage).toMatchObject({ subtype: "success", response: { maxTokens: 1_000_000, model: "claude-sonnet-5-5", categories: expect.arrayContaining([expect.objectContaining({ id: "free_space", kind: "free" })]) } });

    s.user("hello");
    const first = await s.waitFor(isResult);
    expect(first).toMatchObject({ subtype: "success", result: "first answer" });
    expect(s.frames.find((frame) => frame.type === "system" && frame.subtype === "init")).toMatchObject({ permissionMode: "acceptEdits", model: "claude-sonnet-5-5" });
    expect(server?.requests[0]?.body.model).toBe("claude-sonnet-5-5");
    s.user([{ type: "text", text: "again" }]);
    const second = await s.waitFor((frame) => isResult(frame) && frame.result === "second answer");
    // total_cost_usd is the session's running total: the second result carries both turns.
    const firstCost = Number(first.total_cost_usd);
    expect(firstCost).toBeGreaterThan(0);
    expect(Number(second.total_cost_usd)).toBeGreaterThan(firstCost);
    expect(Object.keys(second.modelUsage as object)).toEqual(["claude-sonnet-5-5"]);
    s.end();
    expect(await s.exit).toBe(0);
    expect(s.frames.filter((frame) => frame.subtype === "session_state_changed").map((frame) => frame.state)).toEqual(["running", "idle", "running", "idle"]);
    expect(s.stderr).toEqual([]);
  });

  test("initialize's system prompt, appended text and agents shape the session before it opens", async () => {
    const s = await session([reply().text("ok")]);
    const init = await s.control("i1", {
      subtype: "initialize",
      systemPrompt: ["You review pull requests.", "Be terse."],
      appendSystemPrompt: "Always cite the file.",
      agents: { linter: { description: "Runs the linter and reports", prompt: "You run the linter." } },
      planModeInstructions: "plan",
    });
    expect((init.response as { agents: Array<{ name: string; description: string }> }).agents).toContainEqual({ name: "linter", description: "Runs the linter and reports" });
    s.user("review");
    await s.waitFor(isResult);
    s.end();
    expect(await s.exit).toBe(0);
    const system = JSON.stringify(server?.requests[0]?.body.system);
    expect(system).toContain("You review pull requests.\\n\\nBe terse.");
    expect(system).toContain("Always cite the file.");
    expect(system).not.toContain("You are clew");
    expect(s.frames.find((frame) => frame.subtype === "init")?.agents).toContain("linter");
    expect(s.stderr).toEqual(["clew: initialize.planModeInstructions is not supported by clew and has no effect\n"]);
  });

  test("a user message with an image block reaches the model as sent and is echoed with --replay-user-messages; no initialize needed", async () => {
    const s = await session([reply().text("a red dot")], ["--replay-user-messages"]);
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108020000009077053e0000000c4944415408d763f8cfc000000301010018dd8db00000000049454e44ae426082", "hex").toString("base64");
    const blocks = [{ type: "text", text: "what is in this picture?" }, { type: "image", source: { type: "base64", media_type: "image/png", data: png } }];
    s.user(blocks, { uuid: "host-uuid-1" });
    expect(await s.waitFor(isResult)).toMatchObject({ subtype: "success", result: "a red dot" });
    s.end();
    expect(await s.exit).toBe(0);
    const sent = (server?.requests[0]?.body.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>).at(-1);
    expect(sent?.content.filter((block) => block.type === "image")).toEqual([{ type: "image", source: { type: "base64", media_type: "image/png", data: png } }]);
    expect(sent?.content.some((block) => block.type === "text" && block.text === "what is in this picture?")).toBe(true);
    expect(s.frames[0]).toEqual({ type: "user", message: { role: "user", content: blocks }, parent_tool_use_id: null, session_id: expect.any(String), uuid: "host-uuid-1", isReplay: true });
  });

  test("unknown and unsupported subtypes, a second initialize and rewind_files get error responses; the session lives on", async () => {
    const s = await session([reply().text("still here")]);
    expect(await s.control("x1", { subtype: "frobnicate" })).toEqual({ subtype: "error", request_id: "x1", error: 'unsupported control request subtype "frobnicate": clew does not implement it' });
    expect(await s.control("x2", { subtype: "mcp_set_servers", servers: {} })).toEqual({
      subtype: "error",
      request_id: "x2",
      error: 'unsupported control request subtype "mcp_set_servers": clew does not implement it; pass MCP servers when the session starts (mcpServers / --mcp-config)',
    });
    expect(await s.control("x3", { subtype: "initialize" })).toMatchObject({ subtype: "error", error: expect.stringMatching(/^initialize must be the first line of input: this session already opened without one/) });
    expect(await s.control("x4", { subtype: "rewind_files", user_message_id: "u1" })).toEqual({ subtype: "success", request_id: "x4", response: { canRewind: false, error: "this session has no checkpoints to rewind to." } });
    expect(await s.control("x5", { subtype: "interrupt" })).toEqual({ subtype: "success", request_id: "x5", response: { still_queued: [] } });
    s.user("are you there?");
    expect(await s.waitFor(isResult)).toMatchObject({ subtype: "success", result: "still here" });
    s.end();
    expect(await s.exit).toBe(0);
  });

  test("interrupt during a long Bash ends the turn as error_during_execution; cancel_queued drops the messages queued behind it", async () => {
    const s = await session(
      [reply().toolUse("Bash", { command: "touch started && sleep 30", description: "Wait" }), reply().text("never asked for")],
      ["--allowedTools", "Bash(touch:*),Bash(sleep:*)"],
    );
    s.user("wait", { uuid: "m-1" });
    s.user("then this", { uuid: "m-2" });
    s.user("and this", { uuid: "m-3" });
    while (!existsSync(join(s.dir, "started"))) await Bun.sleep(20);
    expect(await s.control("i1", { subtype: "interrupt", cancel_queued: true })).toEqual({ subtype: "success", request_id: "i1", response: { still_queued: [], cancelled: ["m-2", "m-3"] } });
    const result = await s.waitFor(isResult);
    s.end();
    expect(await s.exit).toBe(0);
    expect(result).toMatchObject({ subtype: "error_during_execution", is_error: true });
    expect(s.frames.filter(isResult).length).toBe(1);
    expect(server?.requests.length).toBe(1);
  });

  test("rewind_files puts back the files a turn wrote, by the host's uuid or the transcript's id of its user message; dry_run only says which", async () => {
    const s = await session([reply().toolUse("Write", { file_path: "made.txt", content: "new\n" }), reply().text("wrote it")], ["--permission-mode", "acceptEdits"]);
    s.user("write made.txt", { uuid: "host-prompt-1" });
    await s.waitFor(isResult);
    const made = join(s.dir, "made.txt");
    expect(readFileSync(made, "utf8")).toBe("new\n");
    const [path] = transcripts(s.configDir);
    const prompt = readFileSync(path as string, "utf8").trim().split("\n").map((line) => JSON.parse(line) as { type?: string; uuid?: string; message?: { content?: unknown } })
      .find((line) => line.type === "user" && JSON.stringify(line.message?.content).includes("write made.txt"));
    const id = String(prompt?.uuid);
    expect(await s.control("r1", { subtype: "rewind_files", user_message_id: id, dry_run: true })).toEqual({ subtype: "success", request_id: "r1", response: { canRewind: true, filesChanged: ["made.txt"], filesKept: [] } });
    expect(existsSync(made)).toBe(true);
    // The host's own uuid for the message names the same prompt.
    expect(await s.control("r1b", { subtype: "rewind_files", user_message_id: "host-prompt-1", dry_run: true })).toEqual({ subtype: "success", request_id: "r1b", response: { canRewind: true, filesChanged: ["made.txt"], filesKept: [] } });
    expect(await s.control("r2", { subtype: "rewind_files", user_message_id: id })).toEqual({ subtype: "success", request_id: "r2", response: { canRewind: true, filesChanged: ["made.txt"], filesKept: [] } });
    expect(existsSync(made)).toBe(false);
    s.end();
    expect(await s.exit).toBe(0);
  });

  test("bad lines get one error frame each naming the line; the good message still runs and the transcript stays valid", async () => {
    const s = await session([reply().text("only answer")]);
    s.send("this is not json");
    s.send({ type: "assistant", message: {} });
    s.user([{ type: "video", url: "x" }]);
    s.user("for another session", { session_id: "00000000-0000-4000-8000-000000000000" });
    s.user("the real question");
    const result = await s.waitFor(isResult);
    s.end();
    expect(await s.exit).toBe(0);
    const errors = s.frames.filter((frame) => frame.subtype === "input_error");
    expect(errors.map((frame) => frame.line)).toEqual([1, 2, 3, 4]);
    expect(errors.map((frame) => String(frame.error))).toEqual([
      expect.stringMatching(/^line 1 of standard input is not JSON \(/),
      'line 2 of standard input has unknown type "assistant"; expected one of user, control_request, control_response, control_cancel_request, keep_alive',
      "line 3 of standard input (user): message.content[0] (video) is not a text, image, document or tool_result block with its required fields",
      `line 4 of standard input is a message for session 00000000-0000-4000-8000-000000000000, but this session is ${String(result.session_id)}`,
    ]);
    expect(s.stderr.length).toBe(4);
    expect(result).toMatchObject({ subtype: "success", result: "only answer" });
    expect(server?.requests.length).toBe(1);
    const [path] = transcripts(s.configDir);
    const lines = readFileSync(path as string, "utf8").trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    const texts = lines.flatMap((line) => {
      const message = line.message as { role?: string; content?: Array<{ type: string; text?: string }> } | undefined;
      return message?.role === "user" ? (message.content ?? []).flatMap((block) => (block.type === "text" ? [block.text] : [])) : [];
    });
    expect(texts.filter((text) => !String(text).startsWith("<system-reminder>"))).toEqual(["the real question"]);
  });

  test("initialize's jsonSchema: each turn answers through StructuredOutput, its answer in the result's structured_output", async () => {
    const schema = { type: "object", properties: { n: { type: "number" } }, required: ["n"] };
    const s = await session([reply().toolUse("StructuredOutput", { n: 3 }), reply().text("first"), reply().toolUse("StructuredOutput", { n: 4 }), reply().text("second")]);
    expect(await s.control("i1", { subtype: "initialize", jsonSchema: schema })).toMatchObject({ subtype: "success" });
    s.user("one");
    const first = await s.waitFor(isResult);
    s.user("two");
    const second = await s.waitFor(isResult, s.frames.indexOf(first) + 1);
    s.end();
    expect(await s.exit).toBe(0);
    expect([first, second]).toMatchObject([
      { subtype: "success", result: "first", structured_output: { n: 3 } },
      { subtype: "success", result: "second", structured_output: { n: 4 } },
    ]);
    const tools = server?.requests[0]?.body.tools as Array<{ name: string; input_schema: unknown }>;
    expect(tools.find((tool) => tool.name === "StructuredOutput")?.input_schema).toEqual(schema);
  });

  test("initialize with a jsonSchema that is not a schema object is refused with the reason and no turn runs", async () => {
    const s = await session([reply().text("must not be asked")]);
    s.send({ type: "control_request", request_id: "i1", request: { subtype: "initialize", jsonSchema: "an object" } });
    s.user("hello");
    expect(await s.exit).toBe(1);
    expect(s.frames).toEqual([{ type: "control_response", response: { subtype: "error", request_id: "i1", error: "initialize.jsonSchema must be a JSON Schema object" } }]);
    expect(server?.requests.length).toBe(0);
  });

  test("hook callbacks: a PreToolUse callback is asked with the hook input and its deny keeps the call from running", async () => {
    const s = await session(
      [reply().toolUse("Bash", { command: "touch made-by-bash", description: "Make a file" }), (request: RecordedRequest) => reply().text(`hook said: ${toolResults(request)[0]?.text ?? ""}`)],
      ["--permission-mode", "acceptEdits", "--allowedTools", "Bash(touch:*)"],
    );
    const init = await s.control("i1", { subtype: "initialize", hooks: { PreToolUse: [{ matcher: "Bash", hookCallbackIds: ["hook_0"], timeout: 30 }], PostToolUse: [{ matcher: "Read", hookCallbackIds: ["hook_1"] }] } });
    expect(init).toMatchObject({ subtype: "success", response: { hooks_applied: true } });
    s.user("make the file");
    const callback = await s.waitFor((frame) => frame.type === "control_request");
    const toolUse = s.frames.find((frame) => frame.type === "assistant") as unknown as { message: { content: Array<{ id: string }> } };
    expect(callback.request).toMatchObject({
      subtype: "hook_callback",
      callback_id: "hook_0",
      input: { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "touch made-by-bash", description: "Make a file" }, cwd: s.dir },
      tool_use_id: toolUse.message.content[0]?.id,
    });
    s.send({ type: "control_response", response: { subtype: "success", request_id: callback.request_id, response: { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "No files today." } } } });
    const result = await s.waitFor(isResult);
    s.end();
    expect(await s.exit).toBe(0);
    expect(existsSync(join(s.dir, "made-by-bash"))).toBe(false);
    expect(String(result.result)).toContain("No files today.");
    expect(s.frames.filter((frame) => frame.type === "control_request").length).toBe(1);
    expect(s.stderr).toEqual([]);
  });

  test("--permission-prompt-tool stdio: the host is asked with can_use_tool, its rule is kept, its denial reaches the model", async () => {
    const s = await session(
      [
        reply().toolUse("Bash", { command: "rm old.txt", description: "Remove old.txt" }),
        reply().toolUse("Bash", { command: "rm older.txt", description: "Remove older.txt" }),
        reply().toolUse("Write", { file_path: "/etc/clew-control-test.txt", content: "x" }),
        (request: RecordedRequest) => reply().text(`told: ${toolResults(request)[0]?.text ?? ""}`),
      ],
      ["--permission-prompt-tool", "stdio"],
      { "old.txt": "1\n", "older.txt": "2\n" },
    );
    s.user("clean up");
    const ask = await s.waitFor((frame) => frame.type === "control_request");
    const toolUse = s.frames.find((frame) => frame.type === "assistant") as unknown as { message: { content: Array<{ id: string }> } };
    expect(ask).toEqual({
      type: "control_request",
      request_id: expect.any(String),
      request: {
        subtype: "can_use_tool",
        tool_name: "Bash",
        display_name: "Bash",
        input: { command: "rm old.txt", description: "Remove old.txt" },
        tool_use_id: toolUse.message.content[0]?.id,
        description: expect.any(String),
        decision_reason: expect.any(String),
        decision_reason_type: "mode",
        permission_suggestions: [{ type: "addRules", rules: [expect.objectContaining({ toolName: "Bash" })], behavior: "allow", destination: "session" }],
      },
    });
    // While the question is out the host sees requires_action.
    expect(s.frames.filter((frame) => frame.subtype === "session_state_changed").map((frame) => frame.state)).toEqual(["running", "requires_action"]);
    s.send({ type: "control_response", response: { subtype: "success", request_id: ask.request_id, response: { behavior: "allow", updatedInput: { command: "rm old.txt", description: "Remove old.txt" }, updatedPermissions: [{ type: "addRules", rules: [{ toolName: "Bash", ruleContent: "rm:*" }], behavior: "allow", destination: "session" }] } } });
    // The rule the host added answers the second rm; the Write outside the folder is asked about.
    const index = s.frames.indexOf(ask) + 1;
    const write = await s.waitFor((frame) => frame.type === "control_request", index);
    expect(write.request).toMatchObject({ tool_name: "Write", blocked_path: "/etc/clew-control-test.txt" });
    s.send({ type: "control_response", response: { subtype: "success", request_id: write.request_id, response: { behavior: "deny", message: "Stay inside the project." } } });
    const result = await s.waitFor(isResult);
    s.end();
    expect(await s.exit).toBe(0);
    expect(existsSync(join(s.dir, "old.txt"))).toBe(false);
    expect(existsSync(join(s.dir, "older.txt"))).toBe(false);
    expect(existsSync("/etc/clew-control-test.txt")).toBe(false);
    expect(String(result.result)).toContain("Stay inside the project.");
    expect(toolResults(server?.requests[3] as RecordedRequest)[0]).toMatchObject({ isError: true });
    expect(s.frames.filter((frame) => frame.subtype === "session_state_changed").map((frame) => frame.state)).toEqual(["running", "requires_action", "running", "requires_action", "running", "idle"]);
  });

  test("standard input ending while a permission question is out denies the call; the turn finishes and the session ends cleanly", async () => {
    const s = await session(
      [reply().toolUse("Bash", { command: "rm keep.txt", description: "Remove keep.txt" }), (request: RecordedRequest) => reply().text(`told: ${toolResults(request)[0]?.text ?? ""}`)],
      ["--permission-prompt-tool", "stdio"],
      { "keep.txt": "1\n" },
    );
    s.user("remove keep.txt");
    await s.waitFor((frame) => frame.type === "control_request");
    s.end();
    expect(await s.exit).toBe(0);
    expect(existsSync(join(s.dir, "keep.txt"))).toBe(true);
    const result = s.frames.find(isResult);
    expect(result).toMatchObject({ subtype: "success" });
    expect(String(result?.result)).toContain("did not answer (standard input ended, so the host can no longer answer)");
    expect(server?.violations).toEqual([]);
  });

  test("SIGTERM stops the running turn, drops what is queued and exits 143 without waiting for standard input", async () => {
    const s = await session([reply().toolUse("Bash", { command: "touch started && sleep 30", description: "Wait" }), reply().text("never asked for")], ["--allowedTools", "Bash(touch:*),Bash(sleep:*)"]);
    s.user("wait");
    s.user("queued");
    while (!existsSync(join(s.dir, "started"))) await Bun.sleep(20);
    s.signal("SIGTERM");
    expect(await s.exit).toBe(143);
    expect(s.frames.filter(isResult)).toMatchObject([{ subtype: "error_during_execution" }]);
    expect(server?.requests.length).toBe(1);
    const [path] = transcripts(s.configDir);
    for (const line of readFileSync(path as string, "utf8").trim().split("\n")) expect(() => JSON.parse(line)).not.toThrow();
  });
});
