import { mkdtempSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileTracker } from "../../src/tools/shared/file-tracker.ts";
import { ShellJobRegistry } from "../../src/tools/shared/shell-jobs.ts";
import {
  defaultToolLimits,
  type AnyTool,
  type ToolContext,
  type ToolOutput,
  type ToolSession,
} from "../../src/tools/types.ts";

/** A fresh real directory for one test (symlinks resolved, so paths compare equal). */
export function tempDir(prefix = "clew-tool-"): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

/** Each session gets its own real background-job registry; call `session.shells.killAll()` after the test. */
export function toolSession(dir: string, overrides: Partial<ToolSession> = {}): ToolSession {
  return {
    projectDir: dir,
    cwd: dir,
    files: new FileTracker(),
    shells: new ShellJobRegistry(),
    todos: [],
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? dir },
    limits: defaultToolLimits,
    ...overrides,
  };
}

let nextId = 0;
export function toolContext(session: ToolSession, signal = new AbortController().signal): ToolContext {
  nextId += 1;
  return { toolUseId: `toolu_test_${nextId}`, signal, session };
}

/** Validates input with the tool's own schema (as the executor does), then runs it. */
export async function runTool(tool: AnyTool, input: unknown, session: ToolSession, signal?: AbortSignal): Promise<ToolOutput> {
  const parsed = tool.input.parse(input);
  return tool.run(parsed, toolContext(session, signal));
}

export function textOf(output: ToolOutput): string {
  if (typeof output.content === "string") return output.content;
  return output.content.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("");
}

/**
 * Whether a process still runs. A zombie counts as gone: it executes nothing, it only waits to be
 * reaped, and in containers whose PID 1 does not reap, orphaned zombies linger indefinitely.
 */
export function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return true;
  }
}

/**
 * Polls until `check` holds, running `step` (if given) between checks; false if it still fails
 * after `limitMs`. The limit is a safety net against hangs, not a timing assertion.
 */
export async function eventually(check: () => boolean, limitMs = 10_000, step?: () => Promise<void>): Promise<boolean> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    await step?.();
    if (check()) return true;
    if (Date.now() > deadline) return false;
    await Bun.sleep(20);
  }
}
