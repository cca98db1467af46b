// The session's rewind API as the control protocol will call it (the SDK's `rewind_files`), run in
// this process against the real session, tools, files and transcript (only the model is faked):
// a prompt found by the id its host gave the message, a dry run that changes nothing, the files
// put back with the conversation untouched, then the conversation rewound without the files, and
// a resume reading the rewound conversation.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { openSession } from "../../src/app/bootstrap.ts";
import { rewindFilesAnswer } from "../../src/app/session-rewind.ts";
import { parseArgs } from "../../src/cli/args.ts";
import { sessionFlags } from "../../src/cli/session-flags.ts";
import { readEnvironment } from "../../src/settings/paths.ts";
import { reply, startFakeAnthropic, type FakeServer, type ScriptStep } from "../fake-anthropic/index.ts";
import { clewEnv, tempDirectory } from "../helpers/clew-process.ts";
import { writeWorkspace } from "../scenarios/workspaces.ts";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function open(dir: string, configDir: string, script: ScriptStep[], resume?: string) {
  server = await startFakeAnthropic({ script });
  const env = readEnvironment(clewEnv({ cwd: dir, configDir, baseURL: server.url }), dir);
  const options = parseArgs(["-p", "--permission-mode", "bypassPermissions"]);
  const reports: string[] = [];
  const session = await openSession({ ...sessionFlags(options, env, "0.0.0-test"), persist: true, report: (line) => reports.push(line), ...(resume ? { resume: { kind: "id", id: resume } } : {}) });
  return { session, reports };
}

const quiet = () => undefined;

describe("Session.rewindFiles / Session.rewind", () => {
  test("rewind_files by the host's message id: dry run, then the files only; then the conversation only; a resume reads the rewound conversation", async () => {
    const dir = writeWorkspace({ "a.txt": "alpha\n" });
    const configDir = tempDirectory("clew-rewind-config-");
    const { session, reports } = await open(dir, configDir, [
      reply().toolUse("Bash", { command: "echo one > a.txt" }),
      reply().text("One."),
      reply().toolUse("Bash", { command: "echo two > a.txt && echo b > b.txt" }),
      reply().text("Two."),
    ]);
    const signal = new AbortController().signal;
    await session.runTurn("first", quiet, signal, { messageId: "host-1" });
    await session.runTurn("second", quiet, signal, { messageId: "host-2" });
    expect(reports).toEqual([]);
    expect((await session.rewindPoints()).map((point) => [point.prompt, point.text, point.changes, point.conversation])).toEqual([
      [1, "first", { files: 1, added: 1, removed: 1 }, true],
      [2, "second", { files: 2, added: 2, removed: 1 }, true],
    ]);

    const preview = await session.rewindFiles("host-2", { dryRun: true });
    expect(preview).toEqual({ prompt: 2, text: "second", scope: "code", dryRun: true, files: { restored: ["a.txt"], removed: ["b.txt"], kept: [] } });
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("two\n");

    // The control protocol's answer to rewind_files.
    const answer = (id: string, dryRun: boolean) => rewindFilesAnswer((target, options) => session.rewindFiles(target, options), id, dryRun);
    expect(await answer("host-2", true)).toEqual({ canRewind: true, filesChanged: ["a.txt", "b.txt"], filesKept: [] });
    expect(await answer("nobody", true)).toEqual({ canRewind: false, error: "there is no checkpoint for a user message with id nobody; this session has checkpoints for prompts 1 to 2 (N counts the session's prompts from 1)." });
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("two\n");

    const messagesBefore = session.messages.length;
    expect(await session.rewindFiles("host-2")).toEqual({ ...preview, dryRun: false });
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("one\n");
    expect(existsSync(join(dir, "b.txt"))).toBe(false);
    expect(session.messages.length).toBe(messagesBefore);
    // The later checkpoints went with the files: an unknown id names what is left.
    await expect(session.rewindFiles("host-2")).rejects.toThrow("error: there is no checkpoint for a user message with id host-2; this session has checkpoints for prompt 1");

    const back = await session.rewind(1, "conversation");
    expect(back).toEqual({ prompt: 1, text: "first", scope: "conversation", dryRun: false, messages: 0 });
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("one\n");
    expect(JSON.stringify(session.messages)).not.toContain("first");
    const { sessionId } = session.info;
    await session.close();

    const resumed = await open(dir, configDir, [], sessionId);
    expect(JSON.stringify(resumed.session.messages)).not.toContain("One.");
    expect(JSON.stringify(resumed.session.messages)).toContain("The user rewound the conversation to just before their prompt 1");
    await resumed.session.close();
  }, 60_000);
});
