// Benchmark rows for the Bash sandbox (issue #14): what running a command inside bubblewrap adds
// per Bash call — the median of 50 `true` runs through the Bash tool, sandboxed and not,
// interleaved, after one warm-up each (the first sandboxed call starts the session's proxy and
// network forwarder) — for the session, and for a helper agent in its own git worktree (more
// mounts: the project read-only, the worktree and its git data writable, git's links shielded).
// Target ≤ 15 ms. Run alone: `bun scripts/bench/sandbox.ts`.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
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
  const worktree = helperWorktree(dir);
  const env = { PATH: path, HOME: dir };
  const sessions = {
    plain: toolSession(dir, { env }),
    boxed: toolSession(dir, { env, sandbox }),
    helper: toolSession(worktree, { env, sandbox: sandbox.forWorktree(worktree) }),
  };
  const times: Record<keyof typeof sessions, number[]> = { plain: [], boxed: [], helper: [] };
  for (const session of Object.values(sessions)) await runTool(bashTool, { command: "true" }, session);
  for (let i = 0; i < count; i++) {
    for (const [name, session] of Object.entries(sessions) as Array<[keyof typeof sessions, (typeof sessions)["plain"]]>) {
      const started = performance.now();
      await runTool(bashTool, { command: "true" }, session);
      times[name].push(performance.now() - started);
    }
  }
  sandbox.close();
  const plainMs = median(times.plain);
  const row = (label: string, ms: number[]): string => {
    const overhead = median(ms) - plainMs;
    return `| ${label} (sandboxed ${median(ms).toFixed(1)} ms − plain ${plainMs.toFixed(1)} ms) | ${overhead.toFixed(1)} ms | ≤ ${TARGET_MS} ms | ${overhead <= TARGET_MS ? "pass" : "**FAIL**"} |`;
  };
  return {
    lines: [
      header,
      "| metric | measured | target | verdict |",
      "|---|---|---|---|",
      row("sandbox overhead per Bash call", times.boxed),
      row("the same for a helper in its own git worktree", times.helper),
    ],
  };
}

/** A committed repository in `dir` with one helper worktree, as `isolation: worktree` makes it. */
function helperWorktree(dir: string): string {
  const git = (...args: string[]) => Bun.spawnSync(["git", "-c", "user.name=bench", "-c", "user.email=bench@localhost", ...args], { cwd: dir, stdout: "ignore", stderr: "ignore" });
  writeFileSync(join(dir, "file.txt"), "x\n");
  git("init", "-q");
  git("add", "file.txt");
  git("commit", "-qm", "bench");
  const worktree = join(dir, ".clew", "worktrees", "bench");
  git("worktree", "add", "-q", "-b", "clew/agent-bench", worktree);
  if (!existsSync(join(worktree, ".git"))) throw new Error(`git worktree add failed in ${dir}: the helper row cannot be measured`);
  return worktree;
}

if (import.meta.main) {
  for (const line of (await sandboxBench()).lines) console.log(line);
  process.exit(0);
}
