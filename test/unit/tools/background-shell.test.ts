import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bashOutputTool, type BashOutputData } from "../../../src/tools/bash-output.ts";
import { bashTool } from "../../../src/tools/bash.ts";
import { killShellTool } from "../../../src/tools/kill-shell.ts";
import type { ShellJob } from "../../../src/tools/shared/shell-jobs.ts";
import { defaultToolLimits, type ToolSession } from "../../../src/tools/types.ts";
import { ToolError } from "../../../src/util/errors.ts";
import { eventually, isProcessRunning, runTool, tempDir, textOf, toolSession } from "../../helpers/tool-session.ts";

const sessions: ToolSession[] = [];
function newSession(): ToolSession {
  const session = toolSession(tempDir("clew-bg-"));
  sessions.push(session);
  return session;
}
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((session) => session.shells.killAll()));
});

async function startJob(session: ToolSession, command: string): Promise<ShellJob> {
  const output = await runTool(bashTool, { command, run_in_background: true, description: "Run a background job" }, session);
  const id = (output.data as { backgroundTaskId: string }).backgroundTaskId;
  const job = session.shells.get(id);
  if (job === undefined) throw new Error(`no job ${id}`);
  return job;
}

async function readOutput(session: ToolSession, input: Record<string, unknown>): Promise<BashOutputData> {
  return (await runTool(bashOutputTool, input, session)).data as BashOutputData;
}

/** A pid a job wrote to a file, once it is complete (the line ends with a newline). */
async function pidWrittenTo(path: string): Promise<number> {
  expect(await eventually(() => existsSync(path) && readFileSync(path, "utf8").endsWith("\n"))).toBe(true);
  return Number(readFileSync(path, "utf8").trim());
}

async function rejection(promise: Promise<unknown>): Promise<ToolError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ToolError)) throw new Error(`expected a ToolError, got ${String(error)}`);
  return error;
}

describe("background shells", () => {
  test("start, incremental output, completion with exit code", async () => {
    const session = newSession();
    const started = await runTool(
      bashTool,
      { command: "echo first; while [ ! -f go ]; do sleep 0.02; done; echo second; echo oops >&2; exit 4", run_in_background: true },
      session,
    );
    expect(started.data).toEqual({
      stdout: "",
      stderr: "",
      interrupted: false,
      isImage: false,
      exitCode: null,
      backgroundTaskId: "bash_1",
    });
    expect(textOf(started)).toContain("bash_1");
    expect(textOf(started)).toContain("BashOutput");

    // Each BashOutput call returns only what is new, so collect until the first line shows up.
    let seen = "";
    const gotFirst = await eventually(() => seen.includes("first"), 10_000, async () => {
      const data = await readOutput(session, { bash_id: "bash_1" });
      expect(data.status).toBe("running");
      seen += data.stdout;
    });
    expect(gotFirst).toBe(true);
    expect(seen).toBe("first\n");

    writeFileSync(join(session.projectDir, "go"), "");
    await session.shells.get("bash_1")?.done;
    const final = await runTool(bashOutputTool, { bash_id: "bash_1" }, session);
    expect(final.data).toEqual({
      shellId: "bash_1",
      command: "echo first; while [ ! -f go ]; do sleep 0.02; done; echo second; echo oops >&2; exit 4",
      status: "failed",
      exitCode: 4,
      stdout: "second\n",
      stderr: "oops\n",
    });
    expect(textOf(final)).toBe("<status>failed</status>\n<exit_code>4</exit_code>\n<stdout>\nsecond\n</stdout>\n<stderr>\noops\n</stderr>");
    expect(final.display).toEqual({ summary: "failed, exit 4" });

    const again = await readOutput(session, { bash_id: "bash_1" });
    expect(again).toMatchObject({ status: "failed", stdout: "", stderr: "" });
  });

  test("a job runs in the session cwd with CLAUDECODE=1 and completes with exit 0", async () => {
    const session = newSession();
    const job = await startJob(session, 'pwd; echo "$CLAUDECODE"');
    await job.done;
    expect(await readOutput(session, { bash_id: job.id })).toEqual({
      shellId: job.id,
      command: 'pwd; echo "$CLAUDECODE"',
      status: "completed",
      exitCode: 0,
      stdout: `${session.projectDir}\n1\n`,
      stderr: "",
    });
  });

  test("filter keeps only matching lines", async () => {
    const session = newSession();
    const job = await startJob(session, "printf 'apple\\nbanana\\navocado\\n'");
    await job.done;
    expect(await readOutput(session, { bash_id: job.id, filter: "^a" })).toMatchObject({ stdout: "apple\navocado" });
  });

  test("an invalid filter or unknown id is a ToolError naming the known ids", async () => {
    const session = newSession();
    const job = await startJob(session, "true");
    const badRegex = await rejection(runTool(bashOutputTool, { bash_id: job.id, filter: "(" }, session));
    expect(badRegex.code).toBe("tool_input");
    const unknown = await rejection(runTool(bashOutputTool, { bash_id: "bash_99" }, session));
    expect(unknown.code).toBe("tool_input");
    expect(unknown.message).toContain("bash_1");
    const unknownKill = await rejection(runTool(killShellTool, { shell_id: "bash_99" }, session));
    expect(unknownKill.code).toBe("tool_input");
    expect(unknownKill.message).toContain("bash_1");
  });

  test("KillShell kills the job's whole process group", async () => {
    const session = newSession();
    const pidFile = join(session.projectDir, "pid");
    const job = await startJob(session, `echo before; sleep 30 & echo $! > ${pidFile}; wait`);
    const grandchild = await pidWrittenTo(pidFile);
    expect(isProcessRunning(grandchild)).toBe(true);

    const killed = await runTool(killShellTool, { shell_id: job.id }, session);
    expect(killed).toEqual({
      content: `Successfully killed shell: ${job.id} (${job.command})`,
      display: { summary: `killed ${job.id}` },
      data: { shellId: job.id, command: job.command, message: `Successfully killed shell: ${job.id} (${job.command})` },
    });
    expect(job.status).toBe("killed");
    expect(await eventually(() => !isProcessRunning(grandchild))).toBe(true);
    // Output printed before the kill is still readable.
    expect(await readOutput(session, { bash_id: job.id })).toMatchObject({ status: "killed", stdout: "before\n" });

    const twice = await rejection(runTool(killShellTool, { shell_id: job.id }, session));
    expect(twice.code).toBe("tool_input");
  });

  test("killAll leaves no process of any job running", async () => {
    const session = newSession();
    const pids: number[] = [];
    const jobs: ShellJob[] = [];
    for (const name of ["a", "b"]) {
      const pidFile = join(session.projectDir, name);
      jobs.push(await startJob(session, `sleep 30 & echo $! > ${pidFile}; wait`));
      pids.push(await pidWrittenTo(pidFile));
    }
    // A job that already finished but left a grandchild behind is cleaned up too.
    const leftoverFile = join(session.projectDir, "leftover");
    const finished = await startJob(session, `sleep 30 >/dev/null 2>&1 & echo $! > ${leftoverFile}`);
    await finished.done;
    pids.push(await pidWrittenTo(leftoverFile));
    expect(pids.every(isProcessRunning)).toBe(true);

    await session.shells.killAll();
    expect(jobs.map((job) => job.status)).toEqual(["killed", "killed"]);
    expect(finished.status).toBe("completed");
    expect(await eventually(() => pids.every((pid) => !isProcessRunning(pid)))).toBe(true);
  });

  test("background output is bounded like foreground output", async () => {
    const session = toolSession(tempDir("clew-bg-"), {
      limits: { ...defaultToolLimits, bashMaxOutputChars: 20 },
    });
    sessions.push(session);
    const job = await startJob(session, "seq 1 1000");
    await job.done;
    expect(await readOutput(session, { bash_id: job.id })).toMatchObject({
      stdout: "1\n2\n3\n4\n5\n\n... [3873 characters truncated] ...\n\n999\n1000\n",
    });
  });
});
