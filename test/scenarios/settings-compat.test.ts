// Claude Code settings and variables users carry over, against the compiled binary: `language`
// (the model is told the language, after the shared first system block), ANTHROPIC_SMALL_FAST_MODEL
// (the older name of the haiku pin), CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR (a `cd` lasts for
// its own command only), opusplan, and Read's token cap (CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS).
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { overloaded, reply, serverError, startFakeAnthropic, toolResults, type FakeServer, type ScriptStep } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";
import { requestAt } from "../helpers/scenario.ts";
import { writeWorkspace } from "./workspaces.ts";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function run(files: Record<string, string>, args: string[], script: ScriptStep[], env: Record<string, string> = {}) {
  const fake = (server = await startFakeAnthropic({ script, rejectInvalid: true }));
  const cwd = writeWorkspace(files);
  const result = await runClew(["-p", "go", ...args], { cwd, configDir: tempDirectory("clew-config-"), baseURL: fake.url, env });
  await fake.close();
  server = undefined;
  return { fake, result, cwd };
}

/** A run whose script needs the workspace's path (absolute file paths in tool calls). */
async function runScripted(files: Record<string, string>, script: (dir: string) => ScriptStep[], env: Record<string, string> = {}) {
  const cwd = writeWorkspace(files);
  const fake = (server = await startFakeAnthropic({ script: script(cwd), rejectInvalid: true }));
  const result = await runClew(["-p", "go"], { cwd, configDir: tempDirectory("clew-config-"), baseURL: fake.url, env });
  await fake.close();
  server = undefined;
  return { fake, result };
}

type SystemBlock = { text: string };

describe("settings and variables from Claude Code", () => {
  test("language: the model is told to answer in it, in a block after the shared first one (which stays byte-identical)", async () => {
    const french = await run({ ".claude/settings.local.json": JSON.stringify({ language: "French" }) }, [], [reply().text("Bonjour")]);
    const plain = await run({ "a.txt": "a\n" }, [], [reply().text("Hello")]);
    const frenchSystem = requestAt(french.fake, 0).body.system as SystemBlock[];
    const plainSystem = requestAt(plain.fake, 0).body.system as SystemBlock[];
    expect(frenchSystem[0]).toEqual(plainSystem[0]);
    expect(frenchSystem.map((block) => block.text).join("\n")).toContain("Always respond to the user in French.");
    expect(plainSystem.map((block) => block.text).join("\n")).not.toContain("Always respond to the user in");
  });

  test("ANTHROPIC_SMALL_FAST_MODEL pins haiku when ANTHROPIC_DEFAULT_HAIKU_MODEL is not set; the newer name wins", async () => {
    const old = await run({ "a.txt": "a\n" }, ["--model", "haiku"], [reply().text("ok")], { ANTHROPIC_SMALL_FAST_MODEL: "claude-old-fast" });
    const both = await run({ "a.txt": "a\n" }, ["--model", "haiku"], [reply().text("ok")], { ANTHROPIC_SMALL_FAST_MODEL: "claude-old-fast", ANTHROPIC_DEFAULT_HAIKU_MODEL: "claude-new-fast" });
    expect([requestAt(old.fake, 0).body.model, requestAt(both.fake, 0).body.model]).toEqual(["claude-old-fast", "claude-new-fast"]);
  });

  test("opusplan (--model or the model setting): Sonnet in a run that does not plan, Opus in one started in plan mode", async () => {
    const plain = await run({ "a.txt": "a\n" }, ["--model", "opusplan"], [reply().text("ok")]);
    const planning = await run({ ".claude/settings.local.json": JSON.stringify({ model: "opusplan" }) }, ["--permission-mode", "plan"], [reply().text("the plan")]);
    expect([plain.result.code, planning.result.code]).toEqual([0, 0]);
    expect([requestAt(plain.fake, 0).body.model, requestAt(planning.fake, 0).body.model]).toEqual(["claude-sonnet-5-5", "claude-opus-5-5"]);
  });

  test("Read refuses a text read over 25,000 estimated tokens with a pointer to offset/limit; CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS moves the cap", async () => {
    const big = Array.from({ length: 1500 }, (_, index) => `line ${index} ${"x".repeat(80)}`).join("\n");
    const script = (dir: string) => [reply().toolUse("Read", { file_path: join(dir, "big.txt") }), reply().toolUse("Read", { file_path: join(dir, "big.txt"), offset: 1, limit: 50 }), reply().text("done")];
    const capped = await runScripted({ "big.txt": big }, script);
    const [whole] = toolResults(requestAt(capped.fake, 1));
    expect(whole?.isError).toBe(true);
    expect(whole?.text).toMatch(/^File content \(\d+ tokens\) exceeds maximum allowed tokens \(25000\)\. Please use offset and limit parameters/);
    const [part] = toolResults(requestAt(capped.fake, 2));
    expect({ error: part?.isError, first: part?.text.includes("line 0 "), fiftieth: part?.text.includes("line 49 ") }).toEqual({ error: false, first: true, fiftieth: true });
    const raised = await runScripted({ "big.txt": big }, script, { CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS: "100000" });
    expect(toolResults(requestAt(raised.fake, 1))[0]?.isError).toBe(false);
  });

  test("CLAUDE_CODE_RETRY_WATCHDOG: 429/529 are retried past CLAUDE_CODE_MAX_RETRIES (within _MAX_WAIT_MS when set); other errors are not", async () => {
    const busy = () => [...Array.from({ length: 4 }, () => overloaded({ headers: { "retry-after-ms": "5" } })), reply().text("answered at last")];
    const limits = { CLAUDE_CODE_MAX_RETRIES: "1" };
    const plain = await run({ "a.txt": "a\n" }, [], busy(), limits);
    const watched = await run({ "a.txt": "a\n" }, [], busy(), { ...limits, CLAUDE_CODE_RETRY_WATCHDOG: "1" });
    const capped = await run({ "a.txt": "a\n" }, [], busy(), { ...limits, CLAUDE_CODE_RETRY_WATCHDOG: "1", CLAUDE_CODE_RETRY_WATCHDOG_MAX_WAIT_MS: "8" });
    const broken = await run({ "a.txt": "a\n" }, [], [serverError(), serverError(), reply().text("never")], { ...limits, CLAUDE_CODE_RETRY_WATCHDOG: "1" });
    expect([plain.result.code, watched.result.code, capped.result.code, broken.result.code]).toEqual([1, 0, 1, 1]);
    expect(watched.result.stdout).toBe("answered at last\n");
    expect([plain.fake.requests.length, watched.fake.requests.length, capped.fake.requests.length, broken.fake.requests.length]).toEqual([2, 5, 3, 2]);
  });

  test("CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD=1: an --add-dir folder's CLAUDE.md joins the instructions; without it, it does not", async () => {
    const other = writeWorkspace({ "CLAUDE.md": "Shared library rule: EXTRA-DIR-RULE\n" });
    const without = await run({ "a.txt": "a\n" }, ["--add-dir", other], [reply().text("ok")]);
    const withIt = await run({ "a.txt": "a\n" }, ["--add-dir", other], [reply().text("ok")], { CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD: "1" });
    const system = (fake: FakeServer) => JSON.stringify(requestAt(fake, 0).body.system);
    expect([system(without.fake).includes("EXTRA-DIR-RULE"), system(withIt.fake).includes("EXTRA-DIR-RULE")]).toEqual([false, true]);
  });

  test("CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR: the next command starts in the project again; without it the cd carries over", async () => {
    const script = () => [reply().toolUse("Bash", { command: "cd sub && pwd" }), reply().toolUse("Bash", { command: "pwd" }), reply().text("done")];
    const files = { "sub/.keep": "" };
    const kept = await run(files, ["--permission-mode", "bypassPermissions"], script(), { CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR: "1" });
    const carried = await run(files, ["--permission-mode", "bypassPermissions"], script());
    expect(toolResults(requestAt(kept.fake, 2))[0]?.text.trim()).toBe(kept.cwd);
    expect(toolResults(requestAt(carried.fake, 2))[0]?.text.trim()).toBe(join(carried.cwd, "sub"));
  });
});
