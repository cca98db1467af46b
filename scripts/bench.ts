// `bun run bench`: clew's compiled binary and a minimal "floor" agent run the same scripted tasks
// against the in-repo fake API, side by side in one run, plus clew in the same workspace with
// extensions installed (skills, agents, commands, hooks the task never uses). Medians are printed
// with the clew/floor ratio, each target and whether it is met, and the cost of the extensions.
// BENCH_OUT (default dist/) is where the two binaries are built, so parallel work never shares one.
import { mkdirSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DONE, failingTestWorkspace, fixScript } from "../test/scenarios/workspaces.ts";
import { READ_GREP_ANSWER, readGrepScript, readGrepWorkspace } from "../test/scenarios/read-grep-task.ts";
import { EXTENSION_COUNTS, installExtensions } from "./bench/extensions-workspace.ts";
import { tempDirectory } from "../test/helpers/clew-process.ts";
import { measureRun, versionTimeMs, warmUp, type RunMetrics } from "./bench/measure.ts";
import { binaryRows, coldRows, COLD_HEADER, HEADER, summarize, taskRows } from "./bench/report.ts";
import { startupGraph } from "./bench/startup-graph.ts";
import { mcpBench } from "./bench/mcp.ts";
import { checkpointsBench } from "./bench/checkpoints.ts";
import { pluginsBench } from "./bench/plugins.ts";
import { converterRows, lazyLoadingRows, sessionRows, webConversionRows } from "./bench/web.ts";
import { sandboxBench } from "./bench/sandbox.ts";
import { fleetBench } from "./bench/fleet.ts";

// Every workspace and config folder goes in a folder of this run's own. A compiled Bun program
// started in a folder whose parent holds thousands of entries (a long-lived /tmp full of test
// folders) takes ~10 ms longer to reach its first request: the floor does — Bun's defaults look for
// config files up the tree — while clew, which turns that off, does not, so a crowded /tmp
// flattered clew's ratios (first request 1.6× measured there, 2.5× beside a clean parent).
process.env.TMPDIR = mkdtempSync(join(tmpdir(), "clew-bench-"));

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

type Variant = "clew" | "floor" | "extended" | "extendedCold";
const clewCommand = (prompt: string) => [clewBin, "-p", prompt, "--permission-mode", "bypassPermissions"];
const commands: Record<Variant, (prompt: string) => string[]> = {
  clew: clewCommand,
  floor: (prompt) => [floorBin, prompt],
  // The steady state: clew has run in this project before, so the extensions index is cached.
  extended: clewCommand,
  // The first run after the extensions were installed or changed.
  extendedCold: clewCommand,
};

const tasks = [
  { name: "fix-a-test (5 steps)", workspace: failingTestWorkspace, script: fixScript, answer: DONE },
  { name: "read/grep/edit (30 steps)", workspace: readGrepWorkspace, script: readGrepScript, answer: READ_GREP_ANSWER },
];

const rows: string[] = [];
const cold: string[] = [];
for (const task of tasks) {
  const results: Record<Variant, RunMetrics[]> = { clew: [], floor: [], extended: [], extendedCold: [] };
  // Interleave the variants so machine noise hits all of them alike.
  for (let i = 0; i < RUNS; i++) {
    for (const variant of Object.keys(commands) as Variant[]) {
      const command = commands[variant]("fix the task");
      const extended = variant === "extended" || variant === "extendedCold";
      const dir = extended ? installExtensions(task.workspace()) : task.workspace();
      const configDir = tempDirectory("clew-bench-config-");
      if (variant === "extended") await warmUp(command, dir, configDir);
      results[variant].push(await measureRun(command, dir, task.script(dir), task.answer, configDir));
    }
  }
  const clew = summarize(results.clew);
  rows.push(...taskRows(task.name, clew, summarize(results.floor), summarize(results.extended)));
  cold.push(...coldRows(task.name, clew, summarize(results.extendedCold)));
}

const megabytes = (path: string) => statSync(path).size / 1e6;
const versionClew = await versionTimeMs([clewBin], 10);
const versionFloor = await versionTimeMs([floorBin], 10);
rows.push(...binaryRows(`${process.platform}-${process.arch}`, megabytes(clewBin), megabytes(floorBin), versionClew, versionFloor));

const { skills, agents, commands: slashCommands, hooks } = EXTENSION_COUNTS;
console.log(`clew benchmark — ${RUNS} runs per variant per task, medians. floor = minimal compiled Bun agent;`);
console.log(`"+ extensions" = clew in the same workspace with ${skills} skills, ${agents} agents, ${slashCommands} commands and ${hooks} hooks installed, unused by the task, after one earlier run there (index cache warm).\n`);
for (const line of [...HEADER, ...rows]) console.log(line);
console.log("\nThe same extensions on the first run after they were installed (index cache cold):\n");
for (const line of [...COLD_HEADER, ...cold]) console.log(line);

const graph = await startupGraph(root);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
console.log(`\nCode \`clew -p\` loads before its first request (minified, static imports from cli/print.ts): ${kb(graph.bytes)}; largest: ${graph.largest.map((part) => `${part.name} ${kb(part.bytes)}`).join(", ")}.`);

// Skills at scale (issue targets): the first request with 100 skills installed (index cache warm)
// against the same workspace without them, what each skill adds to the fixed prefix, and the
// discovery of the corpus replicated to 3,000 skills and 500 commands.
function installSkills(dir: string, count: number): string {
  for (let i = 0; i < count; i++) {
    const name = `skill-${String(i).padStart(3, "0")}`;
    const text = `---\nname: ${name}\ndescription: Handles the ${name} part of the project's workflow, for changes that touch area ${i} of the code base\n---\n\nSteps for ${name}.\n`;
    const path = join(dir, ".claude", "skills", name);
    mkdirSync(path, { recursive: true });
    writeFileSync(join(path, "SKILL.md"), text);
  }
  return dir;
}

const SKILL_COUNT = 100;
const scale: Record<"bare" | "skills", RunMetrics[]> = { bare: [], skills: [] };
for (let i = 0; i < RUNS; i++) {
  for (const variant of ["bare", "skills"] as const) {
    const dir = failingTestWorkspace();
    if (variant === "skills") installSkills(dir, SKILL_COUNT);
    const configDir = tempDirectory("clew-bench-config-");
    if (variant === "skills") await warmUp(clewCommand("fix the task"), dir, configDir);
    scale[variant].push(await measureRun(clewCommand("fix the task"), dir, fixScript(dir), DONE, configDir));
  }
}
const bare = summarize(scale.bare);
const withSkills = summarize(scale.skills);
const ratio = withSkills.firstRequestMs / bare.firstRequestMs;
const perSkill = (withSkills.prefixTokens - bare.prefixTokens) / SKILL_COUNT;
console.log(`\nSkills at scale (fix-a-test, ${RUNS} runs, medians):\n`);
console.log("| metric | without skills | with 100 skills | ratio | target | verdict |");
console.log("|---|---|---|---|---|---|");
console.log(`| start → first request | ${bare.firstRequestMs.toFixed(1)} ms | ${withSkills.firstRequestMs.toFixed(1)} ms | ${ratio.toFixed(2)}× | ≤ 1.10× | ${ratio <= 1.1 ? "pass" : "**FAIL**"} |`);
console.log(`| peak RSS | ${bare.peakRssMiB.toFixed(1)} MiB | ${withSkills.peakRssMiB.toFixed(1)} MiB | ${(withSkills.peakRssMiB / bare.peakRssMiB).toFixed(2)}× | — | |`);
console.log(`| fixed prefix | ${bare.prefixTokens} tok | ${withSkills.prefixTokens} tok | ${perSkill.toFixed(1)} tok per skill | one short line each | ${perSkill <= 40 ? "pass" : "**FAIL**"} |`);

const discovery = Bun.spawnSync(["bun", join(root, "scripts/bench/extensions.ts"), "--runs", String(RUNS)], { cwd: root, stdout: "pipe", stderr: "inherit" });
const discoveryLines = discovery.stdout.toString().trim().split("\n").filter((line) => /extensions:|cold|warm|start-up/.test(line));
const medianOf = (label: RegExp) => Number(label.exec(discoveryLines.join("\n"))?.[1] ?? Number.NaN);
const warmMedian = medianOf(/warm \(index cache, every file stat\): median ([\d.]+) ms/);
const installedMedian = medianOf(/warm, plugin sources immutable\s*: median ([\d.]+) ms/);
const startupMedian = medianOf(/session start-up \(summary cached\)\s*: median ([\d.]+) ms/);
const verdict = (ms: number) => (ms <= 30 ? "pass" : "**FAIL**");
console.log(
  `\nDiscovery of the corpus replicated, target warm ≤ 30 ms: a session's start-up ${verdict(startupMedian)}; a full load with every source stat'ed ${verdict(warmMedian)}, with plugins as installed (versioned folders) ${verdict(installedMedian)}:\n`,
);
for (const line of discoveryLines) console.log(`    ${line.trim()}`);

// Helper agents and MCP (issue #10): first request with MCP servers, RSS with one connected, helpers in parallel.
const mcp = await mcpBench({ clewBin, root, runs: RUNS });
for (const line of mcp.lines) console.log(line);
if (mcp.leftover.length > 0) throw new Error(`MCP servers still running after their clew run ended (now killed):\n${mcp.leftover.join("\n")}`);

// Plugins at scale (issue #11): 600 installed plugins at start-up, the index read, and marketplace add against git clone.
const plugins = await pluginsBench({ clewBin, root, runs: RUNS });
for (const line of plugins.lines) console.log(line);

// Checkpoints (issue #14): a snapshot of a 10,000-file repository before a prompt.
const checkpoints = await checkpointsBench(RUNS);
for (const line of checkpoints.lines) console.log(line);

// WebFetch (issue #13): converting the saved pages, turndown against node-html-markdown (NHM_DIR, installed outside the repo), lazy loading.
for (const line of await webConversionRows(RUNS * 3)) console.log(line);
for (const line of await converterRows(RUNS * 3, process.env.NHM_DIR)) console.log(line);
for (const line of (await lazyLoadingRows()).rows) console.log(line);
for (const line of await sessionRows(clewBin, RUNS)) console.log(line);

// The Bash sandbox (issue #14): overhead per command, sandboxed against not.
const sandbox = await sandboxBench();
for (const line of sandbox.lines) console.log(line);

// Processes per node (issue #15): RSS and CPU per process, alone and 8 at once.
const fleet = await fleetBench(clewBin, [1, 8]);
for (const line of fleet.lines) console.log(line);
