// Reading hook stdout (hooks.md §6.1, §6.3, §6.4): JSON only when it starts with "{", garbage and
// wrong field types reported, never silently honoured or dropped.
import { describe, expect, test } from "bun:test";
import type { PermissionUpdate } from "../../../src/hooks/inputs.ts";
import { parseStdout } from "../../../src/hooks/output.ts";
import { commandHook, harness } from "./helpers.ts";

const bashCall = { tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "toolu_1" };

function printing(event: string, json: unknown, matcher?: string): { hooks: unknown } {
  return commandHook(event, `cat <<'JSON'\n${typeof json === "string" ? json : JSON.stringify(json)}\nJSON`, {}, matcher);
}

describe("parseStdout", () => {
  test("JSON after leading whitespace is JSON", () => {
    expect(parseStdout('\n  {"continue": false, "stopReason": "done"}\n', "Stop")).toEqual({ kind: "json", output: { continue: false, stopReason: "done" }, notes: [] });
  });

  test("text before the JSON (a shell profile's echo) makes all of it plain text", () => {
    expect(parseStdout('Welcome!\n{"continue": false}', "Stop")).toEqual({ kind: "text", text: 'Welcome!\n{"continue": false}' });
  });

  test("broken JSON is plain text, with a note saying why", () => {
    const parsed = parseStdout('{"decision": "block", ', "Stop");
    expect(parsed.kind).toBe("text");
    expect(parsed.kind === "text" && parsed.note).toStartWith('stdout starts with "{" but is not valid JSON (');
  });

  test("wrong field types reject the whole output and name each field", () => {
    expect(parseStdout(JSON.stringify({ continue: "no", systemMessage: 3, hookSpecificOutput: { hookEventName: "PreToolUse", updatedInput: "x" } }), "PreToolUse")).toEqual({
      kind: "invalid",
      issues: ["continue must be true or false (got \"no\")", "systemMessage must be a string (got number)", "hookSpecificOutput.updatedInput must be an object (got \"x\")"],
    });
  });

  test("a lenient (async) parse drops only the bad fields", () => {
    expect(parseStdout(JSON.stringify({ systemMessage: "ok", continue: "no" }), "PostToolUse", true)).toEqual({
      kind: "json",
      output: { systemMessage: "ok" },
      notes: ['continue must be true or false (got "no"); the field was dropped'],
    });
  });

  test("hookSpecificOutput for another event is an error", () => {
    expect(parseStdout(JSON.stringify({ hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "x" } }), "PreToolUse")).toEqual({
      kind: "invalid",
      issues: ['hookSpecificOutput.hookEventName must be "PreToolUse" (got "PostToolUse")'],
    });
  });

  test("PermissionRequest decisions and permission updates are checked", () => {
    const good = { hookEventName: "PermissionRequest", decision: { behavior: "allow", updatedPermissions: [{ type: "addRules", rules: [{ toolName: "Bash", ruleContent: "npm test" }], behavior: "allow", destination: "session" }] } };
    expect(parseStdout(JSON.stringify({ hookSpecificOutput: good }), "PermissionRequest").kind).toBe("json");
    const bad = { hookEventName: "PermissionRequest", decision: { behavior: "allow", updatedPermissions: [{ type: "grantAll", destination: "session" }] } };
    expect(parseStdout(JSON.stringify({ hookSpecificOutput: bad }), "PermissionRequest")).toEqual({
      kind: "invalid",
      issues: ['hookSpecificOutput.decision must be an object whose "updatedPermissions" is an array of permission updates, each with "type" one of addRules, replaceRules, removeRules, setMode, addDirectories, removeDirectories (got object)'],
    });
  });

  test("terminalSequence outside the OSC/BEL allowlist is ignored with a note", () => {
    expect(parseStdout(JSON.stringify({ terminalSequence: "\u001b]0;title\u0007" }), "Stop")).toEqual({ kind: "json", output: { terminalSequence: "\u001b]0;title\u0007" }, notes: [] });
    expect(parseStdout(JSON.stringify({ terminalSequence: "\u001b[2J" }), "Stop")).toEqual({
      kind: "json",
      output: {},
      notes: ["terminalSequence ignored: only OSC 0/1/2/9/99/777 sequences and BEL are allowed"],
    });
  });
});

describe("hook output through real processes", () => {
  test("schema-invalid JSON on exit 0 is a non-blocking error naming the field; no decision is taken", async () => {
    const { engine } = harness([printing("PreToolUse", { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "yes" } })]);
    expect(await engine.fire("PreToolUse", bashCall)).toEqual({
      systemMessages: [],
      errors: ['PreToolUse:Bash hook error: invalid JSON output: hookSpecificOutput.permissionDecision must be one of "allow", "deny", "ask", "defer" (got "yes")'],
      terminalSequences: [],
      ran: 1,
      asyncStarted: 0,
      additionalContext: [],
    });
  });

  test("garbage that looks like JSON becomes plain context on UserPromptSubmit, with a note in the record", async () => {
    const { engine, records } = harness([printing("UserPromptSubmit", "{ not json")]);
    expect((await engine.fire("UserPromptSubmit", { prompt: "hi" })).additionalContext).toEqual(["{ not json"]);
    expect(records[0]?.message).toStartWith('stdout starts with "{" but is not valid JSON');
  });

  test("legacy top-level approve/block map to allow/deny on PreToolUse", async () => {
    const approve = harness([printing("PreToolUse", { decision: "approve", reason: "looks fine" })]);
    expect(await approve.engine.fire("PreToolUse", bashCall)).toMatchObject({ decision: "allow", reason: "looks fine" });
    const block = harness([printing("PreToolUse", { decision: "block", reason: "nope" })]);
    expect(await block.engine.fire("PreToolUse", bashCall)).toMatchObject({ decision: "deny", reason: "nope" });
  });

  test("universal fields: continue:false stops with stopReason, systemMessage is for the user", async () => {
    const { engine } = harness([printing("PostToolUse", { continue: false, stopReason: "Build broke; stopping", systemMessage: "heads up", suppressOutput: true })]);
    expect(await engine.fire("PostToolUse", { ...bashCall, tool_response: {} })).toEqual({
      stop: { reason: "Build broke; stopping", hookName: "PostToolUse:Bash" },
      systemMessages: ["heads up"],
      errors: [],
      terminalSequences: [],
      ran: 1,
      asyncStarted: 0,
      additionalContext: [],
      feedback: [],
    });
  });

  test("continue:false is ignored where the spec says so (Notification)", async () => {
    const { engine } = harness([printing("Notification", { continue: false, stopReason: "x" })]);
    expect((await engine.fire("Notification", { message: "m", notification_type: "idle_prompt" })).stop).toBeUndefined();
  });

  test("PreToolUse JSON: ask with reason, updatedInput and additionalContext", async () => {
    const { engine } = harness([
      printing("PreToolUse", {
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "ask",
          permissionDecisionReason: "Touches production config",
          updatedInput: { command: "kubectl diff -f prod.yaml" },
          additionalContext: "prod is frozen this week",
        },
      }),
    ]);
    expect(await engine.fire("PreToolUse", bashCall)).toEqual({
      systemMessages: [],
      errors: [],
      terminalSequences: [],
      ran: 1,
      asyncStarted: 0,
      additionalContext: ["prod is frozen this week"],
      decision: "ask",
      reason: "Touches production config",
      updatedInput: { command: "kubectl diff -f prod.yaml" },
    });
  });

  test("PermissionRequest: allow with updated input and permissions", async () => {
    const updates: PermissionUpdate[] = [{ type: "addRules", rules: [{ toolName: "Bash", ruleContent: "npm test" }], behavior: "allow", destination: "session" }];
    const { engine } = harness([
      printing("PermissionRequest", { hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow", updatedInput: { command: "npm test" }, updatedPermissions: updates } } }),
    ]);
    expect((await engine.fire("PermissionRequest", { tool_name: "Bash", tool_input: { command: "npm t" } })).decision).toEqual({
      behavior: "allow",
      updatedInput: { command: "npm test" },
      updatedPermissions: updates,
    });
  });

  test("SessionStart JSON fields", async () => {
    const { engine } = harness([
      printing("SessionStart", {
        hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "ctx", sessionTitle: "Fix login", initialUserMessage: "go", watchPaths: ["/p/.envrc"], reloadSkills: true },
      }),
    ]);
    expect(await engine.fire("SessionStart", { source: "startup" })).toMatchObject({
      additionalContext: ["ctx"],
      sessionTitle: "Fix login",
      initialUserMessage: "go",
      watchPaths: ["/p/.envrc"],
      reloadSkills: true,
    });
  });

  test("Stop decision block without a reason is reported, not obeyed", async () => {
    const { engine } = harness([printing("Stop", { decision: "block" })]);
    expect(await engine.fire("Stop", { stop_hook_active: false })).toMatchObject({
      errors: ['Stop hook error: decision "block" needs a "reason" telling the model what to do; ignored'],
    });
  });

  test("over-long context is capped at 10,000 characters and spilled when the caller can", async () => {
    const spilled: string[] = [];
    const { engine } = harness([commandHook("UserPromptSubmit", "head -c 12000 /dev/zero | tr '\\0' 'x'")], {
      spill: (text) => {
        spilled.push(text);
        return "/tmp/spill/hook-1.txt";
      },
    });
    const [context] = (await engine.fire("UserPromptSubmit", { prompt: "hi" })).additionalContext;
    expect(spilled.map((text) => text.length)).toEqual([12000]);
    expect(context).toBe(`${"x".repeat(2000)}\n… [hook output was 12000 characters; the full text is in /tmp/spill/hook-1.txt]`);
  });
});
