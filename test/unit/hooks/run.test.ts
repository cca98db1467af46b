// Running hooks as real processes: parallelism, de-duplication, timeouts that kill the whole process
// group, abort, the stdin payload and environment a script sees, CLAUDE_ENV_FILE, run records.
import { describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { hookResponseFrame, hookStartedFrame } from "../../../src/hooks/frames.ts";
import { hookInput } from "../../../src/hooks/inputs.ts";
import { common, commandHook, FIXTURES, harness, processGone, projectSettings, tempDir, userSettings } from "./helpers.ts";

const bashCall = { tool_name: "Bash", tool_input: { command: "npm test" }, tool_use_id: "toolu_9" };

/** Writes its own marker, then waits (bounded) for the other's: both finish only if they run together. */
function rendezvous(dir: string, me: string, other: string): string {
  return `touch ${dir}/${me}; i=0; while [ ! -e ${dir}/${other} ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done; [ -e ${dir}/${other} ] && echo "${me} saw ${other}"`;
}

describe("running hooks", () => {
  test("matching hooks run in parallel; contexts come back in configuration order", async () => {
    const dir = tempDir();
    const { engine } = harness([
      {
        hooks: {
          UserPromptSubmit: [{ hooks: [{ type: "command", command: rendezvous(dir, "a", "b") }, { type: "command", command: rendezvous(dir, "b", "a") }] }],
        },
      },
    ]);
    expect((await engine.fire("UserPromptSubmit", { prompt: "hi" })).additionalContext).toEqual(["a saw b", "b saw a"]);
  });

  test("configuration order wins over completion order", async () => {
    const { engine } = harness([
      {
        hooks: {
          UserPromptSubmit: [
            { hooks: [{ type: "command", command: `i=0; while [ ! -e "$CLAUDE_PROJECT_DIR/second-done" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done; echo first` }] },
            { hooks: [{ type: "command", command: `echo second; touch "$CLAUDE_PROJECT_DIR/second-done"` }] },
          ],
        },
      },
    ]);
    expect((await engine.fire("UserPromptSubmit", { prompt: "hi" })).additionalContext).toEqual(["first", "second"]);
  });

  test("identical commands run once across settings files and matchers, but a plugin's copy runs too", async () => {
    const projectDir = tempDir();
    const count = join(projectDir, "count");
    const command = `echo run >> ${count}`;
    const root = tempDir();
    const plugin = { kind: "plugin", plugin: "p@m", root, dataDir: root, file: join(root, "hooks/hooks.json") } as const;
    const { engine } = harness(
      [
        { origin: userSettings(), ...commandHook("PreToolUse", command, {}, "Bash") },
        { origin: projectSettings(projectDir), ...commandHook("PreToolUse", command, {}, "*") },
        { origin: plugin, ...commandHook("PreToolUse", command) },
      ],
      { projectDir },
    );
    expect((await engine.fire("PreToolUse", bashCall)).ran).toBe(2);
    expect(readFileSync(count, "utf8")).toBe("run\nrun\n");
  });

  test("a hook that outlives its timeout is killed with the child it started", async () => {
    const dir = tempDir();
    const pidFile = join(dir, "grandchild.pid");
    const { engine, records } = harness([commandHook("PreToolUse", `${FIXTURES}/spawn-and-hang.sh ${pidFile}`, { timeout: 1 })]);
    const outcome = await engine.fire("PreToolUse", bashCall);
    // A timed-out hook decides nothing: the call proceeds normally.
    expect(outcome.decision).toBeUndefined();
    expect(outcome.errors).toEqual(["PreToolUse:Bash hook timed out after 1s and was stopped; its output was ignored"]);
    expect(records.map((record) => record.outcome)).toEqual(["timeout"]);
    const grandchild = Number(readFileSync(pidFile, "utf8").trim());
    expect(grandchild).toBeGreaterThan(0);
    expect(processGone(grandchild)).toBe(true);
  });

  test("aborting the event kills running hooks; they count as cancelled", async () => {
    const dir = tempDir();
    const pidFile = join(dir, "grandchild.pid");
    const controller = new AbortController();
    const { engine, records } = harness([commandHook("Stop", `${FIXTURES}/spawn-and-hang.sh ${pidFile}`)], {
      onHookStarted: () => {
        // Abort once the grandchild exists, so the kill has something to reach.
        const poll = setInterval(() => {
          if (existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "") {
            clearInterval(poll);
            controller.abort();
          }
        }, 20);
      },
    });
    const outcome = await engine.fire("Stop", { stop_hook_active: false }, { signal: controller.signal });
    expect(outcome.block).toBeUndefined();
    expect(outcome.errors).toEqual([]);
    expect(records.map((record) => record.outcome)).toEqual(["cancelled"]);
    expect(processGone(Number(readFileSync(pidFile, "utf8").trim()))).toBe(true);
  });

  test("a hook script sees the input JSON on stdin, the project dir as cwd and the documented env", async () => {
    const projectDir = tempDir();
    mkdirSync(join(projectDir, ".claude/hooks"), { recursive: true });
    cpSync(join(FIXTURES, "dump-input.sh"), join(projectDir, ".claude/hooks/dump.sh"));
    const out = join(tempDir(), "seen");
    const { engine, config } = harness([commandHook("PreToolUse", `"\${CLAUDE_PROJECT_DIR}/.claude/hooks/dump.sh" ${out}`)], {
      projectDir,
      common: () => ({ session_id: "sess-7", transcript_path: "/t/sess-7.jsonl", cwd: projectDir, permission_mode: "acceptEdits", prompt_id: "p-1" }),
    });
    expect(config.problems).toEqual([]);
    await engine.fire("PreToolUse", bashCall, { common: { agent_id: "a-1", agent_type: "Explore" } });
    expect(JSON.parse(readFileSync(`${out}.stdin`, "utf8"))).toEqual({
      session_id: "sess-7",
      transcript_path: "/t/sess-7.jsonl",
      cwd: projectDir,
      prompt_id: "p-1",
      permission_mode: "acceptEdits",
      agent_id: "a-1",
      agent_type: "Explore",
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "npm test" },
      tool_use_id: "toolu_9",
    });
    expect(readFileSync(`${out}.cwd`, "utf8").trim()).toBe(projectDir);
    const env = readFileSync(`${out}.env`, "utf8").split("\n");
    expect(env).toContain(`CLAUDE_PROJECT_DIR=${projectDir}`);
    expect(env).toContain(`CLEW_PROJECT_DIR=${projectDir}`);
    expect(env).toContain("CLAUDECODE=1");
    expect(env.filter((line) => /^CLAUDE_(PLUGIN_ROOT|PLUGIN_DATA|ENV_FILE)=/.test(line))).toEqual([]);
  });

  test("a large input reaches a hook that reads it, and one that exits without reading is not an error", async () => {
    const content = "x".repeat(3_000_000);
    const fields = { tool_name: "Write", tool_input: { file_path: "/p/big.txt", content }, tool_response: {}, tool_use_id: "toolu_big" };
    const { engine, records } = harness([{ hooks: { PostToolUse: [{ hooks: [{ type: "command", command: "exit 0" }, { type: "command", command: "wc -c" }] }] } }], {
      common: () => common("/p"),
    });
    for (let round = 0; round < 3; round++) expect((await engine.fire("PostToolUse", fields)).errors).toEqual([]);
    expect(records.map((record) => record.outcome)).toEqual(Array(6).fill("success"));
    expect(Number(records[1]?.stdout.trim())).toBe(JSON.stringify(hookInput("PostToolUse", common("/p"), fields)).length);
  });

  test("plugin hooks get ${CLAUDE_PLUGIN_ROOT} substituted and the plugin variables exported", async () => {
    const root = tempDir();
    cpSync(join(FIXTURES, "plugin"), root, { recursive: true });
    const dataDir = join(tempDir(), "data");
    const origin = { kind: "plugin", plugin: "guard@acme", root, dataDir, file: join(root, "hooks/hooks.json"), options: { api_key: "k-1" } } as const;
    const out = join(tempDir(), "seen");
    const { engine } = harness([
      { origin, hooks: JSON.parse(readFileSync(join(root, "hooks/hooks.json"), "utf8")), keyPath: "" },
      { origin: { ...origin, file: join(root, "extra.json") }, ...commandHook("PreToolUse", `${FIXTURES}/dump-input.sh ${out}`) },
    ]);
    expect((await engine.fire("PreToolUse", bashCall)).additionalContext).toEqual([`root=${root} data=${dataDir}`]);
    const env = readFileSync(`${out}.env`, "utf8").split("\n");
    expect(env).toContain(`CLAUDE_PLUGIN_ROOT=${root}`);
    expect(env).toContain(`CLAUDE_PLUGIN_DATA=${dataDir}`);
    expect(env).toContain("CLAUDE_PLUGIN_OPTION_API_KEY=k-1");
  });

  test("exec form: args passed verbatim, no shell, ${user_config} substituted", async () => {
    const root = tempDir();
    const origin = { kind: "plugin", plugin: "p", root, dataDir: root, file: join(root, "hooks/hooks.json"), options: { greeting: "hello; rm -rf /" } } as const;
    const { engine } = harness([{ origin, ...commandHook("UserPromptSubmit", "printf", { args: ["%s|%s", "${user_config.greeting}", "$HOME"] }) }]);
    expect((await engine.fire("UserPromptSubmit", { prompt: "x" })).additionalContext).toEqual(["hello; rm -rf /|$HOME"]);
  });

  test("SessionStart gets CLAUDE_ENV_FILE; its exports are read back", async () => {
    const envFile = join(tempDir(), "session", "env.sh");
    const { engine } = harness([commandHook("SessionStart", `${FIXTURES}/write-env-file.sh`, {}, "startup|resume")], { envFile });
    const outcome = await engine.fire("SessionStart", { source: "startup" });
    expect(outcome.env).toEqual({ NODE_ENV: "production", TOOL_PATH: `${process.env.HOME ?? ""}/tools:/opt/x`, GREETING: "hello world" });
    expect(outcome.envProblems).toEqual([]);
    expect(outcome.errors).toEqual([]);
  });

  test("a SessionStart matcher filters on the source", async () => {
    const { engine } = harness([commandHook("SessionStart", "echo started", {}, "startup|clear|compact")]);
    expect((await engine.fire("SessionStart", { source: "resume" })).ran).toBe(0);
    expect((await engine.fire("SessionStart", { source: "compact" })).additionalContext).toEqual(["started"]);
  });

  test("every execution is recorded, and maps to stream-json frames", async () => {
    const { engine, started, records } = harness([commandHook("PreToolUse", "echo out; echo err >&2; exit 1", {}, "Bash")]);
    await engine.fire("PreToolUse", bashCall);
    const record = records[0];
    if (!record) throw new Error("no record");
    expect(record).toEqual({
      runId: started[0]?.runId ?? "",
      hookId: "settings:user:/home/u/.clew/settings.json#hooks.PreToolUse[0].hooks[0]",
      event: "PreToolUse",
      hookName: "PreToolUse:Bash",
      matcher: "Bash",
      sourceId: "settings:user:/home/u/.clew/settings.json",
      sourceLabel: "User Settings",
      file: "/home/u/.clew/settings.json",
      type: "command",
      command: "echo out; echo err >&2; exit 1",
      async: false,
      durationMs: record.durationMs,
      exitCode: 1,
      stdout: "out\n",
      stderr: "err\n",
      outcome: "error",
      message: "PreToolUse:Bash hook error: Failed with non-blocking status code 1: err",
    });
    expect(hookStartedFrame(started[0] ?? record)).toEqual({ type: "system", subtype: "hook_started", hook_id: record.runId, hook_name: "PreToolUse:Bash", hook_event: "PreToolUse" });
    expect(hookResponseFrame(record)).toEqual({
      type: "system",
      subtype: "hook_response",
      hook_id: record.runId,
      hook_name: "PreToolUse:Bash",
      hook_event: "PreToolUse",
      stdout: "out\n",
      stderr: "err\n",
      output: "out\n\nerr\n",
      exit_code: 1,
      outcome: "error",
    });
  });

  test("SessionEnd hooks share the 1.5 s budget; a plugin's long timeout does not raise it", async () => {
    const root = tempDir();
    const plugin = { kind: "plugin", plugin: "p", root, dataDir: root, file: join(root, "hooks/hooks.json") } as const;
    const { engine, records } = harness([{ origin: plugin, ...commandHook("SessionEnd", "sleep 30", { timeout: 60 }) }]);
    const outcome = await engine.fire("SessionEnd", { reason: "prompt_input_exit" });
    expect(records.map((record) => record.outcome)).toEqual(["timeout"]);
    expect(outcome.errors).toEqual(["SessionEnd:prompt_input_exit hook timed out after 1.5s and was stopped; its output was ignored"]);
  });
});
