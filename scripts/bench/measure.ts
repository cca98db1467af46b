// One measured run of an agent binary against the fake server, and median helpers.
import { existsSync } from "node:fs";
import { startFakeAnthropic, type ScriptStep } from "../../test/fake-anthropic/index.ts";
import { clewEnv, tempDirectory } from "../../test/helpers/clew-process.ts";

export interface RunMetrics {
  firstRequestMs: number;
  wallMs: number;
  peakRssMiB: number;
  overheadPerIterationMs: number;
  iterations: number;
  /** Client-side time between one answer and the next request, early vs late in the run. */
  earlyGapMs: number;
  lateGapMs: number;
  ok: boolean;
}

const clock = () => performance.timeOrigin + performance.now();

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

const TIME = existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined;

export async function measureRun(
  command: string[],
  workspace: string,
  script: ScriptStep[],
  expectedText: string,
): Promise<RunMetrics> {
  const server = await startFakeAnthropic({ script });
  const configDir = tempDirectory("clew-bench-config-");
  const wrapped = TIME ? [TIME, "-f", "maxrss=%M", ...command] : command;
  const started = clock();
  const child = Bun.spawn(wrapped, {
    cwd: workspace,
    env: clewEnv({ cwd: workspace, baseURL: server.url, configDir }),
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  const ended = clock();
  await server.close();
  const requests = server.requests.filter((request) => request.endpoint === "messages");
  const gaps = requests.slice(1).map((request, i) => request.receivedAt - ((requests[i]?.answeredAt ?? request.receivedAt) as number));
  const rssKiB = Number(/maxrss=(\d+)/.exec(stderr)?.[1] ?? Number.NaN);
  const wallMs = ended - started;
  return {
    firstRequestMs: (requests[0]?.receivedAt ?? ended) - started,
    wallMs,
    peakRssMiB: rssKiB / 1024,
    overheadPerIterationMs: (wallMs - server.answerMs()) / Math.max(1, requests.length),
    iterations: requests.length,
    earlyGapMs: median(gaps.slice(0, 10)),
    lateGapMs: median(gaps.slice(-10)),
    ok: stdout.includes(expectedText) && server.violations.length === 0,
  };
}

export async function versionTimeMs(command: string[], runs: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = clock();
    await Bun.spawn([...command, "--version"], { stdout: "ignore", stderr: "ignore" }).exited;
    times.push(clock() - started);
  }
  return median(times);
}
