// Helper agents' Bash in the OS sandbox, against the compiled binary with real bubblewrap and real
// git. Headless runs have no one to approve anything, so a helper's command that ran at all ran
// because the sandbox's auto-allow let it — and what it could change is what the sandbox allowed.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { messagesOf, reply, startFakeAnthropic, toolResults, type FakeServer, type JsonObject, type RecordedRequest, type ScriptStep } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";

const hasBwrap = process.platform === "linux" && Bun.which("bwrap") !== null;

let server: FakeServer | undefined;
const cleanups: Array<() => void> = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function git(dir: string, ...args: string[]): string {
  const run = Bun.spawnSync(["git", ...args], { cwd: dir, stdout: "pipe", stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(`git ${args.join(" ")} failed in ${dir}: ${run.stderr.toString()}`);
  return run.stdout.toString();
}

interface Setup {
  dir: string;
  configDir: string;
  home: string;
}

/** A committed repository with its own identity, sandbox settings, and a home outside /tmp (the sandbox's /tmp is private). */
function setup(): Setup {
  const dir = tempDirectory("clew-sbx-helpers-");
  git(dir, "init", "-q", "-b", "main");
  git(dir, "config", "user.name", "Helper Test");
  git(dir, "config", "user.email", "helper@example.com");
  writeFileSync(join(dir, "app.txt"), "app\n");
  git(dir, "add", ".");
  git(dir, "commit", "-qm", "initial");
  const configDir = tempDirectory("clew-sbx-helpers-config-");
  writeFileSync(join(configDir, "settings.json"), JSON.stringify({ sandbox: { enabled: true } }));
  const home = realpathSync(mkdtempSync("/var/tmp/clew-sbx-helpers-home-"));
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  return { dir, configDir, home };
}

const isHelper = (request: RecordedRequest) => /You are a helper agent|read-only search helper/.test(JSON.stringify(request.body.system));
const helperCwd = (request: RecordedRequest) => /Working directory: ([^\\\s"]+)/.exec(JSON.stringify(request.body.system))?.[1] ?? "";

interface Outcome {
  code: number;
  stderr: string;
  /** What the helper's Bash calls returned, in order. */
  helperResults: Array<{ isError: boolean; text: string }>;
  /** What the Agent call returned to the main conversation. */
  agentResult: string;
  denials: string[];
  helperCwd: string;
}

/**
 * The main conversation starts one helper with `agentInput`; the helper runs `commands(cwd)`
 * through Bash in one reply (cwd: its working directory), then reports.
 */
async function runHelper(where: Setup, agentInput: JsonObject, commands: (cwd: string) => JsonObject[]): Promise<Outcome> {
  const outcome: Outcome = { code: -1, stderr: "", helperResults: [], agentResult: "", denials: [], helperCwd: "" };
  const router: ScriptStep = (request) => {
    if (isHelper(request)) {
      if (messagesOf(request).length === 1) {
        outcome.helperCwd = helperCwd(request);
        let call = reply();
        for (const input of commands(outcome.helperCwd)) call = call.toolUse("Bash", input);
        return call;
      }
      outcome.helperResults = toolResults(request).map((result) => ({ isError: result.isError, text: result.text }));
      return reply().text("HELPER-DONE");
    }
    const agent = toolResults(request)[0];
    if (agent) outcome.agentResult = agent.text;
    const last = JSON.stringify(messagesOf(request).at(-1));
    return reply().text(last.includes("HELPER-DONE") ? "All done." : "Waiting for the helper.");
  };
  server = await startFakeAnthropic({ script: [reply().toolUse("Agent", agentInput), router, router, router, router, router] });
  const run = await runClew(["-p", "delegate it", "--output-format", "json"], { cwd: where.dir, baseURL: server.url, configDir: where.configDir, env: { HOME: where.home } });
  expect(server.violations).toEqual([]);
  outcome.code = run.code;
  outcome.stderr = run.stderr;
  outcome.denials = run.stdout.trim() === "" ? [] : (JSON.parse(run.stdout) as { permission_denials: Array<{ tool_input: { command?: string } }> }).permission_denials.map((denial) => denial.tool_input.command ?? "");
  return outcome;
}

describe.skipIf(!hasBwrap)("scenario: helper agents' Bash in the sandbox (bubblewrap)", () => {
  test("a general-purpose helper: a write outside fails and leaves nothing, a write inside works, neither was asked about", async () => {
    const where = setup();
    const outcome = await runHelper(where, { description: "Write files", prompt: "Write two files" }, () => [
      { command: "echo x > ~/outside" },
      { command: "echo inside > made.txt && cat made.txt" },
    ]);
    if (outcome.code !== 0) console.error(outcome.stderr);
    expect(outcome.code).toBe(0);
    expect(outcome.helperCwd).toBe(where.dir);
    expect(outcome.denials).toEqual([]);
    expect(existsSync(join(where.home, "outside"))).toBe(false);
    expect(readFileSync(join(where.dir, "made.txt"), "utf8")).toBe("inside\n");
    const [outside, inside] = outcome.helperResults;
    // Blocked by the sandbox (a read-only file system), not by a permission prompt nobody could answer.
    expect(outside?.text).toContain(`${where.home}/outside: Read-only file system`);
    expect(outside?.text).toContain(`[sandbox] The OS sandbox blocked this command:\n- writing ${where.home}/outside: it is outside the directories sandboxed commands may write`);
    expect(inside).toEqual({ isError: false, text: "inside" });
  }, 60_000);

  test("a background helper's commands are sandboxed and auto-allowed too", async () => {
    const where = setup();
    const outcome = await runHelper(where, { description: "Write in the background", prompt: "Write a file", run_in_background: true }, () => [
      { command: "echo x > ~/outside-bg" },
      { command: "echo bg > bg.txt && echo sandboxed=$CLEW_SANDBOX" },
    ]);
    if (outcome.code !== 0) console.error(outcome.stderr);
    expect(outcome.code).toBe(0);
    expect(outcome.agentResult).toContain("working in the background");
    expect(existsSync(join(where.home, "outside-bg"))).toBe(false);
    expect(readFileSync(join(where.dir, "bg.txt"), "utf8")).toBe("bg\n");
    expect(outcome.helperResults[0]?.text).toContain(`${where.home}/outside-bg: Read-only file system`);
    expect(outcome.helperResults[1]).toEqual({ isError: false, text: "sandboxed=1" });
  }, 60_000);

  test("a worktree helper commits in its worktree, sandboxed, onto its branch; the project's tree, hooks and config stay untouched", async () => {
    const where = setup();
    // Another helper's worktree, kept from earlier: not this helper's to write.
    writeFileSync(join(where.dir, ".git", "info", "exclude"), "/.clew/worktrees/\n");
    git(where.dir, "worktree", "add", "-q", "-b", "clew/agent-other", join(where.dir, ".clew", "worktrees", "other"));
    const configBefore = readFileSync(join(where.dir, ".git", "config"), "utf8");
    const statusBefore = git(where.dir, "status", "--porcelain");
    const outcome = await runHelper(where, { description: "Add a feature", prompt: "Add feature.txt and commit it", isolation: "worktree" }, () => [
      { command: "echo feature > feature.txt && git add . && git commit -qm x && git log -1 --format=%s && echo sandboxed=$CLEW_SANDBOX" },
      { command: `echo bad > ${where.dir}/main.txt` },
      { command: `hooks=${where.dir}/.git/hooks; echo evil > "$hooks/post-commit"` },
      { command: "git config core.hooksPath /nowhere" },
      { command: `echo stolen > ${where.dir}/.clew/worktrees/other/stolen.txt` },
    ]);
    if (outcome.code !== 0) console.error(outcome.stderr);
    expect(outcome.code).toBe(0);
    expect(outcome.denials).toEqual([]);
    expect(outcome.helperCwd.startsWith(join(where.dir, ".clew", "worktrees"))).toBe(true);
    const [commit, mainTree, hook, config, other] = outcome.helperResults;
    expect(commit).toEqual({ isError: false, text: "x\nsandboxed=1" });
    const branch = /clew\/agent-[\w-]+/.exec(outcome.agentResult)?.[0] ?? "";
    expect(git(where.dir, "log", "-1", "--format=%s", branch)).toBe("x\n");
    expect(git(where.dir, "show", `${branch}:feature.txt`)).toBe("feature\n");
    // The project's main tree: not written, its branch and status as before.
    expect(mainTree?.text).toContain(`${where.dir}/main.txt: Read-only file system`);
    expect(mainTree?.text).toContain("it is outside this helper's own git worktree (isolation: worktree)");
    expect(existsSync(join(where.dir, "main.txt"))).toBe(false);
    expect(existsSync(join(where.dir, "feature.txt"))).toBe(false);
    expect(git(where.dir, "log", "-1", "--format=%s", "main")).toBe("initial\n");
    expect(git(where.dir, "status", "--porcelain")).toBe(statusBefore);
    // The repository's hooks and config stay read-only for the worktree's commands.
    expect(hook?.text).toContain("Read-only file system");
    expect(existsSync(join(where.dir, ".git", "hooks", "post-commit"))).toBe(false);
    expect(config?.text).toContain("could not lock config file");
    expect(readFileSync(join(where.dir, ".git", "config"), "utf8")).toBe(configBefore);
    expect(other?.text).toContain("stolen.txt: Read-only file system");
    expect(existsSync(join(where.dir, ".clew", "worktrees", "other", "stolen.txt"))).toBe(false);
  }, 60_000);

  test("an Explore helper still cannot run a writing command: plan mode is not loosened by the sandbox", async () => {
    const where = setup();
    const outcome = await runHelper(where, { description: "Look around", prompt: "Look around", subagent_type: "Explore" }, () => [{ command: "echo x > explored.txt" }, { command: "cat app.txt" }]);
    if (outcome.code !== 0) console.error(outcome.stderr);
    expect(outcome.code).toBe(0);
    expect(existsSync(join(where.dir, "explored.txt"))).toBe(false);
    const [write, read] = outcome.helperResults;
    expect(write?.isError).toBe(true);
    expect(write?.text).toContain("plan mode");
    expect(read).toEqual({ isError: false, text: "app" });
  }, 60_000);
});

