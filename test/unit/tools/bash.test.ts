import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { bashTool } from "../../../src/tools/bash.ts";
import { defaultToolLimits, type ToolSession } from "../../../src/tools/types.ts";
import { eventually, isProcessRunning, runTool, tempDir, textOf, toolSession } from "../../helpers/tool-session.ts";

const sessions: ToolSession[] = [];
function newSession(overrides: Partial<ToolSession> = {}): ToolSession {
  const session = toolSession(tempDir("clew-bash-"), overrides);
  sessions.push(session);
  return session;
}
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((session) => session.shells.killAll()));
});

function pidFrom(path: string): number {
  return Number(readFileSync(path, "utf8").trim());
}

describe("Bash", () => {
  test("returns stdout, stderr and a non-zero exit code without throwing", async () => {
    const session = newSession();
    const output = await runTool(bashTool, { command: "echo out; echo err >&2; exit 3" }, session);
    expect(output).toEqual({
      content: "out\nerr\nExit code 3",
      display: { summary: "exit 3" },
      data: { stdout: "out\n", stderr: "err\n", interrupted: false, isImage: false, exitCode: 3 },
    });
  });

  test("a successful command reports exit 0 and only its output", async () => {
    const session = newSession();
    const output = await runTool(bashTool, { command: "printf 'a\\nb\\n'", description: "Print two lines" }, session);
    expect(output).toEqual({
      content: "a\nb",
      display: { summary: "exit 0" },
      data: { stdout: "a\nb\n", stderr: "", interrupted: false, isImage: false, exitCode: 0 },
    });
  });

  test("says so when a command prints nothing", async () => {
    const session = newSession();
    expect(textOf(await runTool(bashTool, { command: "true" }, session))).toBe("(no output)");
    expect(textOf(await runTool(bashTool, { command: "false" }, session))).toBe("Exit code 1");
  });

  test("a command that does not exist is an ordinary result with exit 127", async () => {
    const session = newSession();
    const output = await runTool(bashTool, { command: "clew-no-such-command-xyz --flag" }, session);
    expect(output.data).toMatchObject({ exitCode: 127, stdout: "", interrupted: false });
    expect(textOf(output)).toContain("clew-no-such-command-xyz");
    expect(textOf(output)).toContain("not found");
    expect(textOf(output).endsWith("Exit code 127")).toBe(true);
  });

  test("the working directory carries over to the next call", async () => {
    const session = newSession();
    const sub = join(session.projectDir, "sub");
    mkdirSync(sub);
    expect(textOf(await runTool(bashTool, { command: "cd sub" }, session))).toBe("(no output)");
    expect(session.cwd).toBe(sub);
    expect(textOf(await runTool(bashTool, { command: "pwd" }, session))).toBe(sub);
    // The trailer that records the directory must not hide the command's own status.
    const failed = await runTool(bashTool, { command: "cd .. && false" }, session);
    expect(failed.data).toMatchObject({ exitCode: 1 });
    expect(session.cwd).toBe(session.projectDir);
  });

  test("falls back to the project directory when the working directory was deleted", async () => {
    const session = newSession();
    const gone = join(session.projectDir, "gone");
    mkdirSync(gone);
    await runTool(bashTool, { command: "cd gone" }, session);
    expect(session.cwd).toBe(gone);
    rmSync(gone, { recursive: true });
    const output = await runTool(bashTool, { command: "pwd" }, session);
    expect(session.cwd).toBe(session.projectDir);
    expect(textOf(output)).toContain(`no longer exists`);
    expect(output.data).toMatchObject({ stdout: `${session.projectDir}\n`, exitCode: 0 });
  });

  test("children see the session env plus CLAUDECODE=1 and CLEW=1, and no stdin", async () => {
    const session = newSession({ env: { PATH: process.env.PATH ?? "/usr/bin:/bin", CLEW_TEST_VAR: "from-settings" } });
    const output = await runTool(bashTool, { command: 'echo "$CLAUDECODE $CLEW $CLEW_TEST_VAR"; cat; echo "stdin:$?"' }, session);
    expect(output.data).toMatchObject({ stdout: "1 1 from-settings\nstdin:0\n", exitCode: 0 });
  });

  test("a timeout kills the whole process group, grandchildren included", async () => {
    const session = newSession();
    const pidFile = join(session.projectDir, "pid");
    const output = await runTool(
      bashTool,
      { command: `echo started; sleep 30 & echo $! > ${pidFile}; wait`, timeout: 500 },
      session,
    );
    expect(textOf(output)).toBe("started\nCommand timed out after 0.5s");
    expect(output.display).toEqual({ summary: "timed out" });
    expect(output.data).toMatchObject({ stdout: "started\n", interrupted: true, isImage: false });
    expect(await eventually(() => !isProcessRunning(pidFrom(pidFile)))).toBe(true);
  });

  test("the timeout is capped by bashMaxTimeoutMs", async () => {
    const session = newSession({ limits: { ...defaultToolLimits, bashMaxTimeoutMs: 300 } });
    const output = await runTool(bashTool, { command: "sleep 30", timeout: 60_000 }, session);
    expect(textOf(output)).toBe("Command timed out after 0.3s");
  });

  test("aborting the signal kills the whole process group", async () => {
    const session = newSession();
    const pidFile = join(session.projectDir, "pid");
    const controller = new AbortController();
    const running = runTool(bashTool, { command: `sleep 30 & echo $! > ${pidFile}; wait` }, session, controller.signal);
    expect(await eventually(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").endsWith("\n"))).toBe(true);
    controller.abort();
    const output = await running;
    expect(textOf(output)).toBe("Command was interrupted");
    expect(output.display).toEqual({ summary: "interrupted" });
    expect(output.data).toMatchObject({ interrupted: true });
    expect(await eventually(() => !isProcessRunning(pidFrom(pidFile)))).toBe(true);
  });

  test("an already-aborted signal runs nothing", async () => {
    const session = newSession();
    const controller = new AbortController();
    controller.abort();
    const output = await runTool(bashTool, { command: "touch ran" }, session, controller.signal);
    expect(textOf(output)).toBe("Command was interrupted");
    expect(existsSync(join(session.projectDir, "ran"))).toBe(false);
  });

  test("long output keeps its head and tail and says how much was cut", async () => {
    const session = newSession({ limits: { ...defaultToolLimits, bashMaxOutputChars: 20 } });
    const output = await runTool(bashTool, { command: "seq 1 1000" }, session);
    // seq 1 1000 prints 3893 characters; the first and last 10 are kept.
    expect(output.data).toMatchObject({
      stdout: "1\n2\n3\n4\n5\n\n... [3873 characters truncated] ...\n\n999\n1000\n",
      exitCode: 0,
    });
  });

  test("multi-byte characters split across pipe reads arrive whole", async () => {
    const session = newSession({ limits: { ...defaultToolLimits, bashMaxOutputChars: 150_000 } });
    // 70,000 two-byte characters: 140 kB, read in many chunks that split characters.
    const output = await runTool(bashTool, { command: "head -c 140000 /dev/zero | tr '\\0' 'x' | sed 's/x/é/g'" }, session);
    expect(output.data).toMatchObject({ stdout: "é".repeat(140_000), exitCode: 0 });
  });

  test("a command that leaves a background process running returns when the shell exits, with its output", async () => {
    const session = newSession();
    const pidFile = join(session.projectDir, "sleeper.pid");
    const output = await runTool(bashTool, { command: `echo before; sleep 60 & echo $! > ${pidFile}; echo after` }, session);
    try {
      expect(output.data).toMatchObject({ stdout: "before\nafter\n", exitCode: 0, interrupted: false });
      expect(isProcessRunning(pidFrom(pidFile))).toBe(true);
    } finally {
      process.kill(pidFrom(pidFile), "SIGKILL");
    }
  });

  test("50 MB of output stays bounded in memory and in the result", async () => {
    const session = newSession();
    Bun.gc(true);
    const rssBefore = process.memoryUsage().rss;
    const output = await runTool(bashTool, { command: "yes | head -c 50000000" }, session);
    Bun.gc(true);
    const rssGrowth = process.memoryUsage().rss - rssBefore;
    const cap = session.limits.bashMaxOutputChars;
    const text = textOf(output);
    expect(text.length).toBeLessThanOrEqual(2 * cap);
    expect(text).toContain(`\n... [${50_000_000 - cap} characters truncated] ...\n`);
    expect(text.startsWith("y\ny\n")).toBe(true);
    expect(output.data).toMatchObject({ exitCode: 0 });
    // Holding the output whole would cost at least 50 MB.
    expect(rssGrowth).toBeLessThan(40_000_000);
  });
});
