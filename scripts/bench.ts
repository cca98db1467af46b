// `bun run bench`: clew's compiled binary and a minimal "floor" agent run the same scripted
// tasks against the in-repo fake API, side by side in one run; medians are printed with the
// clew/floor ratio, clew's targets and Claude Code's figures measured on this kind of machine.
import { statSync } from "node:fs";
import { join } from "node:path";
import { DONE, failingTestWorkspace, fixScript } from "../test/scenarios/workspaces.ts";
import { READ_GREP_ANSWER, readGrepScript, readGrepWorkspace } from "../test/scenarios/read-grep-task.ts";
import { median, measureRun, versionTimeMs, type RunMetrics } from "./bench/measure.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const root = join(import.meta.dir, "..");
const clewBin = join(root, "dist/clew");
const floorBin = join(root, "dist/bench-floor");

for (const [entry, outfile] of [["src/main.ts", clewBin], ["scripts/bench/floor-agent.ts", floorBin]] as const) {
  const built = await Bun.build({ entrypoints: [join(root, entry)], compile: { outfile }, minify: true, bytecode: true, format: "esm", splitting: true });
  if (!built.success) throw new Error(`build of ${entry} failed`);
}

const agents = {
  clew: (prompt: string) => [clewBin, "-p", prompt, "--permission-mode", "bypassPermissions"],
  floor: (prompt: string) => [floorBin, prompt],
};

const tasks = [
  { name: "fix-a-test (5 steps)", workspace: failingTestWorkspace, script: fixScript, answer: DONE },
  { name: "read/grep/edit (30 steps)", workspace: readGrepWorkspace, script: readGrepScript, answer: READ_GREP_ANSWER },
];

type Summary = Record<keyof Omit<RunMetrics, "ok" | "iterations">, number> & { failures: number };

function summarize(runs: RunMetrics[]): Summary {
  const pick = (key: keyof RunMetrics) => median(runs.map((run) => Number(run[key])));
  return {
    firstRequestMs: pick("firstRequestMs"),
    wallMs: pick("wallMs"),
    peakRssMiB: pick("peakRssMiB"),
    overheadPerIterationMs: pick("overheadPerIterationMs"),
    earlyGapMs: pick("earlyGapMs"),
    lateGapMs: pick("lateGapMs"),
    cacheReadRatio: pick("cacheReadRatio"),
    weightedInputTokens: pick("weightedInputTokens"),
    prefixTokens: pick("prefixTokens"),
    failures: runs.filter((run) => !run.ok).length,
  };
}

const fmt = (value: number, digits = 1) =>
  Number.isFinite(value) ? (Math.abs(value) < 1 && value !== 0 ? value.toFixed(3) : value.toFixed(digits)) : "n/a";
const rows: string[] = [];
for (const task of tasks) {
  const results: Record<string, RunMetrics[]> = { clew: [], floor: [] };
  // Interleave the agents so machine noise hits both alike.
  for (let i = 0; i < RUNS; i++) {
    for (const [name, command] of Object.entries(agents)) {
      const dir = task.workspace();
      results[name]?.push(await measureRun(command("fix the task"), dir, task.script(dir), task.answer));
    }
  }
  const clew = summarize(results.clew ?? []);
  const floor = summarize(results.floor ?? []);
  const line = (label: string, key: keyof Summary, target: string, anchor: string, unit: string) =>
    rows.push(`| ${task.name} | ${label} | ${fmt(clew[key])} ${unit} | ${fmt(floor[key])} ${unit} | ${fmt(clew[key] / floor[key], 2)}× | ${target} | ${anchor} |`);
  line("start → first request", "firstRequestMs", "≤ 100 ms", "1070 ms", "ms");
  line("wall time", "wallMs", "—", "—", "ms");
  line("peak RSS", "peakRssMiB", "≤ 60 MiB", "213 MiB", "MiB");
  line("overhead / iteration", "overheadPerIterationMs", "≤ 15 ms", "150 ms", "ms");
  line("client time / iteration, first 10", "earlyGapMs", "flat", "—", "ms");
  line("client time / iteration, last 10", "lateGapMs", "flat", "—", "ms");
  line("fixed prefix (tools + system)", "prefixTokens", "≤ 4000 tok", "9550 tok", "tok");
  line("cache-read share after request 1", "cacheReadRatio", "≥ 0.97", "0.956", "");
  line("cost-weighted input", "weightedInputTokens", "≤ 60k tok", "94k tok", "tok");
  if (clew.failures + floor.failures > 0) rows.push(`| ${task.name} | failed runs | ${clew.failures} | ${floor.failures} | | 0 | |`);
}

const size = (path: string) => statSync(path).size / 1e6;
const versionClew = await versionTimeMs([clewBin], 10);
const versionFloor = await versionTimeMs([floorBin], 10);
rows.push(`| all | binary size | ${fmt(size(clewBin))} MB | ${fmt(size(floorBin))} MB | ${fmt(size(clewBin) / size(floorBin), 2)}× | ≤ 120 MB | 373 MB |`);
rows.push(`| all | \`--version\` | ${fmt(versionClew)} ms | ${fmt(versionFloor)} ms | ${fmt(versionClew / versionFloor, 2)}× | — | — |`);

console.log(`clew benchmark — ${RUNS} runs per agent per task, medians (floor = minimal compiled Bun agent)\n`);
console.log("| task | metric | clew | floor | clew/floor | clew target | Claude Code 2.1.328 |");
console.log("|---|---|---|---|---|---|---|");
for (const row of rows) console.log(row);
