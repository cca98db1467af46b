// A run cut short — kill -9 during a tool, kill -9 during a stalled stream, SIGTERM during a
// tool — leaves a transcript that parses line by line, and `-r ID` / `-c` continue it in the same
// file with every tool_use answered and nothing of the cut-off reply in the history.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { reply, stall, startFakeAnthropic, type FakeServer, type ScriptStep } from "../fake-anthropic/index.ts";
import { runClew, spawnClew, tempDirectory, transcripts } from "../helpers/clew-process.ts";
import { transcriptMessages, withoutCacheControl, withoutReminders } from "../helpers/transcript.ts";
import {
  collect,
  eventsIntoFirstToolInput,
  expectNoDuplicateTurns,
  expectTranscriptIsLastRequestPlus,
  onlyTranscript,
  parseFrames,
  readLines,
  storedToolResults,
  storedToolUses,
  waitFor,
} from "../helpers/scenario.ts";
import { writeWorkspace } from "./workspaces.ts";

const PROMPT = "run the slow job";
const RESUMED = "Picked up where we left off.";
const STALLED_MARK = "STALLED-REPLY";

const servers: FakeServer[] = [];
/** Process groups of `sleep` commands a killed clew could not clean up itself. */
const sleepers: number[] = [];

afterEach(async () => {
  for (const group of sleepers.splice(0)) {
    try {
      process.kill(-group, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  for (const fake of servers.splice(0)) await fake.close();
});

async function fake(script: ScriptStep[]): Promise<FakeServer> {
  const started = await startFakeAnthropic({ script });
  servers.push(started);
  return started;
}

/** A Bash call that records its process group, then sleeps long enough to be killed mid-run. */
function slowCommand(dir: string): string {
  return `echo $$ > ${join(dir, "sleeper.pid")}; sleep 30`;
}

/** Starts a run whose only reply is a slow Bash call and waits until that command is running. */
async function startSlowRun(dir: string, configDir: string, extra: string[] = []) {
  const first = await fake([reply().text("Starting the job.").toolUse("Bash", { command: slowCommand(dir), description: "Run the slow job" })]);
  const child = spawnClew(["-p", PROMPT, "--permission-mode", "bypassPermissions", ...extra], { cwd: dir, baseURL: first.url, configDir });
  const pidFile = join(dir, "sleeper.pid");
  const group = await waitFor(() => {
    const text = existsSync(pidFile) ? readFileSync(pidFile, "utf8").trim() : "";
    return text === "" ? undefined : Number(text);
  }, "the Bash command to start");
  sleepers.push(group);
  const path = await waitFor(() => transcripts(configDir)[0], "the transcript");
  await waitFor(() => storedToolUses(path).length === 1, "the tool_use in the transcript");
  return { child, first, path, toolUseId: (storedToolUses(path)[0] as { id: string }).id };
}

/** The text deltas of the newest message in `--include-partial-messages` output (complete lines only). */
function streamedText(stdout: string): string {
  const complete = stdout.slice(0, stdout.lastIndexOf("\n") + 1);
  let text = "";
  for (const frame of parseFrames(complete)) {
    const event = frame.event as { type?: string; delta?: { type?: string; text?: string } } | undefined;
    if (frame.type !== "stream_event" || !event) continue;
    if (event.type === "message_start") text = "";
    if (event.type === "content_block_delta" && event.delta?.type === "text_delta") text += event.delta.text ?? "";
  }
  return text;
}

function sessionIdOf(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1, -".jsonl".length);
}

function expectEveryLineParses(path: string): void {
  const raw = readFileSync(path, "utf8");
  expect(raw.endsWith("\n")).toBe(true);
  for (const line of raw.split("\n").filter((l) => l !== "")) expect(() => JSON.parse(line) as unknown).not.toThrow();
}

describe("kill -9 mid-run, then resume", () => {
  test("killed while Bash runs: -r answers the cut-off call as interrupted and appends to the same file", async () => {
    const dir = writeWorkspace({ "README.md": "job\n" });
    const configDir = tempDirectory("clew-config-");
    const { child, first, path, toolUseId } = await startSlowRun(dir, configDir);
    child.kill(9);
    expect(await child.exited).not.toBe(0);
    expect(first.violations).toEqual([]);

    expectEveryLineParses(path);
    const before = readFileSync(path, "utf8");
    expect(storedToolResults(path)).toEqual([]);
    const sessionId = sessionIdOf(path);

    const second = await fake([reply().text(RESUMED)]);
    const run = await runClew(["-p", "-r", sessionId, "go on", "--output-format", "json"], { cwd: dir, baseURL: second.url, configDir });
    expect(second.violations).toEqual([]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ type: "result", subtype: "success", is_error: false, result: RESUMED, session_id: sessionId });

    expect(second.requests.length).toBe(1);
    expect(withoutReminders(withoutCacheControl(second.requests[0]?.body.messages))).toEqual([
      { role: "user", content: [{ type: "text", text: PROMPT }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Starting the job." },
          { type: "tool_use", id: toolUseId, name: "Bash", input: { command: slowCommand(dir), description: "Run the slow job" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: toolUseId, content: expect.stringMatching(/^Interrupted/), is_error: true },
          { type: "text", text: "go on" },
        ],
      },
    ]);

    // Same file, appended: the old bytes are untouched and the repair is now stored.
    expect(transcripts(configDir)).toEqual([path]);
    expect(readFileSync(path, "utf8").startsWith(before)).toBe(true);
    expectEveryLineParses(path);
    expectTranscriptIsLastRequestPlus(path, second.requests[0]?.body.messages, RESUMED);
    expectNoDuplicateTurns(path);
  });

  test("killed while the stream stalls: -c continues the newest session without the partial reply", async () => {
    const dir = writeWorkspace({ "notes.txt": "alpha\n" });
    const configDir = tempDirectory("clew-config-");
    // An older, finished session in the same directory: -c must not pick it.
    const older = await fake([reply().text("Old answer.")]);
    const oldRun = await runClew(["-p", "an older task"], { cwd: dir, baseURL: older.url, configDir });
    expect(oldRun.code).toBe(0);
    const oldPath = onlyTranscript(configDir);

    const partial = reply().text(`${STALLED_MARK}: half a thought`).toolUse("Read", { file_path: join(dir, "notes.txt") });
    const first = await fake([
      reply().toolUse("Read", { file_path: join(dir, "notes.txt") }),
      stall(partial, eventsIntoFirstToolInput(partial)),
    ]);
    const child = spawnClew(["-p", PROMPT, "--output-format", "stream-json", "--verbose", "--include-partial-messages"], {
      cwd: dir,
      baseURL: first.url,
      configDir,
      // Far longer than the test: the stall must still be in progress when the kill lands.
      env: { CLEW_STREAM_IDLE_TIMEOUT_MS: "600000" },
    });
    // Kill only once clew has received part of the stalled reply.
    const stdout = collect(child.stdout);
    await waitFor(() => streamedText(stdout.text()).includes(STALLED_MARK), "the partial reply to reach clew");
    child.kill(9);
    await child.exited;
    expect(first.requests.length).toBe(2);
    expect(first.violations).toEqual([]);

    const path = transcripts(configDir).find((candidate) => candidate !== oldPath) as string;
    expectEveryLineParses(path);
    expect(readFileSync(path, "utf8")).not.toContain(STALLED_MARK);
    const readId = (storedToolUses(path)[0] as { id: string }).id;

    const second = await fake([reply().text(RESUMED)]);
    const run = await runClew(["-p", "-c", "go on", "--output-format", "json"], { cwd: dir, baseURL: second.url, configDir });
    expect(second.violations).toEqual([]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ subtype: "success", is_error: false, result: RESUMED, session_id: sessionIdOf(path) });

    const sent = withoutReminders(withoutCacheControl(second.requests[0]?.body.messages));
    expect(JSON.stringify(sent)).not.toContain(STALLED_MARK);
    expect(sent).toEqual([
      { role: "user", content: [{ type: "text", text: PROMPT }] },
      { role: "assistant", content: [{ type: "tool_use", id: readId, name: "Read", input: { file_path: join(dir, "notes.txt") } }] },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: readId, content: expect.stringContaining("alpha") },
          { type: "text", text: "go on" },
        ],
      },
    ]);
    expect(transcripts(configDir).sort()).toEqual([oldPath, path].sort());
    expectTranscriptIsLastRequestPlus(path, second.requests[0]?.body.messages, RESUMED);
    expectNoDuplicateTurns(path);
    // The older session is untouched.
    expect(transcriptMessages(oldPath).length).toBe(2);
  });
});

/** Runs the slow Bash call, sends SIGTERM while it runs, and returns what the run left behind. */
async function sigtermRun(format: "json" | "stream-json") {
  const dir = writeWorkspace({ "README.md": "job\n" });
  const configDir = tempDirectory("clew-config-");
  const extra = format === "json" ? ["--output-format", "json"] : ["--output-format", "stream-json", "--verbose"];
  const { child, first, path, toolUseId } = await startSlowRun(dir, configDir, extra);
  child.kill("SIGTERM");
  const [stdout, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
  return { dir, configDir, first, path, toolUseId, stdout, code };
}

describe("SIGTERM mid-tool", () => {
  for (const format of ["json", "stream-json"] as const) {
    test(`--output-format ${format}: exit 143, valid output, the call answered, resumable`, async () => {
      const { dir, configDir, first, path, toolUseId, stdout, code } = await sigtermRun(format);
      expect(code).toBe(143);
      expect(first.violations).toEqual([]);

      const frames = parseFrames(stdout);
      expect(frames.at(-1)).toMatchObject({
        type: "result",
        subtype: "error_during_execution",
        is_error: true,
        errors: ["Interrupted"],
        terminal_reason: "aborted_tools",
      });
      if (format === "json") expect(frames.length).toBe(1);
      else expect(frames[0]).toMatchObject({ type: "system", subtype: "init" });

      // The transcript ends with the tool_use answered, so nothing needs repairing on resume.
      expectEveryLineParses(path);
      const results = storedToolResults(path);
      expect(results).toEqual([
        expect.objectContaining({ type: "tool_result", tool_use_id: toolUseId, content: expect.stringMatching(/interrupted/i) }),
      ]);
      expect(transcriptMessages(path).at(-1) as unknown).toEqual({ role: "user", content: results });

      const second = await fake([reply().text(RESUMED)]);
      const run = await runClew(["-p", "-r", sessionIdOf(path), "go on", "--output-format", "json"], {
        cwd: dir,
        baseURL: second.url,
        configDir,
      });
      expect(second.violations).toEqual([]);
      expect(run.code).toBe(0);
      const sent = withoutReminders(withoutCacheControl(second.requests[0]?.body.messages)) as Array<{ role: string; content: unknown[] }>;
      expect(sent.at(-1)).toEqual({ role: "user", content: [results[0], { type: "text", text: "go on" }] });
      expect(transcripts(configDir)).toEqual([path]);
      expectTranscriptIsLastRequestPlus(path, second.requests[0]?.body.messages, RESUMED);
      expectNoDuplicateTurns(path);
    });
  }

  // BUG (src/loop/execute.ts resolve()): a Bash call cut off by SIGTERM/SIGINT returns normally with
  // "Command was interrupted" and no is_error, unlike the kill -9 repair ("Interrupted: …", is_error).
  test("the interrupted Bash call is an is_error tool_result", async () => {
    const { path, toolUseId } = await sigtermRun("json");
    expect(storedToolResults(path)).toEqual([
      { type: "tool_result", tool_use_id: toolUseId, content: expect.stringMatching(/interrupted/i), is_error: true },
    ]);
  });
});
