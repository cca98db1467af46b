// Checkpoints of several working directories through the session's checkpoint port, against real
// git and real files: a folder added during the session is checkpointed from the next prompt; a
// folder inside the project is the project's; an added folder holding the project does not track
// the project's files (nor clew's state) a second time; a folder the agent deleted whole comes back; a folder too big
// to snapshot is named once and left out while the project's checkpoints go on.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sessionCheckpoints } from "../../src/app/checkpoints-setup.ts";
import { rewindFiles, rewindPoints } from "../../src/app/session-rewind.ts";
import { tempDirectory } from "../helpers/clew-process.ts";

const PATH = process.env.PATH ?? "/usr/bin:/bin";

function folders(files: Record<string, string>) {
  const root = tempDirectory("clew-ckpt-dirs-");
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return { root, projectDir: join(root, "project"), stateDir: join(tempDirectory("clew-ckpt-state-"), "state") };
}

function port(f: ReturnType<typeof folders>, dirs: () => readonly string[], report: (line: string) => void = () => {}) {
  const made = sessionCheckpoints({ enabled: true, projectDir: f.projectDir, stateDir: f.stateDir, sessionId: "s1", path: PATH, workingDirs: dirs, report });
  if (!made) throw new Error("checkpoints are on");
  return made;
}

const read = (path: string) => readFileSync(path, "utf8");

describe("checkpoints of every working directory", () => {
  test("a folder added during the session is checkpointed from the next prompt on; rewinding further back puts it back as it was then", async () => {
    const f = folders({ "project/a.txt": "a\n", "other/b.txt": "b\n" });
    const other = join(f.root, "other");
    let dirs: string[] = [];
    const checkpoints = port(f, () => dirs);
    expect(await checkpoints.startPrompt()).toBe(1);
    writeFileSync(join(f.projectDir, "a.txt"), "a, turn one\n");
    writeFileSync(join(other, "b.txt"), "b, before it was added\n");
    await checkpoints.afterTurn(1);
    dirs = [other];
    expect(await checkpoints.startPrompt()).toBe(2);
    writeFileSync(join(other, "b.txt"), "b, turn two\n");
    writeFileSync(join(other, "c.txt"), "c, turn two\n");
    await checkpoints.afterTurn(2);
    await checkpoints.settled();

    const loaded = await checkpoints.load();
    expect(loaded.list().map((record) => Object.keys(record.before))).toEqual([["."], [".", other]]);
    expect((await rewindPoints(loaded)).map((point) => [point.prompt, point.changes])).toEqual([
      [1, { files: 1, added: 1, removed: 1 }],
      [2, { files: 2, added: 2, removed: 1 }],
    ]);
    expect(await rewindFiles(loaded, 1, { dryRun: true })).toEqual({ restored: ["a.txt", join(other, "b.txt")], removed: [join(other, "c.txt")], kept: [] });
    await rewindFiles(loaded, 1);
    expect([read(join(f.projectDir, "a.txt")), read(join(other, "b.txt")), existsSync(join(other, "c.txt"))]).toEqual(["a\n", "b, before it was added\n", false]);
  }, 30_000);

  test("a folder inside the project is the project's; an added folder holding the project leaves the project's files to it", async () => {
    const made = folders({ "project/a.txt": "a\n", "project/sub/s.txt": "s\n", "outer.txt": "outer\n" });
    // clew's own state inside the added folder is not part of its checkpoints either.
    const f = { ...made, stateDir: join(made.root, "home", ".clew", "projects", "p") };
    const checkpoints = port(f, () => [join(f.projectDir, "sub"), f.root]);
    await checkpoints.startPrompt();
    writeFileSync(join(f.projectDir, "sub", "s.txt"), "s, changed\n");
    writeFileSync(join(f.projectDir, "a.txt"), "a, changed\n");
    writeFileSync(join(f.root, "outer.txt"), "outer, changed\n");
    await checkpoints.afterTurn(1);
    const loaded = await checkpoints.load();
    expect(Object.keys(loaded.list()[0]?.before ?? {})).toEqual([".", f.root]);
    // Each file once, under the folder whose checkpoints hold it.
    expect(await rewindFiles(loaded, 1)).toEqual({ restored: ["a.txt", "sub/s.txt", join(f.root, "outer.txt")], removed: [], kept: [] });
    expect([read(join(f.projectDir, "a.txt")), read(join(f.projectDir, "sub", "s.txt")), read(join(f.root, "outer.txt"))]).toEqual(["a\n", "s\n", "outer\n"]);
    expect(readdirSync(join(f.stateDir, "checkpoints"))).toEqual([expect.stringMatching(/^clew-ckpt-dirs-\w+-[0-9a-f]{16}\.git$/)]);
  }, 30_000);

  test("an added folder the agent deleted whole comes back with its files", async () => {
    const f = folders({ "project/a.txt": "a\n", "other/deep/b.txt": "b\n", "other/c.txt": "c\n" });
    const other = join(f.root, "other");
    const checkpoints = port(f, () => [other]);
    await checkpoints.startPrompt();
    rmSync(other, { recursive: true });
    await checkpoints.afterTurn(1);
    const loaded = await checkpoints.load();
    expect(await rewindFiles(loaded, 1)).toEqual({ restored: [join(other, "c.txt"), join(other, "deep/b.txt")], removed: [], kept: [] });
    expect([read(join(other, "deep", "b.txt")), read(join(other, "c.txt"))]).toEqual(["b\n", "c\n"]);
  }, 30_000);

  test("an added folder that cannot be snapshot is named once and left out; the project's checkpoints go on", async () => {
    const files: Record<string, string> = { "project/a.txt": "a\n" };
    for (let i = 0; i < 30; i++) files[`huge/f${i}.txt`] = `${i}\n`;
    const f = folders(files);
    const huge = join(f.root, "huge");
    const lines: string[] = [];
    // The limit is 100,000 new files by default; made small here (the project holds 1).
    const made = sessionCheckpoints({ enabled: true, projectDir: f.projectDir, stateDir: f.stateDir, sessionId: "s1", path: PATH, limits: { maxNewFiles: 10 }, workingDirs: () => [huge], report: (line) => lines.push(line) });
    await made?.startPrompt();
    writeFileSync(join(f.projectDir, "a.txt"), "a, changed\n");
    await made?.afterTurn(1);
    await made?.startPrompt();
    await made?.settled();
    expect(lines).toEqual([`clew: ${huge} is not checkpointed in this session: ${huge} holds 30 files not yet checkpointed (more than 10); list the bulky folders in .gitignore, or set fileCheckpointingEnabled: false (rewind will not restore its files).`]);
    expect(made?.failure).toBeUndefined();
    const loaded = await made?.load();
    expect(loaded?.list().map((record) => Object.keys(record.before))).toEqual([["."], ["."]]);
    expect(loaded && (await rewindFiles(loaded, 1))).toEqual({ restored: ["a.txt"], removed: [], kept: [] });
  }, 30_000);
});
