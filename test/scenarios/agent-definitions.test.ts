// Helper agents defined the way Claude Code users write them — `.claude/agents/*.md` and
// `--agents` JSON — against the compiled binary: the definition's prompt, tools and model reach
// the helper; SendMessage resumes a finished helper with its context; SubagentStart/SubagentStop
// hooks fire with the helper's type; nesting stops at the depth limit; --max-budget-usd holds
// across helpers.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { messagesOf, reply, startFakeAnthropic, toolNames, toolResults, type FakeServer, type RecordedRequest, type ScriptStep } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";
import { writeWorkspace } from "./workspaces.ts";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const systemText = (request: RecordedRequest) => JSON.stringify(request.body.system);
const REVIEWER = `---
name: migration-reviewer
description: Reviews database migrations for locking and rollback risks.
tools: Read, Grep, Task
model: haiku
color: orange
---
You review SQL migrations. REVIEWER-PROMPT-MARKER
`;

describe("agent definitions", () => {
  test("a .claude/agents file: listed in the Agent tool, its prompt, tools (Task = Agent) and model reach the helper", async () => {
    const dir = writeWorkspace({ ".claude/agents/reviewer.md": REVIEWER, "m.sql": "ALTER TABLE t ADD c int;\n" });
    const router: ScriptStep = (request) => (systemText(request).includes("REVIEWER-PROMPT-MARKER") ? reply().text("REVIEW: takes an ACCESS EXCLUSIVE lock.") : reply().text("Reviewed."));
    const fake = (server = await startFakeAnthropic({ script: [reply().toolUse("Agent", { description: "Review migration", prompt: "Review m.sql", subagent_type: "migration-reviewer" }), router, router] }));
    const run = await runClew(["-p", "review", "--output-format", "json"], { cwd: dir, baseURL: fake.url, configDir: tempDirectory("clew-config-"), env: { ANTHROPIC_DEFAULT_HAIKU_MODEL: "claude-pinned-fast" } });
    expect(run.code).toBe(0);
    const agentTool = (fake.requests[0]?.body.tools as Array<{ name: string; description: string }>).find((tool) => tool.name === "Agent");
    expect(agentTool?.description).toContain("- migration-reviewer: Reviews database migrations for locking and rollback risks. (Tools: Read, Grep, Agent)");
    const helper = fake.requests[1] as RecordedRequest;
    expect(systemText(helper)).toContain("You review SQL migrations. REVIEWER-PROMPT-MARKER");
    // Depth 1 of 2: the helper may start helpers of its own (Task is the Agent tool's old name).
    expect(toolNames(helper)).toEqual(["Grep", "Read", "Agent"]);
    // `model: haiku` resolves through the alias pins like any other use of the alias.
    expect(helper.body.model).toBe("claude-pinned-fast");
    expect(toolResults(fake.requests[2] as RecordedRequest)[0]?.text).toStartWith("REVIEW: takes an ACCESS EXCLUSIVE lock.");
  }, 60_000);

  test("an unknown subagent_type is an error result naming the types there are", async () => {
    const dir = writeWorkspace({ "a.txt": "a\n" });
    const fake = (server = await startFakeAnthropic({ script: [reply().toolUse("Agent", { description: "x", prompt: "x", subagent_type: "nope" }), reply().text("ok")] }));
    const run = await runClew(["-p", "go"], { cwd: dir, baseURL: fake.url, configDir: tempDirectory("clew-config-") });
    expect(run.code).toBe(0);
    const result = toolResults(fake.requests[1] as RecordedRequest)[0];
    expect(result?.isError).toBe(true);
    expect(result?.text).toBe("Agent type 'nope' not found. Available agents: general-purpose, Explore, Plan");
  }, 60_000);

  test("SendMessage resumes a finished helper with its whole conversation", async () => {
    const dir = writeWorkspace({ "a.txt": "a\n" });
    let agentId = "";
    const parent: ScriptStep = (request) => {
      const last = JSON.stringify(messagesOf(request).at(-1));
      if (last.includes("SECOND-ANSWER")) return reply().text("Both answers are in.");
      const hint = /agentId: (a[0-9a-f]{16})/.exec(last);
      if (hint && !agentId) {
        agentId = hint[1] as string;
        return reply().toolUse("SendMessage", { to: "researcher", message: "FOLLOW-UP: and the second part?" });
      }
      return reply().text("Waiting for the helper.");
    };
    const helper: ScriptStep = (request) => (JSON.stringify(messagesOf(request).at(-1)).includes("FOLLOW-UP") ? reply().text("SECOND-ANSWER") : reply().text("FIRST-ANSWER"));
    const route: ScriptStep = (request) => (systemText(request).includes("You are a helper agent") ? (helper as (r: RecordedRequest) => ReturnType<typeof reply>)(request) : (parent as (r: RecordedRequest) => ReturnType<typeof reply>)(request));
    const fake = (server = await startFakeAnthropic({ script: [reply().toolUse("Agent", { description: "Research", prompt: "FIRST-TASK", name: "researcher" }), ...Array.from({ length: 6 }, () => route)] }));
    const run = await runClew(["-p", "go", "--output-format", "json"], { cwd: dir, baseURL: fake.url, configDir: tempDirectory("clew-config-") });
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as { result: string }).result).toBe("Both answers are in.");
    const resumed = fake.requests.filter((request) => systemText(request).includes("You are a helper agent")).at(-1) as RecordedRequest;
    // The resumed helper sees its first task and answer, then the new message.
    expect(messagesOf(resumed).map((message) => message.role)).toEqual(["user", "assistant", "user"]);
    expect(JSON.stringify(resumed.body.messages)).toContain("FIRST-TASK");
    expect(JSON.stringify(resumed.body.messages)).toContain("FIRST-ANSWER");
  }, 60_000);

  test("SubagentStart and SubagentStop hooks fire with the helper's type; SubagentStart context reaches the helper", async () => {
    const dir = writeWorkspace({ "a.txt": "a\n" });
    const configDir = tempDirectory("clew-config-");
    const log = join(configDir, "hooks.log");
    writeFileSync(join(configDir, "start.sh"), `#!/bin/sh\ncat >> ${log}\necho >> ${log}\necho '{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"START-CONTEXT-MARKER"}}'\n`, { mode: 0o755 });
    writeFileSync(join(configDir, "stop.sh"), `#!/bin/sh\ncat >> ${log}\necho >> ${log}\n`, { mode: 0o755 });
    writeFileSync(join(configDir, "settings.json"), JSON.stringify({ hooks: {
      SubagentStart: [{ matcher: "Explore", hooks: [{ type: "command", command: join(configDir, "start.sh") }] }],
      SubagentStop: [{ hooks: [{ type: "command", command: join(configDir, "stop.sh") }] }],
    } }));
    const router: ScriptStep = (request) => (systemText(request).includes("read-only search helper") ? reply().text("found it") : reply().text("done"));
    const fake = (server = await startFakeAnthropic({ script: [reply().toolUse("Agent", { description: "Look", prompt: "Look around", subagent_type: "Explore" }), router, router] }));
    const run = await runClew(["-p", "go"], { cwd: dir, baseURL: fake.url, configDir });
    expect(run.code).toBe(0);
    const inputs = readFileSync(log, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(inputs.map((input) => [input.hook_event_name, input.agent_type])).toEqual([["SubagentStart", "Explore"], ["SubagentStop", "Explore"]]);
    expect(inputs[1]?.agent_id).toBe(inputs[0]?.agent_id);
    expect(inputs[1]?.last_assistant_message).toBe("found it");
    expect(String(inputs[1]?.agent_transcript_path)).toMatch(/subagents\/agent-a[0-9a-f]{16}\.jsonl$/);
    expect(JSON.stringify(fake.requests[1]?.body.messages)).toContain("START-CONTEXT-MARKER");
  }, 60_000);

  test("CLAUDE_CODE_MAX_SUBAGENT_SPAWN_DEPTH=1: helpers get no Agent tool; 0: the main conversation has none either", async () => {
    const dir = writeWorkspace({ "a.txt": "a\n" });
    const router: ScriptStep = () => reply().text("done");
    const fake = (server = await startFakeAnthropic({ script: [reply().toolUse("Agent", { description: "x", prompt: "x" }), router, router] }));
    const run = await runClew(["-p", "go"], { cwd: dir, baseURL: fake.url, configDir: tempDirectory("clew-config-"), env: { CLAUDE_CODE_MAX_SUBAGENT_SPAWN_DEPTH: "1" } });
    expect(run.code).toBe(0);
    expect(toolNames(fake.requests[0] as RecordedRequest)).toContain("Agent");
    expect(toolNames(fake.requests[1] as RecordedRequest)).not.toContain("Agent");
    await fake.close();
    const none = (server = await startFakeAnthropic({ script: [reply().text("done")] }));
    const flat = await runClew(["-p", "go"], { cwd: dir, baseURL: none.url, configDir: tempDirectory("clew-config-"), env: { CLAUDE_CODE_MAX_SUBAGENT_SPAWN_DEPTH: "0" } });
    expect(flat.code).toBe(0);
    expect(toolNames(none.requests[0] as RecordedRequest)).not.toContain("Agent");
  }, 60_000);

  test("--max-budget-usd counts helpers: once spent, no further request starts and the result says so", async () => {
    const dir = writeWorkspace({ "a.txt": "a\n" });
    const router: ScriptStep = (request) => (systemText(request).includes("You are a helper agent") ? reply().usage({ input_tokens: 400_000, output_tokens: 10 }).text("expensive answer") : reply().text("never sent"));
    const fake = (server = await startFakeAnthropic({ script: [reply().toolUse("Agent", { description: "x", prompt: "x" }), router, router] }));
    const run = await runClew(["-p", "go", "--output-format", "json", "--max-budget-usd", "1"], { cwd: dir, baseURL: fake.url, configDir: tempDirectory("clew-config-") });
    expect(run.code).toBe(1);
    const result = JSON.parse(run.stdout) as { subtype: string; total_cost_usd: number; errors: string[]; terminal_reason: string };
    expect(result.subtype).toBe("error_max_budget_usd");
    // Claude Code's machine-readable end cause for a spent budget.
    expect(result.terminal_reason).toBe("budget_exhausted");
    expect(result.total_cost_usd).toBeGreaterThan(1);
    expect(fake.requests.length).toBe(2);
  }, 60_000);

  test("an agent's frontmatter hooks run only while a helper of that type runs; its Stop hook fires as SubagentStop", async () => {
    const dir = writeWorkspace({ "a.txt": "a\n" });
    const configDir = tempDirectory("clew-config-");
    const log = join(configDir, "agent-hooks.log");
    mkdirSync(join(configDir, "agents"), { recursive: true });
    writeFileSync(join(configDir, "agents", "checker.md"), `---
name: checker
description: Checks things
tools: Bash
hooks:
  PreToolUse:
    - matcher: Bash
      hooks:
        - type: command
          command: "echo pre >> ${log}"
  Stop:
    - hooks:
        - type: command
          command: "echo stop >> ${log}"
---
You check things. CHECKER-MARKER
`);
    const router: ScriptStep = (request) => {
      const helper = systemText(request).includes("CHECKER-MARKER");
      const messages = messagesOf(request);
      if (helper) return messages.length === 1 ? reply().toolUse("Bash", { command: "echo from-helper" }) : reply().text("checked");
      if (JSON.stringify(messages.at(-1)).includes("checked")) return reply().toolUse("Bash", { command: "echo from-parent" });
      return reply().text("all done");
    };
    const fake = (server = await startFakeAnthropic({ script: [reply().toolUse("Agent", { description: "Check", prompt: "check", subagent_type: "checker" }), router, router, router, router] }));
    const run = await runClew(["-p", "go", "--permission-mode", "bypassPermissions"], { cwd: dir, baseURL: fake.url, configDir });
    expect(run.code).toBe(0);
    // Once for the helper's Bash call, not for the parent's; its Stop ran as the helper finished.
    expect(readFileSync(log, "utf8")).toBe("pre\nstop\n");
  }, 60_000);

  test("an agent's inline mcpServers start for its helper only and are offered to it alone", async () => {
    const dir = writeWorkspace({ "a.txt": "a\n" });
    const configDir = tempDirectory("clew-config-");
    mkdirSync(join(configDir, "agents"), { recursive: true });
    const serverFile = join(import.meta.dir, "../mcp-servers/fixtures/sdk-server.ts");
    writeFileSync(join(configDir, "agents", "echoer.md"), `---
name: echoer
description: Echoes through its own server
tools: Read
mcpServers:
  - own:
      command: bun
      args: ["${serverFile}"]
---
You echo. ECHOER-MARKER
`);
    const router: ScriptStep = (request) => {
      if (!systemText(request).includes("ECHOER-MARKER")) return reply().text("parent done");
      return messagesOf(request).length === 1 ? reply().toolUse("mcp__own__echo", { text: "via own server" }) : reply().text("echoed");
    };
    const fake = (server = await startFakeAnthropic({ script: [reply().toolUse("Agent", { description: "Echo", prompt: "echo", subagent_type: "echoer" }), router, router, router] }));
    const run = await runClew(["-p", "go", "--permission-mode", "bypassPermissions"], { cwd: dir, baseURL: fake.url, configDir });
    expect(run.code).toBe(0);
    const helperFirst = fake.requests.find((request) => systemText(request).includes("ECHOER-MARKER")) as RecordedRequest;
    expect(toolNames(helperFirst)).toContain("mcp__own__echo");
    expect(toolNames(helperFirst)).toContain("Read");
    expect(toolNames(fake.requests[0] as RecordedRequest).some((name) => name.startsWith("mcp__own__"))).toBe(false);
    const helperSecond = fake.requests.filter((request) => systemText(request).includes("ECHOER-MARKER"))[1] as RecordedRequest;
    expect(toolResults(helperSecond)[0]?.text).toBe("via own server");
  }, 60_000);

  test("--agent runs the main conversation as the agent: its prompt, tools and model; an unknown name is refused", async () => {
    const dir = writeWorkspace({ ".claude/agents/reviewer.md": REVIEWER });
    const fake = (server = await startFakeAnthropic({ script: [reply().text("reviewing")] }));
    const run = await runClew(["-p", "go", "--agent", "migration-reviewer"], { cwd: dir, baseURL: fake.url, configDir: tempDirectory("clew-config-"), env: { ANTHROPIC_DEFAULT_HAIKU_MODEL: "claude-pinned-fast" } });
    expect(run.code).toBe(0);
    const first = fake.requests[0] as RecordedRequest;
    expect(systemText(first)).toContain("REVIEWER-PROMPT-MARKER");
    expect(toolNames(first)).toEqual(["Grep", "Read", "Agent"]);
    expect(first.body.model).toBe("claude-pinned-fast");
    const unknown = await runClew(["-p", "go", "--agent", "nobody"], { cwd: dir, baseURL: fake.url, configDir: tempDirectory("clew-config-") });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("error: there is no agent named 'nobody'");
    expect(unknown.stderr).toContain("migration-reviewer");
  }, 60_000);

  test("a helper's own background helper reports to that helper, which waits for it before answering", async () => {
    const dir = writeWorkspace({ "a.txt": "a\n" });
    const route: ScriptStep = (request) => {
      const text = JSON.stringify(request.body.messages);
      const first = JSON.stringify(messagesOf(request)[0]);
      if (first.includes("INNER-TASK")) return reply().text("INNER-REPORT: found it");
      if (first.includes("OUTER-TASK")) {
        if (text.includes("INNER-REPORT")) return reply().text("OUTER-FINAL includes INNER-REPORT");
        if (text.includes("working in the background")) return reply().text("outer waiting");
        return reply().toolUse("Agent", { description: "Inner", prompt: "INNER-TASK", run_in_background: true });
      }
      if (text.includes("OUTER-FINAL")) return reply().text("main done");
      return reply().toolUse("Agent", { description: "Outer", prompt: "OUTER-TASK" });
    };
    const fake = (server = await startFakeAnthropic({ script: Array.from({ length: 8 }, () => route) }));
    const run = await runClew(["-p", "go", "--output-format", "json"], { cwd: dir, baseURL: fake.url, configDir: tempDirectory("clew-config-") });
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as { result: string }).result).toBe("main done");
    // The main conversation got the outer helper's answer, which already held the inner report.
    const mainLast = fake.requests.filter((request) => !JSON.stringify(messagesOf(request)[0]).includes("TASK")).at(-1) as RecordedRequest;
    expect(toolResults(mainLast)[0]?.text).toStartWith("OUTER-FINAL includes INNER-REPORT");
    expect(JSON.stringify(mainLast.body.messages)).not.toContain("INNER-REPORT: found it");
  }, 60_000);
});
