// Claude Code's flags for shaping the prompt and the session, against the compiled binary:
// --exclude-dynamic-system-prompt-sections (the system prompt the same on every machine, the
// environment and CLAUDE.md in the first user message), --append-subagent-system-prompt,
// --autocompact, and the accepted-only --forward-subagent-text and --prompt-suggestions.
import { afterEach, describe, expect, test } from "bun:test";
import { messagesOf, reply, startFakeAnthropic, textOf, type FakeServer, type RecordedRequest, type ScriptStep } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";
import { writeWorkspace } from "./workspaces.ts";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const messagesRequests = (fake: FakeServer): RecordedRequest[] => fake.requests.filter((request) => request.endpoint === "messages");
const systemText = (request: RecordedRequest | undefined) => textOf(request?.body.system);

async function run(args: string[], script: ScriptStep[], files: Record<string, string> = { "CLAUDE.md": "Always answer in haiku.\n" }) {
  const fake = (server = await startFakeAnthropic({ script, rejectInvalid: true }));
  const cwd = writeWorkspace(files);
  const result = await runClew(["-p", "hello", ...args], { cwd, configDir: tempDirectory("clew-config-"), baseURL: fake.url });
  return { ...result, cwd, requests: messagesRequests(fake) };
}

describe("prompt and session flags", () => {
  test("--exclude-dynamic-system-prompt-sections: the same system prompt in any folder; the environment and CLAUDE.md open the first message", async () => {
    const flag = ["--exclude-dynamic-system-prompt-sections"];
    const first = await run(flag, [reply().toolUse("Bash", { command: "true" }), reply().text("done")], { "CLAUDE.md": "Always answer in haiku.\n" });
    const second = await run(flag, [reply().text("done")], { "CLAUDE.md": "Never use semicolons.\n" });
    expect([first.code, second.code]).toEqual([0, 0]);
    expect(systemText(first.requests[0])).toBe(systemText(second.requests[0]));
    expect(systemText(first.requests[0])).not.toContain("<env>");
    expect(systemText(first.requests[0])).not.toContain("haiku");
    const opening = messagesOf(first.requests[0] as RecordedRequest)[0]?.content.map((block) => String(block.text ?? "")).join("\n") ?? "";
    expect(opening).toContain(`Working directory: ${first.cwd}`);
    expect(opening).toContain("Always answer in haiku.");
    // Sent once: the next request repeats the first message as it was.
    expect(messagesOf(first.requests[1] as RecordedRequest)[0]).toEqual(messagesOf(first.requests[0] as RecordedRequest)[0]);
    // Without the flag both are in the system prompt, as before.
    const plain = await run([], [reply().text("done")]);
    expect(systemText(plain.requests[0])).toContain("<env>");
    expect(systemText(plain.requests[0])).toContain("Always answer in haiku.");
  });

  test("--append-subagent-system-prompt reaches every helper's system prompt and not the main one", async () => {
    const result = await run(["--append-subagent-system-prompt", "Report in one line.", "--permission-mode", "bypassPermissions"], [
      reply().toolUse("Agent", { description: "look", prompt: "look around", subagent_type: "general-purpose" }),
      reply().text("looked"),
      reply().text("done"),
    ]);
    expect(result.code).toBe(0);
    expect(systemText(result.requests[0])).not.toContain("Report in one line.");
    expect(systemText(result.requests[1])).toContain("Report in one line.");
  });

  test("--autocompact sets the session's window; a window out of range is refused before the run", async () => {
    const set = await run(["--autocompact", "400k", "--output-format", "json"], [reply().text("done")]);
    expect(JSON.parse(set.stdout).context_window.window_tokens).toBe(400_000);
    const auto = await run(["--autocompact", "auto", "--output-format", "json"], [reply().text("done")]);
    expect(JSON.parse(auto.stdout).context_window.window_tokens).not.toBe(400_000);
    const bad = await run(["--autocompact", "5000"], []);
    expect({ code: bad.code, requests: bad.requests.length }).toEqual({ code: 1, requests: 0 });
    expect(bad.stderr).toContain("option '--autocompact <auto|tokens>' argument '5000' is invalid");
  });

  test("--forward-subagent-text and --prompt-suggestions are taken; the latter says it has no effect", async () => {
    const result = await run(["--forward-subagent-text", "--prompt-suggestions"], [reply().text("done")]);
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 0, stdout: "done\n" });
    expect(result.stderr).toContain("clew: --prompt-suggestions has no effect: clew makes no prompt suggestions");
  });
});

describe("-n / --name", () => {
  test("a named session is resumed by its name; an unknown name and a name two sessions share are errors", async () => {
    const fake = (server = await startFakeAnthropic({ script: [reply().text("first"), reply().text("again"), reply().text("other")] }));
    const cwd = writeWorkspace({ "README.md": "hi\n" });
    const configDir = tempDirectory("clew-config-");
    const options = { cwd, configDir, baseURL: fake.url };
    const named = await runClew(["-p", "remember the word kiwi", "-n", "fruit-task", "--output-format", "json"], options);
    const sessionId = JSON.parse(named.stdout).session_id as string;
    const resumed = await runClew(["-p", "what was the word?", "--resume", "fruit-task", "--output-format", "json"], options);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ session_id: sessionId, result: "again" });
    expect(JSON.stringify(messagesRequests(fake)[1]?.body.messages)).toContain("remember the word kiwi");

    const unknown = await runClew(["-p", "hi", "--resume", "no-such-name"], options);
    expect({ code: unknown.code, stderr: unknown.stderr.trim() }).toEqual({ code: 1, stderr: "No conversation found with session ID: no-such-name" });

    await runClew(["-p", "another", "--name", "fruit-task"], options);
    const twice = await runClew(["-p", "hi", "-r", "fruit-task"], options);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('More than one conversation is named "fruit-task"');
    expect(twice.stderr).toContain(sessionId);
  });
});

describe("--max-wall-time", () => {
  test("stops the whole run at the deadline, a command under way included, as an error of its own", async () => {
    const script = [reply().toolUse("Bash", { command: "sleep 30" }), reply().text("never")];
    const json = await run(["--max-wall-time", "1.5s", "--output-format", "json", "--permission-mode", "bypassPermissions"], script);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ subtype: "error_during_execution", is_error: true, errors: ["Reached maximum wall time (1.5s)"], terminal_reason: "max_wall_time" });
    expect(JSON.parse(json.stdout).duration_ms).toBeLessThan(20_000);
    const text = await run(["--max-wall-time", "1s", "--permission-mode", "bypassPermissions"], [reply().toolUse("Bash", { command: "sleep 30" }), reply().text("never")]);
    expect({ code: text.code, stdout: text.stdout.trim() }).toEqual({ code: 1, stdout: "Error: Reached maximum wall time (1s)" });
    const bad = await run(["--max-wall-time", "soon"], []);
    expect(bad.stderr).toContain("option '--max-wall-time <duration>' argument 'soon' is invalid");
  });
});
