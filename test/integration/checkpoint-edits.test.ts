// A turn's end recorded in-process as its files' contents over the prompt's tree (ShadowRepo.recordFiles),
// against real files and git: no git runs when it is recorded; the tree written for it later is
// the tree a whole snapshot gave at the turn's end — content as it was then, whatever changed
// since, the executable bit, a new file, an ignored file left out — over a tree or a kept index
// alike, and git reads the blobs written for it as its own; it is declined where git could store a file otherwise
// (attributes, a file system without the executable bit) or cannot take it by name (big, not a file).
import { describe, expect, test } from "bun:test";
import { appendFileSync, chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
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
  write(".gitignore", "*.log\n");
  return { dir, gitDir, git, repo, write };
}

/** What git says a tree holds: mode, type, id and path of every entry. */
async function entries(gitDir: string, tree: string): Promise<string> {
  const out = Bun.spawnSync(["git", "--git-dir", gitDir, "ls-tree", "-r", tree]);
  return out.stdout.toString();
}

describe("a turn's end recorded as its files' contents", () => {
  test("no git runs; its tree, written later, is the whole snapshot's at the turn's end — over a tree and over a kept index", async () => {
    for (const keep of [false, true]) {
      const s = setup();
      const first = await s.repo.snapshot({ keep });
      expect(first.tree).toMatch(keep ? /^index:/ : /^[0-9a-f]{40}$/);
      // The turn: an edit, a new executable file, an ignored log.
      s.write("a.txt", "alpha, edited\n");
      s.write("sub/run.sh", "#!/bin/sh\necho run\n");
      chmodSync(join(s.dir, "sub/run.sh"), 0o755);
      s.write("debug.log", "noise\n");
      const ran = s.git.commands().length;
      const recorded = s.repo.recordFiles(["a.txt", "sub/run.sh", "debug.log"], first.tree);
      expect([recorded?.startsWith("edits:"), s.git.commands().slice(ran)]).toEqual([true, []]);
      const whole = (await s.repo.snapshot()).tree;
      // The user, after the turn: not in the turn's end.
      appendFileSync(join(s.dir, "a.txt"), "by hand\n");
      const resolved = await s.repo.resolve(recorded ?? "");
      expect(resolved).toBe(whole);
      expect(await entries(s.gitDir, resolved)).toContain(`100755 blob`);
      expect(await s.repo.resolve(recorded ?? "")).toBe(whole);
      expect(await s.repo.changes(first.tree.startsWith("index:") ? await s.repo.resolve(first.tree) : first.tree, resolved)).toEqual([
        { status: "M", path: "a.txt" },
        { status: "A", path: "sub/run.sh" },
      ]);
      // git reads the blobs written in-process as its own.
      expect(Bun.spawnSync(["git", "--git-dir", s.gitDir, "fsck", "--no-dangling"]).exitCode).toBe(0);
      s.repo.release(recorded ?? "");
      s.repo.release(first.tree);
      expect(readdirSync(join(s.gitDir, "kept"), { withFileTypes: true }).length).toBe(0);
    }
  }, 30_000);

  test("declined (git adds the files then) for attributes, a file system without the executable bit, a big file, a folder, a missing file, no snapshot yet", async () => {
    const s = setup();
    expect(s.repo.recordFiles(["a.txt"], EMPTY_TREE)).toBeUndefined();
    const first = (await s.repo.snapshot()).tree;
    s.write("big.txt", "x".repeat(101));
    expect(s.repo.recordFiles(["big.txt"], first)).toBeUndefined();
    expect(s.repo.recordFiles(["sub"], first)).toBeUndefined();
    expect(s.repo.recordFiles(["gone.txt"], first)).toBeUndefined();
    expect(s.repo.recordFiles([], first)).toBeUndefined();
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
