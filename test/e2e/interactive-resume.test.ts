// Interrupting and resuming in a real terminal: Esc kills a long Bash command and the next prompt
// works on a valid history; Ctrl+C stops a stalled stream; /resume, -c and -r reopen a session
// with a condensed replay.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { reply, stall, toolResults } from "../fake-anthropic/index.ts";
import { runClew, transcripts } from "../helpers/clew-process.ts";
import { waitFor } from "../helpers/scenario.ts";
import { transcriptLines } from "../helpers/transcript.ts";
import { hasTmux, lastUserMessageText, terminalHarness } from "../helpers/tmux.ts";

const { fake, open, workspace } = terminalHarness();

function alive(group: number): boolean {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(!hasTmux)("interrupting a turn", () => {
  test("Esc kills a long Bash command, the transcript records it, and the next prompt works", async () => {
    const { dir, configDir } = workspace();
    const command = `echo $$ > ${join(dir, "sleeper.pid")}; sleep 30`;
    const server = await fake([reply().text("Starting the long job.").toolUse("Bash", { command, description: "Long job" }), reply().text("Still here.")]);
    const terminal = open({ cwd: dir, configDir, baseURL: server.url, args: ["--permission-mode", "bypassPermissions"] });
    await terminal.waitFor("/help for help");
    terminal.type("run the long job");
    terminal.keys("Enter");
    const group = await waitFor(() => {
      const text = existsSync(join(dir, "sleeper.pid")) ? readFileSync(join(dir, "sleeper.pid"), "utf8").trim() : "";
      return text === "" ? undefined : Number(text);
    }, "the Bash command to start");
    await terminal.waitFor("esc to interrupt");
    terminal.keys("Escape");
    await terminal.waitFor("Interrupted · tell clew what to do instead");
    expect(terminal.screen()).toContain("⎿ interrupted");
    await waitFor(() => !alive(group), "the command's process group to be killed");

    terminal.type("are you there?");
    terminal.keys("Enter");
    await terminal.waitFor("Still here.");
    expect(server.violations).toEqual([]);
    const [result] = toolResults(server.requests[1] ?? (server.requests[0] as never));
    expect(result?.isError).toBe(true);
    expect(result?.text).toContain("interrupted");
    const prompt = lastUserMessageText(server);
    expect(prompt).toContain("[Request interrupted by user]");
    expect(prompt).toContain("are you there?");

    // The project directory also holds history.jsonl (prompt history); the transcript is the session file.
    const [path] = transcripts(configDir).filter((file) => /\/[0-9a-f-]{36}\.jsonl$/.test(file));
    const records = transcriptLines(path as string) as Array<{ type?: string; outcome?: { reason: string } }>;
    const ends = records.filter((record) => record.type === "turn-end");
    expect(ends.map((record) => record.outcome?.reason)).toEqual(["aborted_tools", "completed"]);
  });

  test("Ctrl+C stops a stalled stream and the conversation continues", async () => {
    const partial = reply().text("This reply never finishes because the server stalls right here and");
    const server = await fake([stall(partial, 3), reply().text("Recovered.")]);
    const { dir, configDir } = workspace();
    const terminal = open({ cwd: dir, configDir, baseURL: server.url, env: { CLEW_STREAM_IDLE_TIMEOUT_MS: "60000" } });
    await terminal.waitFor("/help for help");
    terminal.type("start");
    terminal.keys("Enter");
    await terminal.waitFor("esc to interrupt");
    // The stall holds the stream open once the request has reached the server.
    await waitFor(() => server.requests.length === 1, "the stalled request");
    terminal.keys("C-c");
    await terminal.waitFor("Interrupted");
    terminal.type("again");
    terminal.keys("Enter");
    await terminal.waitFor("Recovered.");
    expect(server.violations).toEqual([]);
    expect(lastUserMessageText(server)).toContain("again");
  });
});

describe.skipIf(!hasTmux)("resuming", () => {
  async function pastSession(dir: string, configDir: string, prompt: string, answer: string): Promise<string> {
    const server = await fake([reply().text(answer).toolUse("Read", { file_path: join(dir, "README.md") }), reply().text(`${answer} (read it)`)]);
    await Bun.write(join(dir, "README.md"), "hello\n");
    const run = await runClew(["-p", prompt, "--output-format", "json"], { cwd: dir, configDir, baseURL: server.url });
    expect(run.code).toBe(0);
    return (JSON.parse(run.stdout) as { session_id: string }).session_id;
  }

  test("/resume picks a past session of this project and replays it condensed", async () => {
    const { dir, configDir } = workspace();
    await pastSession(dir, configDir, "older task", "Older answer.");
    const id = await pastSession(dir, configDir, "newer task", "Newer answer.");
    const server = await fake([reply().text("Continuing the newer task.")]);
    const terminal = open({ cwd: dir, configDir, baseURL: server.url });
    await terminal.waitFor("/help for help");
    terminal.type("/resume");
    terminal.keys("Enter");
    const picker = await terminal.waitFor("Resume which conversation?");
    expect(picker).toContain("newer task");
    expect(picker).toContain("older task");
    terminal.keys("Enter");
    const replayed = await terminal.waitFor(`resumed ${id}`);
    expect(replayed).toContain("> newer task");
    expect(replayed).toContain("Newer answer.");
    expect(replayed).toContain("● Read README.md");
    terminal.type("go on");
    terminal.keys("Enter");
    await terminal.waitFor("Continuing the newer task.");
    const messages = JSON.stringify(server.requests[0]?.body.messages);
    expect(messages).toContain("newer task");
    expect(messages).not.toContain("older task");
    expect(server.violations).toEqual([]);
  });

  test("clew -c and clew -r ID open on the resumed transcript", async () => {
    const { dir, configDir } = workspace();
    const first = await pastSession(dir, configDir, "first task", "First answer.");
    await pastSession(dir, configDir, "second task", "Second answer.");
    const server = await fake([reply().text("Back on the first.")]);

    const continued = open({ cwd: dir, configDir, baseURL: server.url, args: ["-c"] });
    const screen = await continued.waitFor("── resumed");
    expect(screen).toContain("> second task");
    expect(screen).not.toContain("first task");
    continued.kill();

    const resumed = open({ cwd: dir, configDir, baseURL: server.url, args: ["-r", first] });
    await resumed.waitFor(`resumed ${first}`);
    expect(resumed.screen()).toContain("> first task");
    resumed.type("continue");
    resumed.keys("Enter");
    await resumed.waitFor("Back on the first.");
    expect(JSON.stringify(server.requests[0]?.body.messages)).toContain("first task");
  });
});
