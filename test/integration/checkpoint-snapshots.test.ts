// Snapshots that name the changed paths to `git add` (instead of walking the tree twice) still see
// every change: names git would read as pathspec magic or globs, a touched but unchanged file, a
// file replaced by a folder, and a snapshot with nothing changed giving the same tree; the same
// as before a prompt (the index's tree written beside the listing); a turn's end that adds the
// files it named gives a whole snapshot's tree, and is declined where it cannot be trusted; another session's command
// holding the shared index's lock is waited for, and one left behind fails it with git's own words.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { EMPTY_TREE, ShadowRepo } from "../../src/store/checkpoints/shadow-repo.ts";
import { tempDirectory } from "../helpers/clew-process.ts";

function setup() {
  const root = tempDirectory("clew-snap-");
  const dir = join(root, "work");
  mkdirSync(dir);
  const gitDir = join(root, "shadow.git");
  const repo = new ShadowRepo({ workTree: dir, gitDir, path: process.env.PATH ?? "/usr/bin:/bin" });
  return { dir, gitDir, repo, write: (path: string, text: string) => writeFileSync(join(dir, path), text) };
}

describe("shadow repository snapshots", () => {
  test("odd names, a touched file, a file turned into a folder; nothing changed gives the same tree", async () => {
    const s = setup();
    s.write("plain.txt", "plain\n");
    s.write("touched.txt", "same\n");
    s.write("becomes-dir", "file\n");
    // Would match `star*.txt` read as a glob.
    s.write("starX.txt", "kept\n");
    const first = await s.repo.snapshot();
    expect(await s.repo.snapshot()).toEqual(first);

    for (const name of [":(top)magic.txt", "star*.txt", "[ab].txt", "with space.txt", "-dash.txt"]) s.write(name, `${name}\n`);
    const later = new Date(Date.now() + 5_000);
    utimesSync(join(s.dir, "touched.txt"), later, later);
    rmSync(join(s.dir, "becomes-dir"));
    mkdirSync(join(s.dir, "becomes-dir"));
    s.write("becomes-dir/inner.txt", "inner\n");
    const second = await s.repo.snapshot();
    expect((await s.repo.changes(first.tree, second.tree)).map((change) => `${change.status} ${change.path}`).sort()).toEqual([
      "A -dash.txt",
      "A :(top)magic.txt",
      "A [ab].txt",
      "A becomes-dir/inner.txt",
      "A star*.txt",
      "A with space.txt",
      "D becomes-dir",
    ]);
    expect(await s.repo.snapshot()).toEqual(second);

    await s.repo.restore(first.tree, (await s.repo.changes(first.tree, second.tree)).map((change) => change.path));
    expect(readFileSync(join(s.dir, "becomes-dir"), "utf8")).toBe("file\n");
    expect(readFileSync(join(s.dir, "starX.txt"), "utf8")).toBe("kept\n");
    expect((await s.repo.snapshot()).tree).toBe(first.tree);
  }, 30_000);

  test("as before a prompt: nothing changed gives the same tree, a change is still seen", async () => {
    const s = setup();
    s.write("a.txt", "alpha\n");
    const first = await s.repo.snapshot();
    expect(await s.repo.snapshot({ likelyUnchanged: true })).toEqual(first);
    s.write("a.txt", "alpha, changed\n");
    s.write("new.txt", "new\n");
    const second = await s.repo.snapshot({ likelyUnchanged: true });
    expect((await s.repo.changes(first.tree, second.tree)).map((change) => `${change.status} ${change.path}`).sort()).toEqual(["A new.txt", "M a.txt"]);
    expect(await s.repo.snapshot()).toEqual(second);
  }, 30_000);

  test("the files a turn named, added by name: the tree a whole snapshot gives; declined for a new file over the size limit, an ignored one, a path beyond a link, and before any snapshot", async () => {
    const root = tempDirectory("clew-snap-");
    const dir = join(root, "work");
    mkdirSync(dir);
    const repo = new ShadowRepo({ workTree: dir, gitDir: join(root, "shadow.git"), path: process.env.PATH ?? "/usr/bin:/bin", maxFileBytes: 100 });
    const write = (path: string, text: string) => writeFileSync(join(dir, path), text);
    write("a.txt", "alpha\n");
    write(".gitignore", "*.log\n");
    expect(await repo.snapshotFiles(["a.txt"], EMPTY_TREE)).toBeUndefined();
    const first = await repo.snapshot();
    write("a.txt", "alpha, changed\n");
    mkdirSync(join(dir, "sub"));
    write("sub/new.txt", "new\n");
    const named = await repo.snapshotFiles(["a.txt", "sub/new.txt"], first.tree);
    expect(named).toBe((await repo.snapshot()).tree);
    expect(await repo.changes(first.tree, named ?? "")).toEqual([
      { status: "M", path: "a.txt" },
      { status: "A", path: "sub/new.txt" },
    ]);

    write("big.txt", "x".repeat(101));
    expect(await repo.snapshotFiles(["big.txt"], named ?? "")).toBeUndefined();
    write("debug.log", "noise\n");
    expect(await repo.snapshotFiles(["debug.log"], named ?? "")).toBeUndefined();
    symlinkSync("sub", join(dir, "link"));
    expect(await repo.snapshotFiles(["link/new.txt"], named ?? "")).toBeUndefined();
    // A whole snapshot then leaves the big file out and names it; the ignored one is never tracked.
    expect((await repo.snapshot()).skipped).toEqual(["big.txt"]);
  }, 30_000);

  test("another session's command holding the shared index's lock is waited for; a lock left behind is named", async () => {
    const s = setup();
    s.write("a.txt", "alpha\n");
    const first = await s.repo.snapshot();
    s.write("a.txt", "alpha, changed\n");
    const lock = join(s.gitDir, "index.lock");
    writeFileSync(lock, "");
    setTimeout(() => rmSync(lock), 100);
    const second = await s.repo.snapshot();
    expect(await s.repo.changes(first.tree, second.tree)).toEqual([{ status: "M", path: "a.txt" }]);
    // A lock left behind (a git that crashed) fails the snapshot with git's own words, not its trace.
    writeFileSync(lock, "");
    s.write("a.txt", "alpha, again\n");
    const failed = await s.repo.snapshot().then(
      () => undefined,
      (error: unknown) => (error instanceof Error ? error.message.split("\n")[0] : String(error)),
    );
    expect(failed).toBe(`fatal: Unable to create '${lock}': File exists.`);
  }, 30_000);
});
