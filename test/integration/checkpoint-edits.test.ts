// Snapshots taken in-process, their trees written by git when needed (file-edits.ts), against
// real files and git. A small work tree is read whole with no git: the tree written for it later
// is the tree git's own snapshot gives of the same files — ignored files and folders left out,
// the executable bit, links, folders checkpointed elsewhere left out — and it is declined where
// git could store a file otherwise or no git is there to write it. A turn's end recorded as its
// files' contents runs no git either: its tree is the whole snapshot's at the turn's end, whatever
// changed since, over a tree, a kept index or an in-process snapshot alike. The same files twice
// are one name; a kept file removed by hand is a lost checkpoint, never a wrong one. What ended
// sessions left unwritten is written by a later session (a few at a time, never its own, never
// a recent one), and the ended session still rewinds from it.
import { describe, expect, test } from "bun:test";
import { appendFileSync, chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SessionCheckpoints } from "../../src/store/checkpoints/checkpoints.ts";
import { WorkTrees } from "../../src/store/checkpoints/work-trees.ts";
import { KeptIndexLost } from "../../src/store/checkpoints/kept-index.ts";
import { EMPTY_TREE, ShadowRepo } from "../../src/store/checkpoints/shadow-repo.ts";
import { gitShim } from "../helpers/checkpoint-git-shim.ts";
import { tempDirectory } from "../helpers/clew-process.ts";

function setup() {
  const root = tempDirectory("clew-edits-");
  const dir = join(root, "work");
  mkdirSync(join(dir, "sub"), { recursive: true });
  const gitDir = join(root, "shadow.git");
  const git = gitShim();
  const repo = new ShadowRepo({ workTree: dir, gitDir, path: git.path, maxFileBytes: 100 });
  const write = (path: string, text: string) => writeFileSync(join(dir, path), text);
  write("a.txt", "alpha\n");
  write("b.txt", "bravo\n");
  write(".gitignore", "*.log\nbuild/\n");
  return { root, dir, gitDir, git, repo, write };
}

/** The tree git's own snapshot gives of `dir` (another shadow repository, from nothing; not asked to keep, it never reads in-process). */
async function gitsTree(root: string, dir: string, exclude: string[] = []): Promise<string> {
  const repo = new ShadowRepo({ workTree: dir, gitDir: join(root, "by-git.git"), path: process.env.PATH ?? "/usr/bin:/bin", exclude });
  return (await repo.snapshot()).tree;
}

function shown(gitDir: string, tree: string): string {
  return Bun.spawnSync(["git", "--git-dir", gitDir, "ls-tree", "-r", tree]).stdout.toString();
}

describe("a small work tree read in-process", () => {
  test("runs no git; its tree, written later, is git's own snapshot of the same files", async () => {
    const s = setup();
    mkdirSync(join(s.dir, "build"));
    s.write("build/out.js", "built\n");
    s.write("debug.log", "noise\n");
    s.write("sub/run.sh", "#!/bin/sh\n");
    chmodSync(join(s.dir, "sub/run.sh"), 0o755);
    symlinkSync("a.txt", join(s.dir, "link"));
    mkdirSync(join(s.dir, ".git"));
    s.write(".git/HEAD", "the user's own\n");
    const { tree, skipped } = await s.repo.snapshot({ keep: true });
    expect([tree.startsWith("edits:"), skipped, s.git.commands()]).toEqual([true, [], []]);
    const expected = await gitsTree(s.root, s.dir);
    // Changed after it was read: not in it.
    s.write("a.txt", "alpha, later\n");
    s.write("late.txt", "late\n");
    const written = await s.repo.resolve(tree);
    expect(written).toBe(expected);
    expect(shown(s.gitDir, written).split("\n").map((line) => line.replace(/ [0-9a-f]{40}/, "")).filter(Boolean)).toEqual([
      "100644 blob\t.gitignore",
      "100644 blob\ta.txt",
      "100644 blob\tb.txt",
      "120000 blob\tlink",
      "100755 blob\tsub/run.sh",
    ]);
    expect(Bun.spawnSync(["git", "--git-dir", s.gitDir, "fsck", "--no-dangling"]).exitCode).toBe(0);
    // The same files twice are one name.
    s.write("a.txt", "alpha\n");
    rmSync(join(s.dir, "late.txt"));
    expect((await s.repo.snapshot({ keep: true })).tree).toBe(tree);
  }, 30_000);

  test("a folder checkpointed elsewhere is left out", async () => {
    const s = setup();
    mkdirSync(join(s.dir, "nested", "project"), { recursive: true });
    s.write("nested/project/p.txt", "theirs\n");
    s.write("nested/mine.txt", "mine\n");
    const repo = new ShadowRepo({ workTree: s.dir, gitDir: s.gitDir, path: s.git.path, exclude: ["nested/project"] });
    const { tree } = await repo.snapshot({ keep: true });
    expect(tree).toStartWith("edits:");
    expect(await repo.resolve(tree)).toBe(await gitsTree(s.root, s.dir, ["nested/project"]));
    expect(shown(s.gitDir, await repo.resolve(tree))).toContain("nested/mine.txt");
  }, 30_000);

  test("declined, git takes it: attributes, a nested repository, too many files or bytes, no git on PATH, not asked to keep, a shared index already there", async () => {
    const declined = async (change: (s: ReturnType<typeof setup>) => ShadowRepo | void, options: { keep?: boolean } = { keep: true }) => {
      const s = setup();
      const repo = change(s) ?? s.repo;
      return repo.snapshot(options).then(
        ({ tree }) => !tree.startsWith("edits:"),
        () => true,
      );
    };
    expect(await declined((s) => s.write("sub/.gitattributes", "* text\n"))).toBe(true);
    expect(
      await declined((s) => {
        mkdirSync(join(s.dir, "sub", "inner", ".git"), { recursive: true });
      }),
    ).toBe(true);
    expect(await declined((s) => new ShadowRepo({ workTree: s.dir, gitDir: s.gitDir, path: s.git.path, maxNewFiles: 3 }))).toBe(true);
    // Each file under the size limit, together over what is read in-process.
    expect(
      await declined((s) => {
        s.write("big.bin", "x".repeat(1_100_000));
        return new ShadowRepo({ workTree: s.dir, gitDir: s.gitDir, path: s.git.path });
      }),
    ).toBe(true);
    expect(await declined((s) => new ShadowRepo({ workTree: s.dir, gitDir: s.gitDir, path: tempDirectory("no-git-") }))).toBe(true);
    expect(await declined(() => undefined, {})).toBe(true);
    const s = setup();
    await s.repo.snapshot();
    expect((await s.repo.snapshot({ keep: true })).tree).toMatch(/^(index:|[0-9a-f]{40}$)/);
  }, 30_000);
});

describe("a turn's end recorded as its files' contents", () => {
  test("no git runs; its tree, written later, is the whole snapshot's at the turn's end — over a tree, a kept index and an in-process snapshot", async () => {
    const bases: Array<[string, (s: ReturnType<typeof setup>) => Promise<string>]> = [
      ["a tree", async (s) => (await s.repo.snapshot()).tree],
      ["an in-process snapshot", async (s) => (await s.repo.snapshot({ keep: true })).tree],
      [
        "a kept index",
        async (s) => {
          await s.repo.snapshot();
          s.write("b.txt", "bravo, again\n");
          return (await s.repo.snapshot({ keep: true })).tree;
        },
      ],
    ];
    for (const [kind, take] of bases) {
      const s = setup();
      const first = await take(s);
      expect([kind, first]).toEqual([kind, expect.stringMatching(kind === "a tree" ? /^[0-9a-f]{40}$/ : kind === "a kept index" ? /^index:/ : /^edits:/)]);
      // The turn: an edit, a new executable file, an ignored log.
      s.write("a.txt", "alpha, edited\n");
      s.write("sub/run.sh", "#!/bin/sh\necho run\n");
      chmodSync(join(s.dir, "sub/run.sh"), 0o755);
      s.write("debug.log", "noise\n");
      const ran = s.git.commands().length;
      const recorded = s.repo.recordFiles(["a.txt", "sub/run.sh", "debug.log"], first);
      expect([kind, recorded?.startsWith("edits:"), s.git.commands().slice(ran)]).toEqual([kind, true, []]);
      const whole = (await s.repo.snapshot()).tree;
      // The user, after the turn: not in the turn's end.
      appendFileSync(join(s.dir, "a.txt"), "by hand\n");
      const resolved = await s.repo.resolve(recorded ?? "");
      expect([kind, resolved]).toEqual([kind, whole]);
      expect(await s.repo.resolve(recorded ?? "")).toBe(whole);
      expect(await s.repo.changes(await s.repo.resolve(first), resolved)).toEqual([
        { status: "M", path: "a.txt" },
        { status: "A", path: "sub/run.sh" },
      ]);
      expect(Bun.spawnSync(["git", "--git-dir", s.gitDir, "fsck", "--no-dangling"]).exitCode).toBe(0);
      s.repo.release(recorded ?? "");
      s.repo.release(first);
      expect([kind, readdirSync(join(s.gitDir, "kept"))]).toEqual([kind, []]);
    }
  }, 30_000);

  test("a kept file removed by hand (or cut short) is lost, and so is what is kept over it", async () => {
    const s = setup();
    const first = (await s.repo.snapshot({ keep: true })).tree;
    s.write("a.txt", "alpha, edited\n");
    const recorded = s.repo.recordFiles(["a.txt"], first) ?? "";
    rmSync(join(s.gitDir, "kept", `${first.slice("edits:".length)}.edits`));
    expect(await s.repo.resolve(recorded).catch((error: unknown) => error)).toBeInstanceOf(KeptIndexLost);
    const again = (await s.repo.snapshot({ keep: true })).tree;
    writeFileSync(join(s.gitDir, "kept", `${again.slice("edits:".length)}.edits`), '{"base":"x","files":[{"path":"a.txt","mode":"100644","size":99}]}\n');
    expect(await s.repo.resolve(again).catch((error: unknown) => error)).toBeInstanceOf(KeptIndexLost);
  }, 30_000);

  test("declined (git adds the files then) for attributes, a file system without the executable bit, a nested repository, a big file, a folder, a missing file, no snapshot yet", async () => {
    const s = setup();
    expect(s.repo.recordFiles(["a.txt"], EMPTY_TREE)).toBeUndefined();
    const first = (await s.repo.snapshot()).tree;
    s.write("big.txt", "x".repeat(101));
    expect(s.repo.recordFiles(["big.txt"], first)).toBeUndefined();
    expect(s.repo.recordFiles(["sub"], first)).toBeUndefined();
    expect(s.repo.recordFiles(["gone.txt"], first)).toBeUndefined();
    expect(s.repo.recordFiles([], first)).toBeUndefined();
    mkdirSync(join(s.dir, "sub", "inner", ".git"), { recursive: true });
    s.write("sub/inner/x.txt", "x\n");
    expect(s.repo.recordFiles(["sub/inner/x.txt"], first)).toBeUndefined();
    s.write("sub/.gitattributes", "*.txt text eol=crlf\n");
    s.write("sub/c.txt", "charlie\n");
    expect(s.repo.recordFiles(["sub/c.txt"], first)).toBeUndefined();
    // Attributes elsewhere do not concern a.txt.
    expect(s.repo.recordFiles(["a.txt"], first)).toStartWith("edits:");
    writeFileSync(join(s.gitDir, "info", "attributes"), "* ident\n");
    expect(s.repo.recordFiles(["a.txt"], first)).toBeUndefined();
    writeFileSync(join(s.gitDir, "info", "attributes"), "");
    appendFileSync(join(s.gitDir, "config"), "[core]\n\tfilemode = false\n");
    expect(s.repo.recordFiles(["a.txt"], first)).toBeUndefined();
    expect(existsSync(join(s.gitDir, "kept"))).toBe(true);
  }, 30_000);
});

describe("kept contents an ended session left unwritten", () => {
  test("a later session writes their trees (a few at a time, never its own or recent ones); the ended session still rewinds from them", async () => {
    const s = setup();
    const sessionFile = (name: string) => join(s.root, "state", name, "checkpoints.json");
    const session = (name: string) => new SessionCheckpoints(new WorkTrees(() => s.repo), sessionFile(name));
    const ended = session("ended");
    await ended.beforePrompt(1);
    s.write("a.txt", "alpha, by the agent\n");
    await ended.afterTurn(1, { written: [join(s.dir, "a.txt")] });
    const keptNow = () => readdirSync(join(s.gitDir, "kept")).map((file) => file.replace(/^[0-9a-f]+/, "id")).sort();
    expect(keptNow()).toEqual(["id.edits", "id.edits"]);
    // A while ago.
    const old = new Date(Date.now() - 3_600_000);
    for (const file of readdirSync(join(s.gitDir, "kept"))) utimesSync(join(s.gitDir, "kept", file), old, old);

    const later = session("later");
    await later.beforePrompt(1);
    await later.writeLeftovers(0);
    expect(keptNow()).toEqual(["id.edits", "id.edits", "id.edits"]);
    await later.writeLeftovers(2);
    // The ended session's two are trees now, noted; the later session's own is kept as it was.
    expect(keptNow()).toEqual(["id.edits", "id.tree", "id.tree"]);
    // Its own stays kept however old: it is for this session's next prompt to write.
    for (const file of readdirSync(join(s.gitDir, "kept"))) utimesSync(join(s.gitDir, "kept", file), old, old);
    await later.writeLeftovers(5);
    expect(keptNow()).toEqual(["id.edits", "id.tree", "id.tree"]);
    const ids = (JSON.parse(readFileSync(sessionFile("ended"), "utf8")) as { checkpoints: Array<{ before: Record<string, string>; after: Record<string, string> }> }).checkpoints.flatMap((record) => [record.before["."], record.after["."]]);
    expect(ids.every((id) => existsSync(join(s.gitDir, "kept", `${id?.slice("edits:".length)}.tree`)))).toBe(true);

    const reopened = session("ended");
    expect((await reopened.turnChanges()).get(1)).toEqual({ files: 1, added: 1, removed: 1 });
    const plan = await reopened.rewind(1);
    expect(plan?.restore.map((change) => `${change.status} ${change.path}`)).toEqual(["M a.txt"]);
    expect(readFileSync(join(s.dir, "a.txt"), "utf8")).toBe("alpha\n");
  }, 30_000);
});
