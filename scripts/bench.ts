// `bun run bench`: clew's compiled binary and a minimal "floor" agent run the same scripted tasks
// against the in-repo fake API, side by side in one run, plus clew in the same workspace with
// extensions installed (skills, agents, commands, hooks the task never uses). Medians are printed
// with the clew/floor ratio, each target and whether it is met, and the cost of the extensions.
// BENCH_OUT (default dist/) is where the two binaries are built, so parallel work never shares one.
import { statSync } from "node:fs";
import { join } from "node:path";
import { DONE, failingTestWorkspace, fixScript } from "../test/scenarios/workspaces.ts";
import { READ_GREP_ANSWER, readGrepScript, readGrepWorkspace } from "../test/scenarios/read-grep-task.ts";
import { EXTENSION_COUNTS, installExtensions } from "./bench/extensions-workspace.ts";
import { measureRun, versionTimeMs, type RunMetrics } from "./bench/measure.ts";
import { binaryRows, HEADER, summarize, taskRows } from "./bench/report.ts";
import { startupGraph } from "./bench/startup-graph.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const root = join(import.meta.dir, "..");
const outDir = process.env.BENCH_OUT ?? join(root, "dist");
const clewBin = join(outDir, "clew");
const floorBin = join(outDir, "bench-floor");

const build = Bun.spawnSync(["bun", join(root, "scripts/build.ts"), clewBin], { cwd: root, stdout: "inherit", stderr: "inherit" });
if (build.exitCode !== 0) throw new Error("build of clew failed");
const floorBuild = await Bun.build({
  entrypoints: [join(root, "scripts/bench/floor-agent.ts")],
  compile: { outfile: floorBin },
  minify: true,
  bytecode: true,
  format: "esm",
  splitting: true,
});
if (!floorBuild.success) throw new Error("build of the floor agent failed");

type Variant = "clew" | "floor" | "extended";
const commands: Record<Variant, (prompt: string) => string[]> = {
  clew: (prompt) => [clewBin, "-p", prompt, "--permission-mode", "bypassPermissions"],
  floor: (prompt) => [floorBin, prompt],
  extended: (prompt) => [clewBin, "-p", prompt, "--permission-mode", "bypassPermissions"],
};

const tasks = [
  { name: "fix-a-test (5 steps)", workspace: failingTestWorkspace, script: fixScript, answer: DONE },
  { name: "read/grep/edit (30 steps)", workspace: readGrepWorkspace, script: readGrepScript, answer: READ_GREP_ANSWER },
];

const rows: string[] = [];
for (const task of tasks) {
  const results: Record<Variant, RunMetrics[]> = { clew: [], floor: [], extended: [] };
  // Interleave the variants so machine noise hits all of them alike.
  for (let i = 0; i < RUNS; i++) {
    for (const variant of Object.keys(commands) as Variant[]) {
      const dir = variant === "extended" ? installExtensions(task.workspace()) : task.workspace();
      results[variant].push(await measureRun(commands[variant]("fix the task"), dir, task.script(dir), task.answer));
    }
  }
  rows.push(...taskRows(task.name, summarize(results.clew), summarize(results.floor), summarize(results.extended)));
}

const megabytes = (path: string) => statSync(path).size / 1e6;
const versionClew = await versionTimeMs([clewBin], 10);
const versionFloor = await versionTimeMs([floorBin], 10);
rows.push(...binaryRows(`${process.platform}-${process.arch}`, megabytes(clewBin), megabytes(floorBin), versionClew, versionFloor));

const { skills, agents, commands: slashCommands, hooks } = EXTENSION_COUNTS;
console.log(`clew benchmark — ${RUNS} runs per variant per task, medians. floor = minimal compiled Bun agent;`);
console.log(`"+ extensions" = clew in the same workspace with ${skills} skills, ${agents} agents, ${slashCommands} commands and ${hooks} hooks installed, unused by the task.\n`);
for (const line of [...HEADER, ...rows]) console.log(line);

const graph = await startupGraph(root);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
console.log(`\nCode \`clew -p\` loads before its first request (minified, static imports from cli/print.ts): ${kb(graph.bytes)}; largest: ${graph.largest.map((part) => `${part.name} ${kb(part.bytes)}`).join(", ")}.`);
