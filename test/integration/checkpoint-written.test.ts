// The end of a turn whose only changes were made by Edit, Write and NotebookEdit, against real
// tools, files and git (only the model is faked), seen through a `git` on PATH that logs what the
// shadow repository runs: no git runs at all (the files' blobs are written in-process, the tree
// when something needs it) — in the project and in an --add-dir folder — and a rewind still puts
// back exactly the turn's changes while files changed by hand afterwards are kept; an Edit through
// a link records its target; an ignored file is left out of the turn's end, as git would leave it;
// a Bash call in the turn makes the end a whole snapshot (of this small project, read in-process
// too), which sees what the command made; a file outside every folder is left out. The snapshot before the prompt
// runs while the first request is in flight, read in-process or taken by git (a project with a
// `.gitattributes` is git's to snapshot, which is how the tests below that hold git back get one). Hooks configured for other tools and events that never
// ran leave an Edit-only end as it is; one that ran outside the loop makes it a whole snapshot; a
// Notification hook fired mid-turn waits for the snapshot to have read the files.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, lstatSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openSession } from "../../src/app/bootstrap.ts";
import { parseArgs } from "../../src/cli/args.ts";
import { sessionFlags } from "../../src/cli/session-flags.ts";
import { readEnvironment } from "../../src/settings/paths.ts";
import { reply, startFakeAnthropic, type FakeServer, type ScriptStep } from "../fake-anthropic/index.ts";
import { records } from "../helpers/checkpoint-records.ts";
import { gitShim, type GitShim } from "../helpers/checkpoint-git-shim.ts";
import { clewEnv, tempDirectory } from "../helpers/clew-process.ts";
import { waitFor } from "../helpers/scenario.ts";
import { writeWorkspace } from "../scenarios/workspaces.ts";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const quiet = () => undefined;

async function open(dir: string, git: GitShim, script: (configDir: () => string) => ScriptStep[], flags: string[] = [], settings?: Record<string, unknown>) {
  const configDir = tempDirectory("clew-ckpt-written-config-");
  if (settings) writeFileSync(join(configDir, "settings.json"), JSON.stringify(settings));
  server = await startFakeAnthropic({ script: script(() => configDir) });
  const env = readEnvironment(clewEnv({ cwd: dir, configDir, baseURL: server.url, env: { PATH: git.path } }), dir);
  const reports: string[] = [];
  const session = await openSession({ ...sessionFlags(parseArgs(["-p", "--permission-mode", "bypassPermissions", ...flags]), env, "0.0.0-test"), persist: true, report: (line) => reports.push(line) });
  return { session, reports, configDir };
}


/** The turn's last answer, which notes how many commands the shadow repository had logged by then (the prompt's checkpoint written). */
function lastAnswer(configDir: () => string, git: GitShim, seen: { count: number }): ScriptStep {
  return async () => {
    await waitFor(() => records(configDir()).some((record) => record.prompt === 1), "the checkpoint before the prompt");
    seen.count = git.commands().length;
    return reply().text("Done.");
  };
}

/** What the shadow repository ran after the turn's last answer, once the end of turn 1 is in its record (it is written behind the turn). */
async function atTheEnd(configDir: string, git: GitShim, seen: { count: number }): Promise<string[]> {
  await waitFor(() => records(configDir).some((record) => record.prompt === 1 && record.after !== undefined), "the end of turn 1 in its record");
  return git.commands().slice(seen.count);
}

describe("the end of a turn that changed files only with Edit, Write and NotebookEdit", () => {
  test("runs no git; a rewind puts the turn's changes back and keeps what was changed by hand since", async () => {
    const dir = writeWorkspace({ "a.txt": "alpha\n", "b.txt": "bravo\n", "src/c.ts": "export const c = 1;\n" });
    const git = gitShim();
    const seen = { count: 0 };
    const { session, reports, configDir } = await open(dir, git, (config) => [
      reply().toolUse("Read", { file_path: join(dir, "a.txt") }),
      reply().toolUse("Edit", { file_path: join(dir, "a.txt"), old_string: "alpha", new_string: "ALPHA" }),
      reply().toolUse("Write", { file_path: join(dir, "src/new.ts"), content: "export const made = true;\nexport const twice = 2;\n" }),
      lastAnswer(config, git, seen),
    ]);
    await session.runTurn("change a, make new", quiet, new AbortController().signal);
    expect(await atTheEnd(configDir, git, seen)).toEqual([]);
    expect((await session.rewindPoints()).map((point) => [point.prompt, point.changes])).toEqual([[1, { files: 2, added: 3, removed: 1 }]]);

    writeFileSync(join(dir, "b.txt"), "bravo, by hand\n");
    writeFileSync(join(dir, "hand.txt"), "made by hand\n");
    expect((await session.rewindFiles(1)).files).toEqual({ restored: ["a.txt"], removed: ["src/new.ts"], kept: ["b.txt", "hand.txt"] });
    expect([readFileSync(join(dir, "a.txt"), "utf8"), existsSync(join(dir, "src/new.ts")), readFileSync(join(dir, "b.txt"), "utf8"), readFileSync(join(dir, "hand.txt"), "utf8")]).toEqual(["alpha\n", false, "bravo, by hand\n", "made by hand\n"]);
    expect(reports).toEqual([]);
    await session.close();
  }, 60_000);

  test("in an --add-dir folder too: its files are recorded in its own repository, a hand edit there is kept", async () => {
    const dir = writeWorkspace({ "a.txt": "alpha\n" });
    const other = writeWorkspace({ "o.txt": "other\n", "hand.txt": "hand\n" });
    const git = gitShim();
    const seen = { count: 0 };
    const { session, reports, configDir } = await open(
      dir,
      git,
      (config) => [
        reply().toolUse("Read", { file_path: join(other, "o.txt") }).toolUse("Read", { file_path: join(dir, "a.txt") }),
        reply().toolUse("Edit", { file_path: join(other, "o.txt"), old_string: "other", new_string: "OTHER" }).toolUse("Edit", { file_path: join(dir, "a.txt"), old_string: "alpha", new_string: "ALPHA" }),
        lastAnswer(config, git, seen),
      ],
      ["--add-dir", other],
    );
    await session.runTurn("change both", quiet, new AbortController().signal);
    // One add per folder, side by side.
    expect(await atTheEnd(configDir, git, seen)).toEqual([]);

    writeFileSync(join(other, "hand.txt"), "hand, edited\n");
    expect((await session.rewindFiles(1)).files).toEqual({ restored: ["a.txt", join(other, "o.txt")], removed: [], kept: [join(other, "hand.txt")] });
    expect([readFileSync(join(dir, "a.txt"), "utf8"), readFileSync(join(other, "o.txt"), "utf8"), readFileSync(join(other, "hand.txt"), "utf8")]).toEqual(["alpha\n", "other\n", "hand, edited\n"]);
    expect(reports).toEqual([]);
    await session.close();
  }, 60_000);

  test("an Edit through a link changes its target, which is what the end adds: a rewind puts the target back and leaves the link", async () => {
    const dir = writeWorkspace({ "a.txt": "alpha\n" });
    symlinkSync("a.txt", join(dir, "link.txt"));
    const git = gitShim();
    const seen = { count: 0 };
    const { session, reports, configDir } = await open(dir, git, (config) => [
      reply().toolUse("Read", { file_path: join(dir, "link.txt") }),
      reply().toolUse("Edit", { file_path: join(dir, "link.txt"), old_string: "alpha", new_string: "ALPHA" }),
      lastAnswer(config, git, seen),
    ]);
    await session.runTurn("change a through its link", quiet, new AbortController().signal);
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("ALPHA\n");
    expect(await atTheEnd(configDir, git, seen)).toEqual([]);

    expect((await session.rewindFiles(1)).files).toEqual({ restored: ["a.txt"], removed: [], kept: [] });
    expect([readFileSync(join(dir, "a.txt"), "utf8"), lstatSync(join(dir, "link.txt")).isSymbolicLink()]).toEqual(["alpha\n", true]);
    expect(reports).toEqual([]);
    await session.close();
  }, 60_000);

  test("an ignored file is left out of the turn's end, as git leaves it; a file outside every folder is left out", async () => {
    const dir = writeWorkspace({ "a.txt": "alpha\n", ".gitignore": "*.log\n" });
    const outside = tempDirectory("clew-ckpt-outside-");
    const git = gitShim();
    const seen = { count: 0 };
    const { session, reports, configDir } = await open(dir, git, (config) => [
      reply().toolUse("Read", { file_path: join(dir, "a.txt") }),
      reply()
        .toolUse("Write", { file_path: join(dir, "debug.log"), content: "noise\n" })
        .toolUse("Write", { file_path: join(outside, "elsewhere.txt"), content: "elsewhere\n" })
        .toolUse("Edit", { file_path: join(dir, "a.txt"), old_string: "alpha", new_string: "ALPHA" }),
      lastAnswer(config, git, seen),
    ]);
    await session.runTurn("log, elsewhere, a", quiet, new AbortController().signal);
    expect(await atTheEnd(configDir, git, seen)).toEqual([]);
    // The turn changed a.txt only, as the checkpoints count it: the ignored log is not in its end.
    expect((await session.rewindPoints()).map((point) => point.changes)).toEqual([{ files: 1, added: 1, removed: 1 }]);

    expect((await session.rewindFiles(1)).files).toEqual({ restored: ["a.txt"], removed: [], kept: [] });
    // Ignored files and files outside the session's folders are never checkpointed: left as they are.
    expect([readFileSync(join(dir, "a.txt"), "utf8"), readFileSync(join(dir, "debug.log"), "utf8"), readFileSync(join(outside, "elsewhere.txt"), "utf8")]).toEqual(["alpha\n", "noise\n", "elsewhere\n"]);
    expect(reports).toEqual([]);
    await session.close();
  }, 60_000);

  test("with a Bash call in the turn the end is a whole snapshot; a hand edit afterwards is still kept", async () => {
    const dir = writeWorkspace({ "a.txt": "alpha\n", "b.txt": "bravo\n" });
    const git = gitShim();
    const seen = { count: 0 };
    const { session, reports, configDir } = await open(dir, git, (config) => [
      reply().toolUse("Read", { file_path: join(dir, "a.txt") }),
      reply().toolUse("Edit", { file_path: join(dir, "a.txt"), old_string: "alpha", new_string: "ALPHA" }),
      reply().toolUse("Bash", { command: "echo made > made.txt" }),
      lastAnswer(config, git, seen),
    ]);
    await session.runTurn("change a, run a command", quiet, new AbortController().signal);
    expect(await atTheEnd(configDir, git, seen)).toEqual([]);

    writeFileSync(join(dir, "b.txt"), "bravo, by hand\n");
    expect((await session.rewindFiles(1)).files).toEqual({ restored: ["a.txt"], removed: ["made.txt"], kept: ["b.txt"] });
    expect([readFileSync(join(dir, "a.txt"), "utf8"), existsSync(join(dir, "made.txt")), readFileSync(join(dir, "b.txt"), "utf8")]).toEqual(["alpha\n", false, "bravo, by hand\n"]);
    expect(reports).toEqual([]);
    await session.close();
  }, 60_000);
});

describe("hooks and the end of an Edit-only turn", () => {
  const editTurn = (dir: string, git: GitShim, seen: { count: number }) => (config: () => string) => [
    reply().toolUse("Read", { file_path: join(dir, "a.txt") }),
    reply().toolUse("Edit", { file_path: join(dir, "a.txt"), old_string: "alpha", new_string: "ALPHA" }),
    lastAnswer(config, git, seen),
  ];

  test("hooks for other tools and events, none of which ran, leave the end as it is: just the Edit's file", async () => {
    const dir = writeWorkspace({ "a.txt": "alpha\n", "b.txt": "bravo\n" });
    const git = gitShim();
    const seen = { count: 0 };
    const hooks = {
      PreToolUse: [{ matcher: "WebFetch|WebSearch", hooks: [{ type: "command", command: "touch pre-ran" }] }],
      PostToolUse: [{ matcher: "NotebookEdit", hooks: [{ type: "command", command: "touch post-ran" }] }],
      Notification: [{ hooks: [{ type: "command", command: "touch notified" }] }],
    };
    const { session, reports, configDir } = await open(dir, git, editTurn(dir, git, seen), [], { hooks });
    await session.runTurn("change a", quiet, new AbortController().signal);
    expect(await atTheEnd(configDir, git, seen)).toEqual([]);
    expect(["pre-ran", "post-ran", "notified"].map((file) => existsSync(join(dir, file)))).toEqual([false, false, false]);
    writeFileSync(join(dir, "b.txt"), "bravo, by hand\n");
    expect((await session.rewindFiles(1)).files).toEqual({ restored: ["a.txt"], removed: [], kept: ["b.txt"] });
    expect(reports).toEqual([]);
    await session.close();
  }, 60_000);

  test("a Notification hook fired during the turn waits until the snapshot has read the files, as the loop's hooks do", async () => {
    const dir = writeWorkspace({ "a.txt": "alpha\n", ".gitattributes": "" });
    const git = gitShim();
    const hooks = { Notification: [{ hooks: [{ type: "command", command: "touch notified" }] }] };
    const { session, reports } = await open(dir, git, () => [reply().toolUse("Read", { file_path: join(dir, "a.txt") }), reply().text("Done.")], [], { hooks });
    git.hold();
    const turn = session.runTurn("read a", quiet, new AbortController().signal);
    await waitFor(() => git.commands().length > 0, "the snapshot's first git command, held");
    const notified = session.notify("Claude needs your permission to use Bash", "permission_prompt");
    await Bun.sleep(300);
    expect(existsSync(join(dir, "notified"))).toBe(false);
    git.release();
    await notified;
    expect(existsSync(join(dir, "notified"))).toBe(true);
    await turn;
    expect(reports).toEqual([]);
    await session.close();
  }, 60_000);

  test("a SessionStart hook that ran (it may have left work going) makes the end a whole snapshot, which sees what it made", async () => {
    const dir = writeWorkspace({ "a.txt": "alpha\n" });
    const git = gitShim();
    const seen = { count: 0 };
    const hooks = { SessionStart: [{ hooks: [{ type: "command", command: "(sleep 0.5; echo late > late.txt) >/dev/null 2>&1 &" }] }] };
    const { session, reports, configDir } = await open(dir, git, (config) => [
      reply().toolUse("Read", { file_path: join(dir, "a.txt") }),
      async () => {
        // The hook's work lands during the turn, after the snapshot before it.
        await waitFor(() => existsSync(join(dir, "late.txt")), "the SessionStart hook's background work");
        return reply().toolUse("Edit", { file_path: join(dir, "a.txt"), old_string: "alpha", new_string: "ALPHA" });
      },
      lastAnswer(config, git, seen),
    ], [], { hooks });
    await session.runTurn("change a", quiet, new AbortController().signal);
    expect(await atTheEnd(configDir, git, seen)).toEqual([]);
    // The turn's end holds late.txt: the hook's file counts as the turn's, and a rewind removes it.
    expect((await session.rewindPoints()).map((point) => point.changes.files)).toEqual([2]);
    expect((await session.rewindFiles(1)).files).toEqual({ restored: ["a.txt"], removed: ["late.txt"], kept: [] });
    expect(reports).toEqual([]);
    await session.close();
  }, 60_000);
});

describe("the snapshot before a prompt", () => {
  test("of a small project is read in-process while the first request is in flight, and no git runs in the turn", async () => {
    const dir = writeWorkspace({ "a.txt": "alpha\n" });
    const git = gitShim();
    const kept = (configDir: string) => [...new Bun.Glob("projects/*/checkpoints.git/kept/*.edits").scanSync({ cwd: configDir })];
    const { session, reports, configDir } = await open(dir, git, (config) => [
      async () => {
        // Were the snapshot to wait for this answer, it would never come (the wait fails the test).
        await waitFor(() => kept(config()).length > 0 || undefined, "the snapshot's files, read while the first request is out");
        return reply().toolUse("Read", { file_path: join(dir, "a.txt") });
      },
      reply().toolUse("Edit", { file_path: join(dir, "a.txt"), old_string: "alpha", new_string: "ALPHA" }),
      reply().text("Done."),
    ]);
    await session.runTurn("change a", quiet, new AbortController().signal);
    await waitFor(() => records(configDir).some((record) => record.after !== undefined) || undefined, "the end of the turn");
    expect(git.commands()).toEqual([]);
    // The rewind is the first to need the trees: git writes them then.
    expect((await session.rewindFiles(1)).files).toEqual({ restored: ["a.txt"], removed: [], kept: [] });
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("alpha\n");
    expect(git.commands()).toContain("done write-tree");
    expect(kept(configDir)).toEqual([]);
    expect(reports).toEqual([]);
    await session.close();
  }, 60_000);


  test("runs while the first request is in flight: the model's first answer is given once the snapshot has read the files", async () => {
    const dir = writeWorkspace({ "a.txt": "alpha\n", ".gitattributes": "" });
    const git = gitShim();
    const { session, reports } = await open(dir, git, () => [
      async () => {
        // Were the snapshot to wait for this answer, it would never come (the wait fails the test).
        await waitFor(() => git.commands().includes("done add"), "the snapshot's add while the first request is out");
        return reply().toolUse("Read", { file_path: join(dir, "a.txt") });
      },
      reply().toolUse("Edit", { file_path: join(dir, "a.txt"), old_string: "alpha", new_string: "ALPHA" }),
      reply().text("Done."),
    ]);
    await session.runTurn("change a", quiet, new AbortController().signal);
    expect((await session.rewindFiles(1)).files).toEqual({ restored: ["a.txt"], removed: [], kept: [] });
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("alpha\n");
    expect(reports).toEqual([]);
    await session.close();
  }, 60_000);
});
