// Checkpoints in a shadow git repository against real git and real files: every kind of change
// (edit, delete, create, move, mode) made between two checkpoints is put back by a rewind, the
// user's own .git is untouched, .gitignore'd files are left alone, and a file changed by hand
// between turns is kept and reported rather than overwritten.
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SessionCheckpoints } from "../../src/store/checkpoints/checkpoints.ts";
import { ShadowRepo } from "../../src/store/checkpoints/shadow-repo.ts";
import { WorkTrees } from "../../src/store/checkpoints/work-trees.ts";
import { tempDirectory } from "../helpers/clew-process.ts";
import { gitOutput, treeDigest } from "../helpers/tree-digest.ts";

function project() {
  const root = tempDirectory("clew-ckpt-");
  const dir = join(root, "project");
  mkdirSync(join(dir, "node_modules"), { recursive: true });
  const files: Record<string, string> = { "a.txt": "alpha\n", "b.txt": "bravo\n", "d.txt": "delta\n", "run.sh": "echo run\n", "g.txt": "golf\n", ".gitignore": "node_modules/\n", "node_modules/dep.js": "dep\n" };
  for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text);
  chmodSync(join(dir, "b.txt"), 0o600);
  gitOutput(dir, "init", "-q");
  gitOutput(dir, "add", ".");
  gitOutput(dir, "commit", "-qm", "init");
  const repo = new ShadowRepo({ workTree: dir, gitDir: join(root, "state", "checkpoints", "p1"), path: process.env.PATH ?? "/usr/bin:/bin", maxFileBytes: 4096 });
  const checkpoints = new SessionCheckpoints(new WorkTrees(() => repo), join(root, "state", "session", "checkpoints.json"));
  return { root, dir, repo, checkpoints, read: (path: string) => readFileSync(join(dir, path), "utf8") };
}

describe("checkpoints and rewind", () => {
  test("edit, delete, create, move and chmod between checkpoints are all put back; .git untouched; ignored files left alone", async () => {
    const s = project();
    const gitBefore = treeDigest(join(s.dir, ".git"));
    await s.checkpoints.beforePrompt(1);
    // The agent's turn: through any tool at all.
    writeFileSync(join(s.dir, "a.txt"), "alpha, edited\n");
    rmSync(join(s.dir, "b.txt"));
    mkdirSync(join(s.dir, "gen", "deep"), { recursive: true });
    writeFileSync(join(s.dir, "gen", "deep", "c.txt"), "created\n");
    mkdirSync(join(s.dir, "moved"));
    renameSync(join(s.dir, "d.txt"), join(s.dir, "moved", "d.txt"));
    chmodSync(join(s.dir, "run.sh"), 0o755);
    writeFileSync(join(s.dir, "node_modules", "dep.js"), "dep, rebuilt\n");
    await s.checkpoints.afterTurn(1);

    const plan = await s.checkpoints.plan(1);
    expect(plan?.restore.map((change) => `${change.status} ${change.path}`).sort()).toEqual(["A gen/deep/c.txt", "A moved/d.txt", "D b.txt", "D d.txt", "M a.txt", "M run.sh"]);
    expect(plan?.kept).toEqual([]);

    await s.checkpoints.rewind(1);
    expect(s.read("a.txt")).toBe("alpha\n");
    expect(s.read("b.txt")).toBe("bravo\n");
    expect(s.read("d.txt")).toBe("delta\n");
    expect(existsSync(join(s.dir, "gen"))).toBe(false);
    expect(existsSync(join(s.dir, "moved"))).toBe(false);
    expect(statSync(join(s.dir, "run.sh")).mode & 0o111).toBe(0);
    // Ignored files are not the checkpoints' business.
    expect(s.read("node_modules/dep.js")).toBe("dep, rebuilt\n");
    expect(treeDigest(join(s.dir, ".git"))).toEqual(gitBefore);
    expect(gitOutput(s.dir, "status", "--porcelain")).toBe("");
    expect(s.checkpoints.list()).toEqual([]);
  }, 30_000);

  test("a file changed by hand between turns is kept and reported; the agent's changes around it are put back", async () => {
    const s = project();
    await s.checkpoints.beforePrompt(1);
    writeFileSync(join(s.dir, "a.txt"), "turn one\n");
    await s.checkpoints.afterTurn(1);
    // The user, between the turns.
    writeFileSync(join(s.dir, "g.txt"), "golf, by hand\n");
    await s.checkpoints.beforePrompt(2);
    writeFileSync(join(s.dir, "a.txt"), "turn two\n");
    writeFileSync(join(s.dir, "new.txt"), "from turn two\n");
    await s.checkpoints.afterTurn(2);

    const plan = await s.checkpoints.rewind(1);
    expect(plan?.kept).toEqual(["g.txt"]);
    expect(s.read("g.txt")).toBe("golf, by hand\n");
    expect(s.read("a.txt")).toBe("alpha\n");
    expect(existsSync(join(s.dir, "new.txt"))).toBe(false);
  }, 30_000);

  test("rewinding to the second prompt keeps the first turn's work; a turn that never ended counts as the agent's", async () => {
    const s = project();
    await s.checkpoints.beforePrompt(1);
    writeFileSync(join(s.dir, "a.txt"), "turn one\n");
    await s.checkpoints.afterTurn(1);
    await s.checkpoints.beforePrompt(2);
    writeFileSync(join(s.dir, "a.txt"), "turn two, interrupted\n");
    // No afterTurn(2): the process was killed mid-turn.
    await s.checkpoints.rewind(2);
    expect(s.read("a.txt")).toBe("turn one\n");
    expect(s.checkpoints.list().map((record) => record.prompt)).toEqual([1]);
  }, 30_000);

  test("a new file over the size limit is left out of the snapshot and named", async () => {
    const s = project();
    writeFileSync(join(s.dir, "big.bin"), Buffer.alloc(10_000, 7));
    const { record } = await s.checkpoints.beforePrompt(1);
    expect(record.skipped).toEqual(["big.bin"]);
    // Checkpoints are recorded across restarts of the session.
    expect(new SessionCheckpoints(new WorkTrees(() => s.repo), join(s.root, "state", "session", "checkpoints.json")).list()).toEqual([record]);
  }, 30_000);
});

describe("checkpoints of a folder too big to snapshot", () => {
  test("more new files than the limit is refused with the count and what to do, and nothing is snapshot", async () => {
    const s = project();
    for (let i = 0; i < 12; i++) writeFileSync(join(s.dir, `extra${i}.txt`), `${i}\n`);
    const repo = new ShadowRepo({ workTree: s.dir, gitDir: join(s.root, "state", "checkpoints", "p2"), path: process.env.PATH ?? "/usr/bin:/bin", maxNewFiles: 10 });
    await expect(repo.snapshot()).rejects.toThrow(`${s.dir} holds 18 files not yet checkpointed (more than 10); list the bulky folders in .gitignore, or set fileCheckpointingEnabled: false`);
  }, 30_000);
});
