// One measured run of an agent binary against the fake server, and median helpers.
import { existsSync } from "node:fs";
import { canonicalJson, reply, startFakeAnthropic, tokensOfText, type Json, type ScriptStep } from "../../test/fake-anthropic/index.ts";
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
  /** Share of input tokens read from the prompt cache, over every request after the first. */
  cacheReadRatio: number;
  /**
   * The worst request's re-read of the one before: cache reads over the previous request's whole
   * input. 1.0 means every request found all of the previous one in the cache (a stable prefix).
   */
  prefixReuse: number;
  /** input + 1.25 × cache writes + 0.1 × cache reads, over the whole run. */
  weightedInputTokens: number;
  /** Tokens of tools + system in the first request: the fixed prefix. */
  prefixTokens: number;
  ok: boolean;
}

const clock = () => performance.timeOrigin + performance.now();

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

const TIME = existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined;

/**
 * One unmeasured run in `workspace` with `configDir`, answered at once: leaves behind what a
 * second run finds (the extensions index cache), as on a machine where clew has run before.
 */
export async function warmUp(command: string[], workspace: string, configDir: string): Promise<void> {
  const server = await startFakeAnthropic({ script: [reply().text("ready")] });
  try {
    const child = Bun.spawn(command, { cwd: workspace, env: clewEnv({ cwd: workspace, baseURL: server.url, configDir }), stdin: "ignore", stdout: "ignore", stderr: "ignore" });
    await child.exited;
  } finally {
    await server.close();
  }
}

export async function measureRun(
  command: string[],
  workspace: string,
  script: ScriptStep[],
  expectedText: string,
  configDir: string = tempDirectory("clew-bench-config-"),
): Promise<RunMetrics> {
  const server = await startFakeAnthropic({ script });
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
  let read = 0;
  let total = 0;
  let reuse = Number.POSITIVE_INFINITY;
  let weighted = 0;
  requests.forEach((request, index) => {
    const cache = request.cache;
    if (!cache) return;
    weighted += cache.inputTokens + 1.25 * cache.cacheCreationInputTokens + 0.1 * cache.cacheReadInputTokens;
    if (index === 0) return;
    const previous = requests[index - 1]?.cache?.totalTokens;
    if (previous) reuse = Math.min(reuse, cache.cacheReadInputTokens / previous);
    read += cache.cacheReadInputTokens;
    total += cache.totalTokens;
  });
  const first = requests[0]?.body;
  const tokensOf = (items: Json | undefined) => (Array.isArray(items) ? items.reduce((sum: number, item) => sum + tokensOfText(canonicalJson(item)), 0) : 0);
  const wallMs = ended - started;
  return {
    firstRequestMs: (requests[0]?.receivedAt ?? ended) - started,
    wallMs,
    peakRssMiB: rssKiB / 1024,
    overheadPerIterationMs: (wallMs - server.answerMs()) / Math.max(1, requests.length),
    iterations: requests.length,
    earlyGapMs: median(gaps.slice(0, 10)),
    lateGapMs: median(gaps.slice(-10)),
    cacheReadRatio: total > 0 ? read / total : Number.NaN,
    prefixReuse: Number.isFinite(reuse) ? reuse : Number.NaN,
    weightedInputTokens: weighted,
    prefixTokens: tokensOf(first?.tools) + tokensOf(first?.system),
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
