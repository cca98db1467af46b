// Checkpoints as a session takes them, turn by turn, against real tools, files and git — seen
// through a `git` on PATH that logs each command the shadow repository runs (and can hold them
// back) before running the real one: a turn that only reads records its end with no git at all;
// once a shell has run, or in a resumed session, a reading turn's end is snapshot again (something
// may have been left running); a read runs while the snapshot before its prompt is still held up, and a Bash change
// made after it is still put back by a rewind; a read with a hook on it waits for the snapshot.
// Each project has a `.gitattributes`, so that git takes its snapshots (a small project without
// one is read in-process, no git to watch: see checkpoint-edits.test.ts).
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openSession } from "../../src/app/bootstrap.ts";
import { parseArgs } from "../../src/cli/args.ts";
import { sessionFlags } from "../../src/cli/session-flags.ts";
import { readEnvironment } from "../../src/settings/paths.ts";
import { reply, startFakeAnthropic, toolResults, type FakeServer, type ScriptStep } from "../fake-anthropic/index.ts";
import { records } from "../helpers/checkpoint-records.ts";
import { gitShim } from "../helpers/checkpoint-git-shim.ts";
import { clewEnv, tempDirectory } from "../helpers/clew-process.ts";
import { waitFor } from "../helpers/scenario.ts";
import { writeWorkspace } from "../scenarios/workspaces.ts";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});


async function open(dir: string, configDir: string, path: string, script: ScriptStep[], resume?: string) {
  await server?.close();
  server = await startFakeAnthropic({ script });
  const env = readEnvironment(clewEnv({ cwd: dir, configDir, baseURL: server.url, env: { PATH: path } }), dir);
  const reports: string[] = [];
  const session = await openSession({ ...sessionFlags(parseArgs(["-p", "--permission-mode", "bypassPermissions"]), env, "0.0.0-test"), persist: true, report: (line) => reports.push(line), ...(resume ? { resume: { kind: "id" as const, id: resume } } : {}) });
  return { session, reports };
}

const quiet = () => undefined;

describe("checkpoints turn by turn", () => {
  test("a turn that only reads records its end as its start with no git; after a shell ran, a reading turn's end is snapshot", async () => {
    const dir = writeWorkspace({ ".gitattributes": "", "a.txt": "alpha\n", "src/b.ts": "export const b = 1;\n" });
    const configDir = tempDirectory("clew-ckpt-turns-config-");
    const git = gitShim();
    // What the shadow repository had run when each turn's last answer was asked for (its snapshot before the prompt long done).
    const atLastAnswer: string[][] = [];
    const lastAnswer = (prompt: number, text: string): ScriptStep => async () => {
      await waitFor(() => records(configDir).some((record) => record.prompt === prompt), `the checkpoint of prompt ${prompt}`);
      atLastAnswer.push(git.commands());
      return reply().text(text);
    };
    const { session, reports } = await open(dir, configDir, git.path, [
      reply().toolUse("Read", { file_path: join(dir, "a.txt") }),
      reply().toolUse("Grep", { pattern: "export", path: dir }).toolUse("Glob", { pattern: "**/*.ts", path: dir }),
      lastAnswer(1, "Read them."),
      reply().toolUse("Bash", { command: "echo two > a.txt" }),
      lastAnswer(2, "Changed a."),
      reply().toolUse("Read", { file_path: join(dir, "a.txt") }),
      lastAnswer(3, "Read a again."),
    ]);
    const signal = new AbortController().signal;
    // The end of turn `prompt` recorded (behind the turn), its git run.
    const ended = (prompt: number) => waitFor(() => records(configDir).find((record) => record.prompt === prompt && record.after !== undefined), `the end of turn ${prompt}`);

    await session.runTurn("read", quiet, signal);
    await ended(1);
    expect(git.commands()).toEqual(atLastAnswer[0] ?? []);
    const [first] = records(configDir);
    expect(first?.after).toEqual(first?.before ?? {});

    await session.runTurn("change a", quiet, signal);
    await ended(2);
    expect(git.commands().length).toBeGreaterThan(atLastAnswer[1]?.length ?? 0);
    const second = records(configDir)[1];
    expect(second?.after).not.toEqual(second?.before ?? {});

    await session.runTurn("read again", quiet, signal);
    await ended(3);
    expect(git.commands().length).toBeGreaterThan(atLastAnswer[2]?.length ?? 0);
    const third = records(configDir)[2];
    expect(third?.after).toEqual(third?.before ?? {});

    expect(reports).toEqual([]);
    // The records still rewind: back to before the second prompt, a.txt is as the first turn left it.
    expect((await session.rewindFiles(2)).files).toEqual({ restored: ["a.txt"], removed: [], kept: [] });
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("alpha\n");
    await session.close();
  }, 60_000);

  test("a resumed session's reading turn is snapshot at its end: what its earlier process started may still run", async () => {
    const dir = writeWorkspace({ ".gitattributes": "", "a.txt": "alpha\n" });
    const configDir = tempDirectory("clew-ckpt-turns-config-");
    const git = gitShim();
    const atLastAnswer: string[][] = [];
    const lastAnswer = (prompt: number): ScriptStep => async () => {
      await waitFor(() => records(configDir).some((record) => record.prompt === prompt), `the checkpoint of prompt ${prompt}`);
      atLastAnswer.push(git.commands());
      return reply().text("Read it.");
    };
    const read = reply().toolUse("Read", { file_path: join(dir, "a.txt") });
    const first = await open(dir, configDir, git.path, [read, lastAnswer(1)]);
    await first.session.runTurn("read", quiet, new AbortController().signal);
    await first.session.close();
    expect(git.commands()).toEqual(atLastAnswer[0] ?? []);

    const resumed = await open(dir, configDir, git.path, [read, lastAnswer(2)], first.session.info.sessionId);
    await resumed.session.runTurn("read again", quiet, new AbortController().signal);
    await resumed.session.close();
    expect(git.commands().length).toBeGreaterThan(atLastAnswer[1]?.length ?? 0);
    expect(records(configDir).map((record) => [record.prompt, record.after])).toEqual([
      [1, records(configDir)[0]?.before],
      [2, records(configDir)[1]?.before],
    ]);
    expect([...first.reports, ...resumed.reports]).toEqual([]);
  }, 60_000);

  test("a read runs while the snapshot before its prompt is held up; a Bash change after it is still put back by a rewind", async () => {
    const dir = writeWorkspace({ ".gitattributes": "", "a.txt": "alpha\n" });
    const configDir = tempDirectory("clew-ckpt-turns-config-");
    const git = gitShim();
    git.hold();
    let whileHeld: { read: string | undefined; finished: string[] } | undefined;
    const { session, reports } = await open(dir, configDir, git.path, [
      reply().toolUse("Read", { file_path: join(dir, "a.txt") }),
      (request) => {
        whileHeld = { read: toolResults(request)[0]?.text, finished: git.commands().filter((line) => line.startsWith("done ")) };
        git.release();
        return reply().toolUse("Bash", { command: "echo changed > a.txt && echo new > b.txt" });
      },
      reply().text("Done."),
    ]);
    await session.runTurn("change a", quiet, new AbortController().signal);

    // The Read's result came back before any git command of the snapshot had finished: before it read the files.
    expect(whileHeld).toEqual({ read: expect.stringContaining("alpha"), finished: [] });
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("changed\n");
    // The turn's records finish behind it (a rewind waits for them): the held snapshot ran to its end.
    expect(await session.rewindFiles(1)).toEqual({ prompt: 1, text: "change a", scope: "code", dryRun: false, files: { restored: ["a.txt"], removed: ["b.txt"], kept: [] } });
    expect(git.commands()).toContain("done write-tree");
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("alpha\n");
    expect(existsSync(join(dir, "b.txt"))).toBe(false);
    expect(reports).toEqual([]);
    await session.close();
  }, 60_000);

  test("a read with a PreToolUse hook waits for the snapshot: the hook's file is put back by a rewind", async () => {
    const dir = writeWorkspace({ ".gitattributes": "", "a.txt": "alpha\n" });
    const configDir = tempDirectory("clew-ckpt-turns-config-");
    const git = gitShim();
    const hook = join(configDir, "before-read.sh");
    // What the snapshot had finished when the hook ran, and a file of the hook's own.
    writeFileSync(hook, `#!/bin/sh\ncat > /dev/null\ngrep '^done ' '${git.commandsFile}' > '${join(configDir, "seen-by-hook")}'\necho hooked > "$CLAUDE_PROJECT_DIR/hooked.txt"\n`);
    chmodSync(hook, 0o755);
    writeFileSync(join(configDir, "settings.json"), JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Read", hooks: [{ type: "command", command: hook }] }] } }));
    git.hold();
    const { session, reports } = await open(dir, configDir, git.path, [
      () => {
        // Long enough for a read that did not wait to run its hook while git is held.
        setTimeout(git.release, 500);
        return reply().toolUse("Read", { file_path: join(dir, "a.txt") });
      },
      reply().text("Read it."),
    ]);
    await session.runTurn("read a", quiet, new AbortController().signal);

    // The snapshot of this small project is one `add` (see ShadowRepo.snapshot): done before the hook ran.
    expect(readFileSync(join(configDir, "seen-by-hook"), "utf8")).toContain("done add");
    expect(readFileSync(join(dir, "hooked.txt"), "utf8")).toBe("hooked\n");
    expect((await session.rewindFiles(1)).files).toEqual({ restored: [], removed: ["hooked.txt"], kept: [] });
    expect(reports).toEqual([]);
    await session.close();
  }, 60_000);
});
