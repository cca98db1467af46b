// Hooks against the compiled binary, configured in user settings as a Claude Code user would:
// blocking, denying and rewriting tool calls, adding context after a tool and on prompts and
// session start, holding a Stop, and a hook that hangs. Context from hooks arrives as reminders
// after the cached prefix, which stays byte-identical with and without it.
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { lastUserReminders, lastUserText, reply, startFakeAnthropic, toolResults, type FakeServer, type RecordedRequest, type ScriptStep } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";
import { onlyTranscript, requestAt } from "../helpers/scenario.ts";
import { writeWorkspace } from "./workspaces.ts";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface HookSpec {
  event: string;
  matcher?: string;
  script: string;
  timeout?: number;
}

/** A workspace, a config dir whose user settings hold `hooks`, and one script file per hook. */
function setup(hooks: HookSpec[], files: Record<string, string> = {}) {
  const dir = writeWorkspace({ "keep.txt": "precious\n", ...files });
  const configDir = tempDirectory("clew-config-");
  const settings: Record<string, Array<{ matcher?: string; hooks: Array<Record<string, unknown>> }>> = {};
  hooks.forEach((hook, index) => {
    const path = join(configDir, `hook-${index}.sh`);
    writeFileSync(path, `#!/bin/bash\n${hook.script}\n`);
    chmodSync(path, 0o755);
    const handler: Record<string, unknown> = { type: "command", command: path, ...(hook.timeout ? { timeout: hook.timeout } : {}) };
    (settings[hook.event] ??= []).push({ ...(hook.matcher ? { matcher: hook.matcher } : {}), hooks: [handler] });
  });
  writeFileSync(join(configDir, "settings.json"), JSON.stringify({ hooks: settings }));
  return { dir, configDir };
}

async function run(space: { dir: string; configDir: string }, script: ScriptStep[], prompt = "do it", extra: string[] = []) {
  const fake = (server = await startFakeAnthropic({ script }));
  const result = await runClew(["-p", prompt, "--output-format", "json", "--permission-mode", "acceptEdits", ...extra], { cwd: space.dir, baseURL: fake.url, configDir: space.configDir });
  return { fake, result, json: result.stdout ? (JSON.parse(result.stdout) as Record<string, unknown>) : {} };
}

const allText = (request: RecordedRequest) => JSON.stringify(request.body.messages);

describe("scenario: hooks", () => {
  test("PreToolUse exit 2 blocks rm: the model reads the hook's stderr, the file survives", async () => {
    const space = setup([{ event: "PreToolUse", matcher: "Bash", script: 'input=$(cat); if echo "$input" | grep -q \'"rm \'; then echo "rm is not allowed here; move files to trash/ instead" >&2; exit 2; fi; exit 0' }]);
    const call = reply().toolUse("Bash", { command: "rm keep.txt" });
    const { fake, result } = await run(space, [call, reply().text("ok")], "delete it", ["--permission-mode", "bypassPermissions"]);
    expect(result.code).toBe(0);
    expect(existsSync(join(space.dir, "keep.txt"))).toBe(true);
    const [sent] = toolResults(requestAt(fake, 1));
    expect(sent?.isError).toBe(true);
    expect(sent?.text).toContain("rm is not allowed here; move files to trash/ instead");
  });

  test("PreToolUse JSON permissionDecision deny: the call is refused with the hook's reason", async () => {
    const space = setup([{ event: "PreToolUse", matcher: "Write|Edit", script: 'echo \'{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"generated files are read-only"}}\'' }]);
    const call = reply().toolUse("Write", { file_path: "gen.txt", content: "x\n" });
    const { fake, result } = await run(space, [call, reply().text("ok")]);
    expect(result.code).toBe(0);
    expect(existsSync(join(space.dir, "gen.txt"))).toBe(false);
    const [sent] = toolResults(requestAt(fake, 1));
    expect(sent?.isError).toBe(true);
    expect(sent?.text).toContain("generated files are read-only");
  });

  test("PreToolUse updatedInput rewrites a Bash command, and the rewritten command is what runs", async () => {
    const space = setup([{ event: "PreToolUse", matcher: "Bash", script: 'echo \'{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo rewritten-by-hook"}}}\'' }]);
    const call = reply().toolUse("Bash", { command: "echo original" });
    const { fake, result } = await run(space, [call, reply().text("ok")], "run", ["--allowedTools", "Bash(echo *)"]);
    expect(result.code).toBe(0);
    const [sent] = toolResults(requestAt(fake, 1));
    expect(sent?.text).toContain("rewritten-by-hook");
    expect(sent?.text).not.toContain("original");
  });

  test("a rewritten command still passes the permission gate: updatedInput cannot smuggle in what the rules deny", async () => {
    const space = setup([{ event: "PreToolUse", matcher: "Bash", script: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"touch pwned"}}}'` }]);
    const call = reply().toolUse("Bash", { command: "echo hi" });
    const { fake, result } = await run(space, [call, reply().text("ok")], "run", ["--allowedTools", "Bash(echo *)", "--disallowedTools", "Bash(touch *)"]);
    expect(result.code).toBe(0);
    expect(existsSync(join(space.dir, "pwned"))).toBe(false);
    expect(toolResults(requestAt(fake, 1))[0]?.isError).toBe(true);
  });

  test("PermissionDenied hooks hear of an automatic denial (with its reason) and can tell the model to retry", async () => {
    const space = setup([{ event: "PermissionDenied", script: 'cat > denied.json; echo \'{"hookSpecificOutput":{"hookEventName":"PermissionDenied","retry":true}}\'' }]);
    const call = reply().toolUse("Bash", { command: "make deploy" });
    const { fake, result } = await run(space, [call, reply().text("ok")], "deploy");
    expect(result.code).toBe(0);
    const [sent] = toolResults(requestAt(fake, 1));
    expect(sent?.isError).toBe(true);
    expect(sent?.text).toEndWith("A PermissionDenied hook says you may retry this call.");
    const input = JSON.parse(readFileSync(join(space.dir, "denied.json"), "utf8")) as Record<string, unknown>;
    expect(input).toMatchObject({ hook_event_name: "PermissionDenied", tool_name: "Bash", tool_input: { command: "make deploy" }, tool_use_id: call.toolUseIds[0] });
    expect(String(input.reason)).toContain("no allow rule or read-only check covers `make deploy`");
  });

  test("PermissionRequest hooks answer an approval nobody is there to give: allow runs the call, deny refuses it with the hook's message", async () => {
    const allowing = setup([{ event: "PermissionRequest", matcher: "Bash", script: 'cat > request.json; echo \'{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}\'' }], { "deploy.sh": "touch deployed.txt\n" });
    const allowed = await run(allowing, [reply().toolUse("Bash", { command: "bash deploy.sh" }), reply().text("ok")], "deploy");
    expect(allowed.result.code).toBe(0);
    expect(toolResults(requestAt(allowed.fake, 1))[0]?.isError).toBe(false);
    expect(existsSync(join(allowing.dir, "deployed.txt"))).toBe(true);
    const input = JSON.parse(readFileSync(join(allowing.dir, "request.json"), "utf8")) as Record<string, unknown>;
    expect(input).toMatchObject({ hook_event_name: "PermissionRequest", tool_name: "Bash", tool_input: { command: "bash deploy.sh" } });

    const denying = setup([{ event: "PermissionRequest", script: 'echo \'{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"deploys wait for the release window"}}}\'' }], { "deploy.sh": "touch deployed.txt\n" });
    const denied = await run(denying, [reply().toolUse("Bash", { command: "bash deploy.sh" }), reply().text("ok")], "deploy");
    const [sent] = toolResults(requestAt(denied.fake, 1));
    expect(sent?.isError).toBe(true);
    expect(sent?.text).toContain("deploys wait for the release window");
    expect(existsSync(join(denying.dir, "deployed.txt"))).toBe(false);
  });

  test("SessionEnd hooks run when a headless session ends, with the reason", async () => {
    const space = setup([{ event: "SessionEnd", script: "cat > ended.json" }]);
    const { result, json } = await run(space, [reply().text("done")]);
    expect(result.code).toBe(0);
    const input = JSON.parse(readFileSync(join(space.dir, "ended.json"), "utf8")) as Record<string, unknown>;
    expect(input).toMatchObject({ hook_event_name: "SessionEnd", reason: "other", session_id: json.session_id });
  });

  test("PostToolUse additionalContext reaches the next request", async () => {
    const space = setup([{ event: "PostToolUse", matcher: "Read", script: 'echo \'{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"lint: keep.txt has a trailing newline"}}\'' }]);
    const call = reply().toolUse("Read", { file_path: join(space.dir, "keep.txt") });
    const { fake, result } = await run(space, [call, reply().text("ok")]);
    expect(result.code).toBe(0);
    expect(toolResults(requestAt(fake, 1))[0]?.isError).toBe(false);
    expect(lastUserReminders(requestAt(fake, 1)).join("\n")).toContain("lint: keep.txt has a trailing newline");
  });

  test("a Stop hook blocks once with a reason; the loop goes on with it, then stops", async () => {
    const marker = "stop-seen";
    const space = setup([{ event: "Stop", script: `if [ -f ${marker} ]; then exit 0; fi; touch ${marker}; echo '{"decision":"block","reason":"run the tests before stopping"}'` }]);
    const { fake, result, json } = await run(space, [reply().text("first answer"), reply().text("tests ran; done")]);
    expect(result.code).toBe(0);
    expect(json.result).toBe("tests ran; done");
    expect(fake.requests.filter((request) => request.endpoint === "messages")).toHaveLength(2);
    expect(lastUserText(requestAt(fake, 1))).toContain("run the tests before stopping");
  });

  test("UserPromptSubmit adds context to the prompt", async () => {
    const space = setup([{ event: "UserPromptSubmit", script: "echo 'ticket ABC-123 is the one to fix'" }]);
    const { fake, result } = await run(space, [reply().text("ok")], "fix the ticket");
    expect(result.code).toBe(0);
    expect(lastUserText(requestAt(fake, 0))).toBe("fix the ticket");
    expect(lastUserReminders(requestAt(fake, 0)).join("\n")).toContain("ticket ABC-123 is the one to fix");
  });

  test("UserPromptSubmit can block a prompt: nothing is sent, the user is told why", async () => {
    const space = setup([{ event: "UserPromptSubmit", script: 'echo "prompts mentioning passwords are blocked" >&2; exit 2' }]);
    const { fake, result } = await run(space, [reply().text("never")], "what is the admin password");
    expect(fake.requests.filter((request) => request.endpoint === "messages")).toHaveLength(0);
    expect(result.stderr).toContain("prompts mentioning passwords are blocked");
  });

  test("an untrusted folder's project hooks do not run headless: one stderr line names clew trust; trusted, they run", async () => {
    const dir = writeWorkspace({ ".claude/settings.json": JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: "touch hook-ran" }] }] } }) });
    const configDir = tempDirectory("clew-config-");
    const first = (server = await startFakeAnthropic({ script: [reply().text("ok")] }));
    const untrusted = await runClew(["-p", "hi"], { cwd: dir, baseURL: first.url, configDir });
    expect(untrusted.code).toBe(0);
    expect(existsSync(join(dir, "hook-ran"))).toBe(false);
    const lines = untrusted.stderr.split("\n").filter((line) => line.includes("are not run"));
    expect(lines).toEqual([`clew: hooks in ${join(dir, ".claude/settings.json")} are not run: this folder is not trusted. To run them, run: clew trust ${JSON.stringify(dir)}`]);
    await first.close();
    expect((await runClew(["trust"], { cwd: dir, configDir })).code).toBe(0);
    const second = (server = await startFakeAnthropic({ script: [reply().text("ok")] }));
    const trusted = await runClew(["-p", "hi"], { cwd: dir, baseURL: second.url, configDir });
    expect(trusted.code).toBe(0);
    expect(existsSync(join(dir, "hook-ran"))).toBe(true);
  });

  test("bad hook configuration is reported with file and key path; the other hooks and the deny rules still work", async () => {
    const dir = writeWorkspace({});
    const configDir = tempDirectory("clew-config-");
    const settings = {
      permissions: { deny: ["Bash(curl *)"] },
      hooks: {
        PreToolUse: [
          { matcher: "Bash(", hooks: [{ type: "command", command: "true" }] },
          { matcher: "Bash", hooks: [{ type: "command", command: `touch ${join(dir, "good-hook-ran")}` }] },
        ],
        NoSuchEvent: [{ hooks: [{ type: "command", command: "true" }] }],
      },
    };
    writeFileSync(join(configDir, "settings.json"), JSON.stringify(settings));
    const fake = (server = await startFakeAnthropic({ script: [reply().toolUse("Bash", { command: "curl https://example.com" }), reply().text("ok")] }));
    const run = await runClew(["-p", "go", "--permission-mode", "bypassPermissions"], { cwd: dir, baseURL: fake.url, configDir });
    expect(run.code).toBe(0);
    const file = join(configDir, "settings.json");
    expect(run.stderr).toContain(`clew: ${file}: hooks.PreToolUse[0].matcher "Bash(" is not a valid regular expression`);
    expect(run.stderr).toContain(`hooks.NoSuchEvent: unknown hook event 'NoSuchEvent'`);
    expect(existsSync(join(dir, "good-hook-ran"))).toBe(true);
    const [sent] = toolResults(requestAt(fake, 1));
    expect(sent?.isError).toBe(true);
    expect(sent?.text).toContain("denied by the deny rule Bash(curl *)");
  });

  test("SessionStart can export variables through CLAUDE_ENV_FILE for later Bash calls; runs are in the transcript and stream-json", async () => {
    const space = setup([{ event: "SessionStart", script: 'echo "export DEPLOY_TARGET=staging-eu" >> "$CLAUDE_ENV_FILE"' }]);
    const fake = (server = await startFakeAnthropic({ script: [reply().toolUse("Bash", { command: "echo target=$DEPLOY_TARGET" }), reply().text("ok")] }));
    const result = await runClew(["-p", "where?", "--output-format", "stream-json", "--verbose", "--allowedTools", "Bash(echo *)"], { cwd: space.dir, baseURL: fake.url, configDir: space.configDir });
    expect(result.code).toBe(0);
    expect(toolResults(requestAt(fake, 1))[0]?.text).toContain("target=staging-eu");
    const transcript = readFileSync(onlyTranscript(space.configDir), "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(transcript.find((record) => record.subtype === "hook")).toMatchObject({ type: "system", subtype: "hook", event: "SessionStart", exitCode: 0, outcome: "success" });
  });

  test("stream-json carries hook_started and hook_response frames for hooks that run during the turn", async () => {
    const space = setup([{ event: "PostToolUse", matcher: "Read", script: "echo checked >&2; exit 0" }]);
    const fake = (server = await startFakeAnthropic({ script: [reply().toolUse("Read", { file_path: join(space.dir, "keep.txt") }), reply().text("ok")] }));
    const result = await runClew(["-p", "read", "--output-format", "stream-json", "--verbose"], { cwd: space.dir, baseURL: fake.url, configDir: space.configDir });
    expect(result.code).toBe(0);
    const frames = result.stdout.trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    const started = frames.find((frame) => frame.subtype === "hook_started");
    const response = frames.find((frame) => frame.subtype === "hook_response");
    expect(started).toMatchObject({ type: "system", hook_name: "PostToolUse:Read", hook_event: "PostToolUse" });
    expect(response).toMatchObject({ type: "system", hook_name: "PostToolUse:Read", hook_event: "PostToolUse", exit_code: 0, stderr: "checked\n" });
    expect(frames.indexOf(started ?? {})).toBeLessThan(frames.indexOf(response ?? {}));
  });

  test("SessionStart output is in the first request", async () => {
    const space = setup([{ event: "SessionStart", script: "echo 'branch policy: never push to main'" }]);
    const { fake, result } = await run(space, [reply().text("ok")]);
    expect(result.code).toBe(0);
    expect(allText(requestAt(fake, 0))).toContain("branch policy: never push to main");
  });

  test("a hook that sleeps past its timeout is killed and the turn goes on", async () => {
    const space = setup([{ event: "PreToolUse", matcher: "Read", script: "sleep 30", timeout: 1 }]);
    const call = reply().toolUse("Read", { file_path: join(space.dir, "keep.txt") });
    const started = Date.now();
    const { fake, result, json } = await run(space, [call, reply().text("read it")]);
    expect(result.code).toBe(0);
    expect(json.result).toBe("read it");
    expect(toolResults(requestAt(fake, 1))[0]?.text).toContain("precious");
    // Killed, not waited for: the whole run is far from the hook's 30 s.
    expect(Date.now() - started).toBeLessThan(25_000);
  });

  test("hook context lands after the cached prefix: tools and system are byte-identical with and without it", async () => {
    const script = (dir: string) => [reply().toolUse("Read", { file_path: join(dir, "keep.txt") }), reply().text("ok")];
    const files = { "AGENTS.md": "# Rules\nBe brief.\n" };
    const plain = setup([], files);
    const first = (await run(plain, script(plain.dir))).fake;
    const before = requestAt(first, 1);
    await first.close();
    const hooked = setup(
      [
        { event: "SessionStart", script: "echo 'session context from a hook'" },
        { event: "PostToolUse", matcher: "Read", script: 'echo \'{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"post-tool context from a hook"}}\'' },
      ],
      files,
    );
    const second = (await run({ dir: plain.dir, configDir: hooked.configDir }, script(plain.dir))).fake;
    const after = requestAt(second, 1);
    expect(JSON.stringify(after.body.system)).toBe(JSON.stringify(before.body.system));
    expect(JSON.stringify(after.body.tools)).toBe(JSON.stringify(before.body.tools));
    expect(JSON.stringify(after.body.system)).not.toContain("from a hook");
    expect(allText(after)).toContain("session context from a hook");
    expect(allText(after)).toContain("post-tool context from a hook");
  });
});
