// Claude Code's environment switches that clew honours, against the compiled binary: prompt
// caching off (all models or one family) or at one hour, no transcripts, the compaction window,
// the skill listing budget, no auto memory, the Bash shell and its wrapper, no updates, and the
// window of a model id clew does not know.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startFakeAnthropic, textOf, toolResults, type FakeServer, type RecordedRequest, type ScriptStep } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory, transcripts } from "../helpers/clew-process.ts";
import { projectStateDir } from "../../src/settings/paths.ts";
import { writeWorkspace } from "./workspaces.ts";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const twoSteps = (): ScriptStep[] => [reply().toolUse("Bash", { command: "echo hi" }), reply().text("done")];

async function run(env: Record<string, string>, args: string[] = [], script: ScriptStep[] = twoSteps(), files: Record<string, string> = { "README.md": "hi\n" }) {
  const fake = (server = await startFakeAnthropic({ script, rejectInvalid: true }));
  const cwd = writeWorkspace(files);
  const configDir = tempDirectory("clew-config-");
  const result = await runClew(["-p", "go", "--permission-mode", "bypassPermissions", ...args], { cwd, configDir, baseURL: fake.url, env });
  const requests = fake.requests.filter((request) => request.endpoint === "messages");
  return { ...result, cwd, configDir, requests, bodies: requests.map((request) => JSON.stringify(request.body)) };
}

/** Every cache_control in a request body, as sent. */
function breakpoints(request: RecordedRequest): unknown[] {
  const found: unknown[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === "object" && value !== null) {
      for (const [key, inner] of Object.entries(value)) key === "cache_control" ? found.push(inner) : walk(inner);
    }
  };
  walk(request.body);
  return found;
}

describe("environment switches", () => {
  test("prompt caching: as built by default; DISABLE_PROMPT_CACHING takes every breakpoint out; _OPUS only for opus; ENABLE_PROMPT_CACHING_1H makes them one hour, FORCE_PROMPT_CACHING_5M keeps five minutes", async () => {
    const plain = await run({});
    const counts = plain.requests.map((request) => breakpoints(request).length);
    expect(counts.every((count) => count >= 2)).toBe(true);
    const all = counts.reduce((sum, count) => sum + count, 0);
    expect(plain.requests.flatMap(breakpoints).every((control) => JSON.stringify(control) === '{"type":"ephemeral"}')).toBe(true);

    const off = await run({ DISABLE_PROMPT_CACHING: "1" });
    expect({ code: off.code, counts: off.requests.map((request) => breakpoints(request).length) }).toEqual({ code: 0, counts: [0, 0] });
    // Only the breakpoints went: the conversation is as it was.
    const withoutIds = (messages: unknown) => JSON.stringify(messages).replace(/toolu_[A-Za-z0-9]+/g, "toolu_id");
    expect(withoutIds(off.requests[1]?.body.messages)).toBe(withoutIds(plain.requests[1]?.body.messages).replaceAll(',"cache_control":{"type":"ephemeral"}', ""));

    const opusOff = await run({ DISABLE_PROMPT_CACHING_OPUS: "1" }, ["--model", "opus"]);
    expect(opusOff.requests.map((request) => breakpoints(request).length)).toEqual([0, 0]);
    const sonnetKept = await run({ DISABLE_PROMPT_CACHING_OPUS: "1" }, ["--model", "sonnet"]);
    expect(sonnetKept.requests.map((request) => breakpoints(request).length)).toEqual(counts);

    const hour = await run({ ENABLE_PROMPT_CACHING_1H: "1" });
    expect(hour.code).toBe(0);
    expect(hour.requests.flatMap(breakpoints)).toEqual(Array.from({ length: all }, () => ({ type: "ephemeral", ttl: "1h" })));
    const forced = await run({ ENABLE_PROMPT_CACHING_1H: "1", FORCE_PROMPT_CACHING_5M: "1" });
    expect(forced.requests.flatMap(breakpoints)).toEqual(Array.from({ length: all }, () => ({ type: "ephemeral" })));
  });

  test("CLAUDE_CODE_SKIP_PROMPT_HISTORY writes no transcript", async () => {
    const kept = await run({});
    expect(transcripts(kept.configDir)).toHaveLength(1);
    const skipped = await run({ CLAUDE_CODE_SKIP_PROMPT_HISTORY: "1" });
    expect({ code: skipped.code, transcripts: transcripts(skipped.configDir) }).toEqual({ code: 0, transcripts: [] });
  });

  test("CLAUDE_CODE_AUTO_COMPACT_WINDOW and, for an unknown model id, CLAUDE_CODE_MAX_CONTEXT_TOKENS set the window", async () => {
    const windowOf = async (env: Record<string, string>, args: string[] = []) => JSON.parse((await run(env, ["--output-format", "json", ...args], [reply().text("done")])).stdout).context_window.window_tokens as number;
    expect(await windowOf({ CLAUDE_CODE_AUTO_COMPACT_WINDOW: "300000" })).toBe(300_000);
    expect(await windowOf({ CLAUDE_CODE_MAX_CONTEXT_TOKENS: "64000" }, ["--model", "gateway-model-x"])).toBe(64_000);
    // A model clew knows keeps its own window.
    expect(await windowOf({ CLAUDE_CODE_MAX_CONTEXT_TOKENS: "64000" })).not.toBe(64_000);
  });

  test("SLASH_COMMAND_TOOL_CHAR_BUDGET bounds the skill listing; every name stays", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 12; i++) files[`.claude/skills/skill-${i}/SKILL.md`] = `---\nname: skill-${i}\ndescription: ${"A long description of what this skill does for the project. ".repeat(4)}(${i})\n---\nBody ${i}.\n`;
    const system = async (env: Record<string, string>) => {
      const result = await run(env, [], [reply().text("done")], files);
      return textOf(result.requests[0]?.body.system) + JSON.stringify(result.requests[0]?.body.messages);
    };
    const full = await system({});
    const small = await system({ SLASH_COMMAND_TOOL_CHAR_BUDGET: "300" });
    for (let i = 0; i < 12; i++) expect(small).toContain(`skill-${i}`);
    expect(full).toContain("(11)");
    expect(small.length).toBeLessThan(full.length);
  });

  test("CLAUDE_CODE_DISABLE_AUTO_MEMORY leaves the memory index out", async () => {
    const withMemory = async (env: Record<string, string>) => {
      const fake = (server = await startFakeAnthropic({ script: [reply().text("done")] }));
      const cwd = writeWorkspace({ "README.md": "hi\n" });
      const configDir = tempDirectory("clew-config-");
      const memoryDir = join(projectStateDir(configDir, cwd), "memory");
      mkdirSync(memoryDir, { recursive: true });
      writeFileSync(join(memoryDir, "MEMORY.md"), "- The user prefers tabs.\n");
      await runClew(["-p", "go"], { cwd, configDir, baseURL: fake.url, env });
      const sent = JSON.stringify(fake.requests[0]?.body);
      await fake.close();
      server = undefined;
      return sent;
    };
    expect(await withMemory({})).toContain("The user prefers tabs.");
    expect(await withMemory({ CLAUDE_CODE_DISABLE_AUTO_MEMORY: "1" })).not.toContain("The user prefers tabs.");
  });

  test("CLAUDE_CODE_SHELL picks the Bash tool's shell; CLAUDE_CODE_SHELL_PREFIX wraps each command", async () => {
    const shell = await run({ CLAUDE_CODE_SHELL: "sh" }, [], [reply().toolUse("Bash", { command: 'echo "shell=$0"' }), reply().text("done")]);
    expect(toolResults(shell.requests[1] as RecordedRequest)[0]?.text).toMatch(/shell=(\/usr)?\/bin\/sh\b/);

    const dir = tempDirectory("clew-prefix-");
    const log = join(dir, "audit.log");
    const wrapper = join(dir, "audit.sh");
    writeFileSync(wrapper, `#!/bin/sh\nprintf '%s\\n' "$1" >> ${log}\neval "$1"\n`, { mode: 0o755 });
    const wrapped = await run({ CLAUDE_CODE_SHELL_PREFIX: wrapper }, [], [reply().toolUse("Bash", { command: "echo 'it''s' \"$((2+3))\"" }), reply().text("done")]);
    expect(toolResults(wrapped.requests[1] as RecordedRequest)[0]?.text).toContain("its 5");
    expect(readFileSync(log, "utf8")).toBe("echo 'it''s' \"$((2+3))\"\n");
  });

  test("DISABLE_UPDATES makes clew update refuse, saying why", async () => {
    const result = await runClew(["update"], { cwd: tempDirectory("clew-upd-"), configDir: tempDirectory("clew-config-"), env: { DISABLE_UPDATES: "1" } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("updates are turned off on this machine (DISABLE_UPDATES is set)");
  });
});
