// Which hooks run for an event: `if` conditions (through the injected rule matcher), trust, once,
// agent scope, async hooks that never hold the event, and combining several hooks' answers.
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PermissionUpdate } from "../../../src/hooks/inputs.ts";
import { commandHook, harness, projectSettings, tempDir, userSettings } from "./helpers.ts";

const bashCall = { tool_name: "Bash", tool_input: { command: "git push origin main" }, tool_use_id: "toolu_2" };

function decide(decision: string, reason: string, extra: Record<string, unknown> = {}): string {
  const json = JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: decision, permissionDecisionReason: reason, ...extra } });
  return `echo '${json}'`;
}

describe("selecting hooks", () => {
  test("`if` goes through the injected rule matcher with the tool name and input", async () => {
    const calls: unknown[][] = [];
    const { engine } = harness(
      [
        {
          hooks: {
            PreToolUse: [
              {
                matcher: "Bash",
                hooks: [
                  { type: "command", command: "echo push-guard", if: "Bash(git push *)" },
                  { type: "command", command: "echo commit-guard", if: "Bash(git commit *)" },
                  { type: "command", command: "echo broken-rule", if: "Bash(" },
                ],
              },
            ],
          },
        },
      ],
      {
        matchesRule: (rule, toolName, toolInput) => {
          calls.push([rule, toolName, toolInput]);
          if (rule === "Bash(") throw new Error("unparsable rule");
          return rule === "Bash(git push *)";
        },
      },
    );
    const outcome = await engine.fire("PreToolUse", bashCall);
    expect(outcome.ran).toBe(2);
    expect(calls).toEqual([
      ["Bash(git push *)", "Bash", { command: "git push origin main" }],
      ["Bash(git commit *)", "Bash", { command: "git push origin main" }],
      ["Bash(", "Bash", { command: "git push origin main" }],
    ]);
  });

  test("the caller's allow() holds back shared-project hooks until trusted", async () => {
    const projectDir = tempDir();
    let trusted = false;
    const { engine } = harness(
      [
        { origin: projectSettings(projectDir), ...commandHook("UserPromptSubmit", "echo from-project") },
        { origin: userSettings(), ...commandHook("UserPromptSubmit", "echo from-user") },
      ],
      { projectDir, allow: (_hook, source) => trusted || !source.sharedProject },
    );
    expect((await engine.fire("UserPromptSubmit", { prompt: "x" })).additionalContext).toEqual(["from-user"]);
    trusted = true;
    expect((await engine.fire("UserPromptSubmit", { prompt: "x" })).additionalContext).toEqual(["from-project", "from-user"]);
  });

  test("a skill's once:true hook runs once, and survives a reconfiguration", async () => {
    const skill = { kind: "skill", name: "deploy", file: "/p/.claude/skills/deploy/SKILL.md" } as const;
    const { engine, config } = harness([{ origin: skill, ...commandHook("UserPromptSubmit", "echo once", { once: true }) }]);
    expect((await engine.fire("UserPromptSubmit", { prompt: "a" })).additionalContext).toEqual(["once"]);
    engine.setConfig(config);
    expect((await engine.fire("UserPromptSubmit", { prompt: "b" })).ran).toBe(0);
  });

  test("an agent's hooks run only while that agent type runs", async () => {
    const agent = { kind: "agent", name: "reviewer", file: "/p/.claude/agents/reviewer.md" } as const;
    const { engine } = harness([{ origin: agent, ...commandHook("PreToolUse", "echo reviewer-guard") }]);
    expect((await engine.fire("PreToolUse", bashCall)).ran).toBe(0);
    expect((await engine.fire("PreToolUse", bashCall, { common: { agent_id: "a1", agent_type: "reviewer" } })).ran).toBe(1);
  });

  test("hasHooks tells whether an event has any active hook", () => {
    const { engine } = harness([commandHook("Stop", "true"), { hooks: { PreToolUse: [{ matcher: "(", hooks: [{ type: "command", command: "true" }] }] } }]);
    expect([engine.hasHooks("Stop"), engine.hasHooks("PreToolUse"), engine.hasHooks("SessionEnd")]).toEqual([true, false, false]);
  });
});

describe("combining several hooks", () => {
  test("deny beats ask beats allow; reasons of the winning decision joined in configuration order", async () => {
    const { engine } = harness([
      {
        hooks: {
          PreToolUse: [
            { hooks: [{ type: "command", command: decide("allow", "fine") }] },
            { hooks: [{ type: "command", command: decide("deny", "no pushes to main") }] },
            { hooks: [{ type: "command", command: decide("ask", "confirm") }] },
            { hooks: [{ type: "command", command: "echo 'frozen' >&2; exit 2" }] },
          ],
        },
      },
    ]);
    expect(await engine.fire("PreToolUse", bashCall)).toMatchObject({ decision: "deny", reason: "no pushes to main\nfrozen" });
  });

  test("ask beats allow; the last updatedInput in configuration order wins; every context is kept", async () => {
    const { engine } = harness([
      {
        hooks: {
          PreToolUse: [
            { hooks: [{ type: "command", command: decide("allow", "ok", { updatedInput: { command: "git push --dry-run" }, additionalContext: "one" }) }] },
            { hooks: [{ type: "command", command: decide("ask", "are you sure?", { updatedInput: { command: "git push -n" }, additionalContext: "two" }) }] },
          ],
        },
      },
    ]);
    expect(await engine.fire("PreToolUse", bashCall)).toEqual({
      systemMessages: [],
      errors: [],
      terminalSequences: [],
      ran: 2,
      asyncStarted: 0,
      additionalContext: ["one", "two"],
      decision: "ask",
      reason: "are you sure?",
      updatedInput: { command: "git push -n" },
    });
  });

  test("a deny drops every updatedInput", async () => {
    const { engine } = harness([
      { hooks: { PreToolUse: [{ hooks: [{ type: "command", command: decide("allow", "ok", { updatedInput: { command: "x" } }) }, { type: "command", command: decide("deny", "no") }] }] } },
    ]);
    const outcome = await engine.fire("PreToolUse", bashCall);
    expect([outcome.decision, outcome.reason, outcome.updatedInput]).toEqual(["deny", "no", undefined]);
  });

  test("PermissionRequest: any deny wins; allows merge their permission updates", async () => {
    const answer = (decision: unknown): string => `echo '${JSON.stringify({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision } })}'`;
    const rule = (content: string): PermissionUpdate => ({ type: "addRules", rules: [{ toolName: "Bash", ruleContent: content }], behavior: "allow", destination: "session" });
    const allows = harness([
      { hooks: { PermissionRequest: [{ hooks: [{ type: "command", command: answer({ behavior: "allow", updatedPermissions: [rule("npm test")] }) }, { type: "command", command: answer({ behavior: "allow", updatedPermissions: [rule("npm run lint")] }) }] }] } },
    ]);
    expect((await allows.engine.fire("PermissionRequest", { tool_name: "Bash", tool_input: { command: "npm test" } })).decision).toEqual({
      behavior: "allow",
      updatedPermissions: [rule("npm test"), rule("npm run lint")],
    });
    const mixed = harness([
      { hooks: { PermissionRequest: [{ hooks: [{ type: "command", command: answer({ behavior: "allow" }) }, { type: "command", command: answer({ behavior: "deny", message: "not on CI", interrupt: true }) }] }] } },
    ]);
    expect((await mixed.engine.fire("PermissionRequest", { tool_name: "Bash", tool_input: { command: "npm test" } })).decision).toEqual({
      behavior: "deny",
      message: "not on CI",
      interrupt: true,
    });
  });

  test("Stop: block reasons from several hooks are joined; the first continue:false wins", async () => {
    const { engine } = harness([
      {
        hooks: {
          Stop: [
            { hooks: [{ type: "command", command: `echo '{"decision":"block","reason":"tests not run"}'` }] },
            { hooks: [{ type: "command", command: "echo 'lint not run' >&2; exit 2" }] },
            { hooks: [{ type: "command", command: `echo '{"continue":false,"stopReason":"budget spent"}'` }] },
            { hooks: [{ type: "command", command: `echo '{"continue":false,"stopReason":"second"}'` }] },
          ],
        },
      },
    ]);
    expect(await engine.fire("Stop", { stop_hook_active: false })).toMatchObject({
      block: { reason: "tests not run\nlint not run" },
      stop: { reason: "budget spent", hookName: "Stop" },
    });
  });
});

describe("async hooks", () => {
  test("never hold the event; their context and messages arrive later for the model", async () => {
    const dir = tempDir();
    const gate = join(dir, "go");
    const json = JSON.stringify({ systemMessage: "scan finished", hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "2 warnings in src/a.ts" } });
    const { engine, records } = harness([commandHook("PostToolUse", `while [ ! -e ${gate} ]; do sleep 0.05; done; echo '${json}'`, { async: true })]);
    const outcome = await engine.fire("PostToolUse", { ...bashCall, tool_response: {} });
    // The hook waits for a file that is only written after fire() returned.
    expect({ ran: outcome.ran, asyncStarted: outcome.asyncStarted, feedback: outcome.feedback }).toEqual({ ran: 0, asyncStarted: 1, feedback: [] });
    expect(engine.pendingAsync()).toBe(1);
    writeFileSync(gate, "");
    await engine.waitForAsync();
    expect(engine.takeAsyncResults()).toEqual([
      {
        runId: records[0]?.runId ?? "",
        hookId: "settings:user:/home/u/.clew/settings.json#hooks.PostToolUse[0].hooks[0]",
        event: "PostToolUse",
        hookName: "PostToolUse:Bash",
        additionalContext: ["2 warnings in src/a.ts"],
        systemMessages: ["scan finished"],
        errors: [],
      },
    ]);
    expect(engine.takeAsyncResults()).toEqual([]);
    expect(records.map((record) => [record.async, record.outcome])).toEqual([[true, "success"]]);
  });

  test("asyncRewake with exit 2 asks to wake the model with stderr (or stdout)", async () => {
    const woken: unknown[] = [];
    const { engine } = harness(
      [
        {
          hooks: {
            PostToolUse: [
              {
                hooks: [
                  { type: "command", command: "echo 'secret committed in .env' >&2; exit 2", asyncRewake: true, rewakeMessage: "Security check:", rewakeSummary: "secret found" },
                  { type: "command", command: "echo 'from stdout'; exit 2", asyncRewake: true },
                ],
              },
            ],
          },
        },
      ],
      { onAsyncResult: (result) => woken.push(result.rewake) },
    );
    expect((await engine.fire("PostToolUse", { ...bashCall, tool_response: {} })).asyncStarted).toBe(2);
    await engine.waitForAsync();
    expect(woken.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual([
      { message: "from stdout" },
      { message: "Security check:\nsecret committed in .env", summary: "secret found" },
    ]);
  });

  test("close() kills async hooks still running", async () => {
    const { engine, records } = harness([commandHook("SessionStart", "sleep 300", { async: true })]);
    await engine.fire("SessionStart", { source: "startup" });
    expect(engine.pendingAsync()).toBe(1);
    await engine.close();
    await engine.waitForAsync();
    expect(engine.pendingAsync()).toBe(0);
    // Killed by close() (SIGTERM), not by a timeout or an abort of the event.
    expect(records.map((record) => [record.outcome, record.exitCode])).toEqual([["error", 143]]);
  });
});
