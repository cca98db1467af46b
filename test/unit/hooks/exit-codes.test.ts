// Exit-code semantics per event (hooks.md §6.1–6.2), with real hook processes.
import { describe, expect, test } from "bun:test";
import { commandHook, harness } from "./helpers.ts";

const bashCall = { tool_name: "Bash", tool_input: { command: "rm -rf build" }, tool_use_id: "toolu_1" };
const base = { systemMessages: [], errors: [], terminalSequences: [], ran: 1, asyncStarted: 0 };

describe("exit codes", () => {
  test("PreToolUse exit 2 denies the call with stderr as the reason for the model", async () => {
    const { engine } = harness([commandHook("PreToolUse", "echo 'rm is not allowed here' >&2; exit 2", {}, "Bash")]);
    expect(await engine.fire("PreToolUse", bashCall)).toEqual({ ...base, additionalContext: [], decision: "deny", reason: "rm is not allowed here" });
  });

  test("exit 1 does not block: a non-blocking error with the first stderr line", async () => {
    const { engine } = harness([commandHook("PreToolUse", "echo 'oops' >&2; echo 'second line' >&2; exit 1")]);
    expect(await engine.fire("PreToolUse", bashCall)).toEqual({
      ...base,
      additionalContext: [],
      errors: ["PreToolUse:Bash hook error: Failed with non-blocking status code 1: oops"],
    });
  });

  test("a command that cannot start (127) is a non-blocking error", async () => {
    const { engine } = harness([commandHook("PreToolUse", "/no/such/hook-script")]);
    const outcome = await engine.fire("PreToolUse", bashCall);
    expect(outcome.decision).toBeUndefined();
    expect(outcome.errors).toHaveLength(1);
    expect(outcome.errors[0]).toStartWith("PreToolUse:Bash hook error: Failed with non-blocking status code 127: ");
  });

  test("another exit code with valid JSON: the JSON alone decides, no error", async () => {
    const json = JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "from JSON" } });
    const { engine } = harness([commandHook("PreToolUse", `echo '${json}'; exit 3`)]);
    expect(await engine.fire("PreToolUse", bashCall)).toEqual({ ...base, additionalContext: [], decision: "deny", reason: "from JSON" });
  });

  test("exit 2 cannot be overridden by a JSON allow; a JSON deny reason wins over stderr", async () => {
    const allow = JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" } });
    const deny = JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "json reason" } });
    const first = harness([commandHook("PreToolUse", `echo '${allow}'; echo 'stderr reason' >&2; exit 2`)]);
    expect(await first.engine.fire("PreToolUse", bashCall)).toMatchObject({ decision: "deny", reason: "stderr reason" });
    const second = harness([commandHook("PreToolUse", `echo '${deny}'; echo 'stderr reason' >&2; exit 2`)]);
    expect(await second.engine.fire("PreToolUse", bashCall)).toMatchObject({ decision: "deny", reason: "json reason" });
  });

  test("exit 2 with schema-invalid JSON still blocks", async () => {
    const bad = JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "maybe" } });
    const { engine, records } = harness([commandHook("PreToolUse", `echo '${bad}'; echo 'no' >&2; exit 2`)]);
    expect(await engine.fire("PreToolUse", bashCall)).toMatchObject({ decision: "deny", reason: "no", errors: [] });
    expect(records[0]?.message).toContain('hookSpecificOutput.permissionDecision must be one of "allow", "deny", "ask", "defer" (got "maybe")');
  });

  test("UserPromptSubmit exit 2 blocks the prompt; stderr is the reason for the user", async () => {
    const { engine } = harness([commandHook("UserPromptSubmit", "echo 'no secrets in prompts' >&2; exit 2")]);
    expect(await engine.fire("UserPromptSubmit", { prompt: "my key is sk-123" })).toEqual({
      ...base,
      additionalContext: [],
      block: { reason: "no secrets in prompts", suppressOriginalPrompt: false },
    });
  });

  test("UserPromptSubmit and SessionStart: plain stdout on exit 0 becomes context", async () => {
    const prompt = harness([commandHook("UserPromptSubmit", "echo 'Current branch: main'")]);
    expect(await prompt.engine.fire("UserPromptSubmit", { prompt: "hi" })).toEqual({ ...base, additionalContext: ["Current branch: main"] });
    const start = harness([commandHook("SessionStart", "printf '  Project uses pnpm.\\n\\n'", {}, "startup")]);
    expect(await start.engine.fire("SessionStart", { source: "startup" })).toEqual({
      ...base,
      additionalContext: ["Project uses pnpm."],
      watchPaths: [],
      reloadSkills: false,
      env: {},
      envProblems: [],
    });
  });

  test("PostToolUse: plain stdout is not context; exit 2 stderr is feedback for the model", async () => {
    const plain = harness([commandHook("PostToolUse", "echo 'formatted 3 files'")]);
    const fields = { ...bashCall, tool_response: { stdout: "", stderr: "", interrupted: false, isImage: false } };
    expect(await plain.engine.fire("PostToolUse", fields)).toEqual({ ...base, additionalContext: [], feedback: [] });
    expect(plain.records[0]?.message).toBe('plain stdout is not used on PostToolUse (only JSON starting with "{" is read)');
    const blocking = harness([commandHook("PostToolUse", "echo 'lint failed: missing semicolon' >&2; exit 2")]);
    expect(await blocking.engine.fire("PostToolUse", fields)).toEqual({ ...base, additionalContext: [], feedback: ["lint failed: missing semicolon"] });
  });

  test("PostToolUseFailure exit 2 feeds stderr back", async () => {
    const { engine } = harness([commandHook("PostToolUseFailure", "echo 'try --force' >&2; exit 2")]);
    expect(await engine.fire("PostToolUseFailure", { ...bashCall, error: "Exit code 1\nfailed" })).toEqual({ ...base, additionalContext: [], feedback: ["try --force"] });
  });

  test("Stop and SubagentStop exit 2 prevent stopping, stderr as the instruction", async () => {
    const stop = harness([commandHook("Stop", "echo 'run the tests first' >&2; exit 2")]);
    expect(await stop.engine.fire("Stop", { stop_hook_active: false })).toEqual({ ...base, additionalContext: [], block: { reason: "run the tests first" } });
    const sub = harness([commandHook("SubagentStop", "echo 'not done' >&2; exit 2", {}, "Explore")]);
    expect(
      await sub.engine.fire("SubagentStop", { stop_hook_active: false, agent_id: "a1", agent_type: "Explore", agent_transcript_path: "/t/a1.jsonl" }),
    ).toEqual({ ...base, additionalContext: [], block: { reason: "not done" } });
  });

  test("PreCompact exit 2 blocks compaction", async () => {
    const { engine } = harness([commandHook("PreCompact", "echo 'not now' >&2; exit 2", {}, "manual")]);
    expect(await engine.fire("PreCompact", { trigger: "manual", custom_instructions: "keep the plan" })).toEqual({ ...base, block: { reason: "not now" } });
  });

  test("events that cannot block turn exit 2 into a notice for the user", async () => {
    for (const [event, fields] of [
      ["SessionStart", { source: "startup" }],
      ["SubagentStart", { agent_id: "a1", agent_type: "Explore" }],
      ["PostCompact", { trigger: "auto", compact_summary: "s" }],
      ["SessionEnd", { reason: "other" }],
    ] as const) {
      const { engine } = harness([commandHook(event, "echo 'could not sync' >&2; exit 2")]);
      const outcome = await engine.fire(event, fields as never);
      expect(outcome.errors.length).toBe(1);
      expect(outcome.errors[0]).toEndWith("hook error: could not sync");
      expect("block" in outcome).toBe(false);
    }
  });

  test("PermissionRequest, PermissionDenied and Notification ignore exit 2", async () => {
    const request = harness([commandHook("PermissionRequest", "echo 'denied?' >&2; exit 2")]);
    expect(await request.engine.fire("PermissionRequest", { tool_name: "Bash", tool_input: { command: "ls" } })).toEqual(base);
    expect(request.records[0]?.message).toBe("exit code 2 has no effect on PermissionRequest (answer with hookSpecificOutput.decision instead)");
    const denied = harness([commandHook("PermissionDenied", "exit 2")]);
    expect(await denied.engine.fire("PermissionDenied", { ...bashCall, reason: "Blocked by classifier" })).toEqual({ ...base, retry: false });
    const notification = harness([commandHook("Notification", "exit 2", {}, "idle_prompt")]);
    expect(await notification.engine.fire("Notification", { message: "Claude is waiting", notification_type: "idle_prompt" })).toEqual({ ...base, additionalContext: [] });
  });
});
