// Benchmark rows for checkpoints (issue #14): a snapshot of a 10,000-file repository before a
// prompt when nothing changed (target ≤ 50 ms), and after one file changed — the shadow
// repository's own git, through the same code a session uses — and a session's checkpoint of the
// project with an added working directory of as many files. Medians of interleaved runs.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sessionCheckpoints } from "../../src/app/checkpoints-setup.ts";
import { ShadowRepo } from "../../src/store/checkpoints/shadow-repo.ts";
import { tempDirectory } from "../../test/helpers/clew-process.ts";
import { median } from "./measure.ts";

const FILES = 10_000;
const TARGET_MS = 50;

function writeTree(work: string): void {
  for (let i = 0; i < FILES; i++) {
    const dir = join(work, `pkg${i % 50}`, `mod${i % 7}`);
    if (i < 350) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `file${i}.ts`), `export const value${i} = ${i};\n`);
  }
}

/** A session's checkpoint before each prompt (snapshot + record, then the turn's end), nothing changed: its medians. */
async function sessionRuns(projectDir: string, stateDir: string, workingDirs: readonly string[], runs: number): Promise<number> {
  const port = sessionCheckpoints({ enabled: true, projectDir, stateDir, sessionId: "bench", path: process.env.PATH ?? "/usr/bin:/bin", workingDirs: () => workingDirs, report: () => {} });
  const times: number[] = [];
  await port?.startPrompt();
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const prompt = await port?.startPrompt();
    // The record is written with the prompt's description.
    if (prompt !== undefined) await port?.describe(prompt, { text: "bench" });
    times.push(performance.now() - started);
    if (prompt !== undefined) await port?.afterTurn(prompt);
  }
  return median(times);
}

/**
 * A first session's prompt in a small project (40 files; no shared index yet): its checkpoint
 * before the prompt and the end of a turn that edited two files, each in a fresh state folder —
 * read in-process, no git (the trees are written when something needs them). Medians.
 */
async function smallProjectRuns(root: string, runs: number): Promise<{ before: number; end: number }> {
  const project = join(root, "small");
  for (let i = 0; i < 40; i++) {
    mkdirSync(join(project, `src${i % 4}`), { recursive: true });
    writeFileSync(join(project, `src${i % 4}`, `m${i}.ts`), `export const value${i} = ${i};\n`.repeat(20));
  }
  const before: number[] = [];
  const end: number[] = [];
  for (let i = 0; i < runs; i++) {
    const port = sessionCheckpoints({ enabled: true, projectDir: project, stateDir: join(root, `small-state-${i}`), sessionId: "bench", path: process.env.PATH ?? "/usr/bin:/bin", report: () => {} });
    let started = performance.now();
    const prompt = await port?.startPrompt();
    if (prompt !== undefined) await port?.describe(prompt, { text: "bench" });
    before.push(performance.now() - started);
    const written = [join(project, "src0", "m0.ts"), join(project, "src1", "m1.ts")];
    for (const file of written) writeFileSync(file, `export const edited = ${i};\n`);
    started = performance.now();
    if (prompt !== undefined) await port?.afterTurn(prompt, { wrote: true, lingers: false, written });
    end.push(performance.now() - started);
  }
  return { before: median(before), end: median(end) };
}

export async function checkpointsBench(runs: number): Promise<{ lines: string[] }> {
  const root = tempDirectory("clew-bench-ckpt-");
  const work = join(root, "project");
  const added = join(root, "added");
  writeTree(work);
  writeTree(added);
  const repo = new ShadowRepo({ workTree: work, gitDir: join(root, "shadow"), path: process.env.PATH ?? "/usr/bin:/bin" });
  const firstStarted = performance.now();
  await repo.snapshot();
  const firstMs = performance.now() - firstStarted;
  const unchanged: number[] = [];
  const oneChanged: number[] = [];
  const afterTurn: number[] = [];
  for (let i = 0; i < Math.max(runs, 5); i++) {
    // As before a prompt: nothing is expected to have changed since the previous turn's end.
    let started = performance.now();
    await repo.snapshot({ likelyUnchanged: true });
    unchanged.push(performance.now() - started);
    writeFileSync(join(work, "pkg1", "mod1", "file1.ts"), `export const value1 = ${i};\n`);
    started = performance.now();
    await repo.snapshot({ likelyUnchanged: true });
    oneChanged.push(performance.now() - started);
    // As at the end of a turn that edited a file.
    writeFileSync(join(work, "pkg1", "mod1", "file1.ts"), `export const value1 = ${i + 0.5};\n`);
    started = performance.now();
    await repo.snapshot();
    afterTurn.push(performance.now() - started);
  }
  // A session's own path: the prompt's number, the snapshot and the record written, then the turn's end.
  const session = await sessionRuns(work, join(root, "state"), [], Math.max(runs, 5));
  const withAdded = await sessionRuns(work, join(root, "state"), [added], Math.max(runs, 5));
  const small = await smallProjectRuns(root, Math.max(runs, 5));
  rmSync(root, { recursive: true, force: true });
  const quiet = median(unchanged);
  return {
    lines: [
      `\nCheckpoints (issue #14; a ${FILES.toLocaleString("en")}-file repository, ${Math.max(runs, 5)} runs, medians):\n`,
      "| metric | measured | target | verdict |",
      "|---|---|---|---|",
      `| snapshot before a prompt, nothing changed | ${quiet.toFixed(1)} ms | ≤ ${TARGET_MS} ms | ${quiet <= TARGET_MS ? "pass" : "**FAIL**"} |`,
      `| snapshot before a prompt, one file changed | ${median(oneChanged).toFixed(1)} ms | — | |`,
      `| snapshot at the end of a turn that edited one file | ${median(afterTurn).toFixed(1)} ms | — | |`,
      `| a session's checkpoint before a prompt (snapshot + record), nothing changed | ${session.toFixed(1)} ms | — | |`,
      `| the same with an --add-dir folder of ${FILES.toLocaleString("en")} files (both snapshot side by side) | ${withAdded.toFixed(1)} ms | ≤ ${TARGET_MS} ms | ${withAdded <= TARGET_MS ? "pass" : "**FAIL**"} |`,
      `| first snapshot of the repository (once per project) | ${firstMs.toFixed(0)} ms | — | |`,
      `| a first session's checkpoint before a prompt in a 40-file project (read in-process, + record) | ${small.before.toFixed(1)} ms | — | |`,
      `| the end of its turn that edited two files (in-process, + record) | ${small.end.toFixed(1)} ms | — | |`,
    ],
  };
}

if (import.meta.main) for (const line of (await checkpointsBench(Number(process.env.BENCH_RUNS ?? 5))).lines) console.log(line);
