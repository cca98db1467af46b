// Checkpoints in a shadow git repository against real git and real files: every kind of change
// (edit, delete, create, move, mode) made between two checkpoints is put back by a rewind, the
// user's own .git is untouched, .gitignore'd files are left alone, and a file changed by hand
// between turns is kept and reported rather than overwritten. Trees kept as indexes are written
// when needed (in another process too), leave nothing behind, and a copy lost loses no file.
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
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

describe("trees kept as indexes", () => {
  /** A project git snapshots (a small tree with no attributes is read in-process instead, see checkpoint-edits.test.ts). */
  const gitProject = () => {
    const s = project();
    writeFileSync(join(s.dir, ".gitattributes"), "");
    return s;
  };
  const keptDir = (s: ReturnType<typeof project>) => join(s.root, "state", "checkpoints", "p1", "kept");
  const keptFiles = (s: ReturnType<typeof project>) => (existsSync(keptDir(s)) ? readdirSync(keptDir(s)).sort() : []);
  /** The file a kept tree's name points at: `index:<id>` a copy of the index. */
  const keptFile = (s: ReturnType<typeof project>, tree: string) => join(keptDir(s), tree.replace(/^index:(.*)$/, "$1.index"));

  test("a snapshot that had to add files keeps the index instead of writing its tree; a rewind writes the trees it needs and puts the files back; nothing is left of the copies", async () => {
    const s = gitProject();
    const { record } = await s.checkpoints.beforePrompt(1);
    expect(record.before["."]).toStartWith("index:");
    writeFileSync(join(s.dir, "a.txt"), "alpha, edited\n");
    writeFileSync(join(s.dir, "new.txt"), "new\n");
    await s.checkpoints.afterTurn(1, { written: [join(s.dir, "a.txt"), join(s.dir, "new.txt")] });
    expect(s.checkpoints.list()[0]?.after?.["."]).toStartWith("index:");
    expect(keptFiles(s).map((file) => file.replace(/^[0-9a-f]+/, "id"))).toEqual(["id.index", "id.index"]);
    // The user, after the turn.
    writeFileSync(join(s.dir, "g.txt"), "golf, by hand\n");

    // Another process reading the session's records (a `--rewind-to`) writes the trees there and then.
    const reader = new SessionCheckpoints(new WorkTrees(() => s.repo), join(s.root, "state", "session", "checkpoints.json"));
    expect((await reader.turnChanges()).get(1)).toEqual({ files: 2, added: 2, removed: 1 });
    expect(reader.list().flatMap((item) => [item.before["."], item.after?.["."]]).every((tree) => /^[0-9a-f]{40}$/.test(tree ?? ""))).toBe(true);
    expect(keptFiles(s)).toEqual([]);
    const plan = await reader.rewind(1);
    expect([plan?.restore.map((change) => `${change.status} ${change.path}`), plan?.kept]).toEqual([["M a.txt", "A new.txt"], ["g.txt"]]);
    expect([s.read("a.txt"), existsSync(join(s.dir, "new.txt")), s.read("g.txt")]).toEqual(["alpha\n", false, "golf, by hand\n"]);
  }, 30_000);

  test("the records of a session's earlier prompts have their trees written when asked (the next prompt does), the current one's kept; a dropped prompt takes its copy with it", async () => {
    const s = gitProject();
    await s.checkpoints.beforePrompt(1);
    writeFileSync(join(s.dir, "a.txt"), "turn one\n");
    await s.checkpoints.afterTurn(1, { written: [join(s.dir, "a.txt")] });
    writeFileSync(join(s.dir, "a.txt"), "by hand\n");
    await s.checkpoints.beforePrompt(2);
    await s.checkpoints.resolveKept(2);
    const [first, second] = s.checkpoints.list();
    expect([first?.before["."], first?.after?.["."]].every((tree) => /^[0-9a-f]{40}$/.test(tree ?? ""))).toBe(true);
    expect(second?.before["."]).toStartWith("index:");
    expect(keptFiles(s)).toHaveLength(1);
    s.checkpoints.discard(2);
    expect(keptFiles(s)).toEqual([]);
  }, 30_000);

  test("a copy removed by hand: a lost end counts the turn as having changed nothing, so a rewind keeps its changes; a lost start drops that checkpoint", async () => {
    const s = gitProject();
    await s.checkpoints.beforePrompt(1);
    const before = s.checkpoints.list()[0]?.before["."] ?? "";
    writeFileSync(join(s.dir, "a.txt"), "turn one\n");
    await s.checkpoints.afterTurn(1, { written: [join(s.dir, "a.txt")] });
    const after = s.checkpoints.list()[0]?.after?.["."] ?? "";
    rmSync(keptFile(s, after));
    const plan = await s.checkpoints.plan(1);
    expect([plan?.restore, plan?.kept]).toEqual([[], ["a.txt"]]);
    expect(s.checkpoints.list()[0]?.after).toEqual({ ".": s.checkpoints.list()[0]?.before["."] ?? "" });
    expect(before).toStartWith("index:");

    writeFileSync(join(s.dir, "g.txt"), "golf, by hand\n");
    await s.checkpoints.beforePrompt(2);
    const second = s.checkpoints.list()[1]?.before["."] ?? "";
    expect(second).toStartWith("index:");
    rmSync(keptFile(s, second));
    await s.checkpoints.resolveKept();
    expect(s.checkpoints.list().map((record) => record.prompt)).toEqual([1]);
  }, 30_000);

  test("an index over the limit has its tree written at once", async () => {
    const s = gitProject();
    const repo = new ShadowRepo({ workTree: s.dir, gitDir: join(s.root, "state", "checkpoints", "p3"), path: process.env.PATH ?? "/usr/bin:/bin", maxKeptIndexBytes: 100 });
    expect((await repo.snapshot({ keep: true })).tree).toMatch(/^[0-9a-f]{40}$/);
    expect(existsSync(join(s.root, "state", "checkpoints", "p3", "kept"))).toBe(false);
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
