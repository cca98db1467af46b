// Benchmark row for the Bash sandbox (issue #14): what running a command inside bubblewrap adds
// per Bash call — the median of 50 `true` runs through the Bash tool, sandboxed and not,
// interleaved, after one warm-up each (the first sandboxed call starts the session's proxy and
// network forwarder). Target ≤ 15 ms. Run alone: `bun scripts/bench/sandbox.ts`.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setUpPermissions } from "../../src/app/permission-setup.ts";
import { setUpSandbox } from "../../src/app/sandbox-setup.ts";
import { loadSettings } from "../../src/settings/load.ts";
import { bashTool } from "../../src/tools/bash.ts";
import { runTool, tempDir, toolSession } from "../../test/helpers/tool-session.ts";
import { median } from "./measure.ts";

const RUNS = 50;
const TARGET_MS = 15;

export async function sandboxBench(runs = RUNS): Promise<{ lines: string[] }> {
  const count = Math.max(runs, RUNS);
  const dir = tempDir("clew-bench-sandbox-");
  const configDir = join(dir, ".config");
  mkdirSync(configDir);
  writeFileSync(join(configDir, "settings.json"), JSON.stringify({ sandbox: { enabled: true } }));
  const loaded = loadSettings({ startDir: dir, configDir, managedDirs: [], homeDir: dir, trusted: true });
  const permissions = setUpPermissions({ settings: loaded, flagMode: undefined, unsandboxedRoot: false, cwd: dir, homeDir: dir, tools: [], ask: undefined });
  const reports: string[] = [];
  const path = process.env.PATH ?? "/usr/bin:/bin";
  const sandbox = await setUpSandbox({ settings: loaded, gate: permissions.gate, cwd: dir, homeDir: dir, configDir, path, report: (line) => reports.push(line) });
  const header = `\nBash sandbox (issue #14; \`true\` through the Bash tool, ${count} interleaved runs, medians):\n`;
  if (!sandbox) return { lines: [header, `| sandbox overhead per Bash call | not measured: ${reports.join(" ") || "the sandbox is unavailable"} | ≤ ${TARGET_MS} ms | skipped |`] };
  const plain = toolSession(dir, { env: { PATH: path, HOME: dir } });
  const boxed = toolSession(dir, { env: { PATH: path, HOME: dir }, sandbox });
  await runTool(bashTool, { command: "true" }, plain);
  await runTool(bashTool, { command: "true" }, boxed);
  const plainMs: number[] = [];
  const boxedMs: number[] = [];
  for (let i = 0; i < count; i++) {
    let started = performance.now();
    await runTool(bashTool, { command: "true" }, plain);
    plainMs.push(performance.now() - started);
    started = performance.now();
    await runTool(bashTool, { command: "true" }, boxed);
    boxedMs.push(performance.now() - started);
  }
  sandbox.close();
  const overhead = median(boxedMs) - median(plainMs);
  return {
    lines: [
      header,
      "| metric | measured | target | verdict |",
      "|---|---|---|---|",
      `| sandbox overhead per Bash call (sandboxed ${median(boxedMs).toFixed(1)} ms − plain ${median(plainMs).toFixed(1)} ms) | ${overhead.toFixed(1)} ms | ≤ ${TARGET_MS} ms | ${overhead <= TARGET_MS ? "pass" : "**FAIL**"} |`,
    ],
  };
}

if (import.meta.main) {
  for (const line of (await sandboxBench()).lines) console.log(line);
  process.exit(0);
}
