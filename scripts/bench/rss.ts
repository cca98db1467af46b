// `bun scripts/bench/rss.ts [--runs N] BIN…`: peak RSS and the first request of each binary on the
// benchmark's two tasks, the binaries interleaved run by run so machine noise hits them alike.
// While a run goes, its /proc/<pid>/smaps_rollup is sampled: the sample with the largest Rss
// tells how much of the peak was file-backed (the binary's own pages) and how much anonymous
// (RSS_SMAPS_OUT=PREFIX also writes that sample's full smaps to PREFIX-<binary name>).
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { DONE, failingTestWorkspace, fixScript } from "../../test/scenarios/workspaces.ts";
import { READ_GREP_ANSWER, readGrepScript, readGrepWorkspace } from "../../test/scenarios/read-grep-task.ts";
import { measureRun, median } from "./measure.ts";

const { values, positionals } = parseArgs({ args: process.argv.slice(2), allowPositionals: true, options: { runs: { type: "string" }, "no-sample": { type: "boolean" } } });
const runs = Number(values.runs ?? 5);
if (positionals.length === 0) throw new Error("usage: bun scripts/bench/rss.ts [--runs N] BIN…");

interface Sample {
  rss: number;
  file: number;
  anon: number;
}

/** The smaps_rollup sample with the largest Rss among the process's descendants named like `bin`, in KiB. */
function sampler(bin: string): { stop: () => Sample } {
  let best: Sample = { rss: 0, file: 0, anon: 0 };
  let smaps = "";
  const name = bin.split("/").pop() ?? bin;
  let pids: string[] = [];
  const timer = setInterval(() => {
    if (pids.length === 0) pids = Bun.spawnSync(["pgrep", "-x", name.slice(0, 15)]).stdout.toString().split("\n").filter(Boolean);
    for (const pid of pids) {
      try {
        const text = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
        const field = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, "m").exec(text)?.[1] ?? 0);
        const rss = field("Rss");
        if (rss > best.rss) {
          best = { rss, file: field("Rss") - field("Anonymous"), anon: field("Anonymous") };
          if (process.env.RSS_SMAPS_OUT) smaps = readFileSync(`/proc/${pid}/smaps`, "utf8");
        }
      } catch {
        // The process ended between pgrep and the read.
      }
    }
  }, 4);
  return {
    stop: () => {
      clearInterval(timer);
      if (process.env.RSS_SMAPS_OUT && smaps !== "") writeFileSync(`${process.env.RSS_SMAPS_OUT}-${name}`, smaps);
      return best;
    },
  };
}

const tasks = [
  { name: "fix", workspace: failingTestWorkspace, script: fixScript, answer: DONE },
  { name: "readgrep", workspace: readGrepWorkspace, script: readGrepScript, answer: READ_GREP_ANSWER },
];

for (const task of tasks) {
  const results = new Map<string, { rss: number[]; first: number[]; wall: number[]; overhead: number[]; file: number[]; anon: number[]; ok: boolean }>();
  for (let i = 0; i < runs; i++) {
    for (const spec of positionals) {
      // BIN or BIN,KEY=VALUE,…: the binary run with those variables set (through env(1), so the measured process is the binary itself).
      const [bin = spec, ...assignments] = spec.split(",");
      const dir = task.workspace();
      const floor = bin.endsWith("floor");
      const agent = floor ? [bin, "fix the task"] : [bin, "-p", "fix the task", "--permission-mode", "bypassPermissions"];
      const command = assignments.length > 0 ? ["env", ...assignments, ...agent] : agent;
      // Reading smaps takes the process's memory-map lock: --no-sample for start-up timings.
      const sampling = values["no-sample"] ? { stop: () => ({ rss: 0, file: 0, anon: 0 }) } : sampler(bin);
      const run = await measureRun(command, dir, task.script(dir), task.answer);
      const sample = sampling.stop();
      const entry = results.get(spec) ?? { rss: [], first: [], wall: [], overhead: [], file: [], anon: [], ok: true };
      entry.rss.push(run.peakRssMiB);
      entry.first.push(run.firstRequestMs);
      entry.wall.push(run.wallMs);
      entry.overhead.push(run.overheadPerIterationMs);
      entry.file.push(sample.file / 1024);
      entry.anon.push(sample.anon / 1024);
      entry.ok &&= run.ok;
      results.set(spec, entry);
    }
  }
  for (const [spec, entry] of results) {
    const spread = [...entry.rss].sort((a, b) => a - b).map((value) => value.toFixed(1)).join(" ");
    console.log(
      `${task.name.padEnd(8)} ${spec.padEnd(28)} rss ${median(entry.rss).toFixed(1)} MiB [${spread}]  first ${median(entry.first).toFixed(1)} ms  wall ${median(entry.wall).toFixed(0)} ms  per step ${median(entry.overhead).toFixed(1)} ms  sampled file ${median(entry.file).toFixed(1)} anon ${median(entry.anon).toFixed(1)}${entry.ok ? "" : "  NOT OK"}`,
    );
  }
}
