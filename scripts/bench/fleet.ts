// How many clew processes one node holds: the 30-step read/grep/edit task run alone and as
// several concurrent processes (each with its own workspace and fake API), measuring each
// process's peak RSS and CPU seconds (user + system, children included) with /usr/bin/time.
// The figures size the Kubernetes example's resource requests and the README's capacity note.
import { existsSync } from "node:fs";
import { startFakeAnthropic } from "../../test/fake-anthropic/index.ts";
import { clewEnv, tempDirectory } from "../../test/helpers/clew-process.ts";
import { READ_GREP_ANSWER, READ_GREP_STEPS, readGrepScript, readGrepWorkspace } from "../../test/scenarios/read-grep-task.ts";
import { median } from "./measure.ts";

interface ProcessFigures {
  rssMiB: number;
  cpuSeconds: number;
  ok: boolean;
}

async function oneProcess(clewBin: string): Promise<ProcessFigures> {
  const workspace = readGrepWorkspace();
  const server = await startFakeAnthropic({ script: readGrepScript(workspace) });
  try {
    const child = Bun.spawn(["/usr/bin/time", "-f", "fleet=%M %U %S", clewBin, "-p", "Type every module's first handler."], {
      cwd: workspace,
      env: clewEnv({ cwd: workspace, baseURL: server.url, configDir: tempDirectory("clew-fleet-config-") }),
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
    const [rssKiB, user, system] = (/fleet=(\d+) ([\d.]+) ([\d.]+)/.exec(stderr)?.slice(1) ?? []).map(Number);
    return { rssMiB: (rssKiB ?? Number.NaN) / 1024, cpuSeconds: (user ?? Number.NaN) + (system ?? Number.NaN), ok: stdout.includes(READ_GREP_ANSWER) };
  } finally {
    await server.close();
  }
}

export interface FleetFigures {
  concurrency: number;
  rssMiB: number;
  cpuMsPerStep: number;
  wallMs: number;
  failures: number;
}

async function wave(clewBin: string, concurrency: number): Promise<FleetFigures> {
  const started = performance.now();
  const runs = await Promise.all(Array.from({ length: concurrency }, () => oneProcess(clewBin)));
  return {
    concurrency,
    rssMiB: Math.max(...runs.map((run) => run.rssMiB)),
    cpuMsPerStep: (median(runs.map((run) => run.cpuSeconds)) * 1000) / READ_GREP_STEPS,
    wallMs: performance.now() - started,
    failures: runs.filter((run) => !run.ok).length,
  };
}

export async function fleetBench(clewBin: string, concurrencies: number[] = [1, 8]): Promise<{ lines: string[]; figures: FleetFigures[] }> {
  if (!existsSync("/usr/bin/time")) return { lines: ["\nProcesses per node: skipped (/usr/bin/time is not installed)."], figures: [] };
  await oneProcess(clewBin);
  const figures: FleetFigures[] = [];
  for (const concurrency of concurrencies) figures.push(await wave(clewBin, concurrency));
  const lines = [
    "\nProcesses per node (30-step task, each process its own workspace and fake API):\n",
    "| concurrent processes | peak RSS per process (max) | CPU per step (median, children included) | wall time of the wave | failures |",
    "|---|---|---|---|---|",
    ...figures.map((f) => `| ${f.concurrency} | ${f.rssMiB.toFixed(1)} MiB | ${f.cpuMsPerStep.toFixed(1)} ms | ${Math.round(f.wallMs)} ms | ${f.failures} |`),
  ];
  return { lines, figures };
}

if (import.meta.main) {
  const clewBin = process.argv[2] ?? "dist/clew";
  const { lines } = await fleetBench(clewBin, [1, 4, 8, 16]);
  console.log(lines.join("\n"));
}
