import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileTracker } from "../../src/tools/shared/file-tracker.ts";
import type { ShellJobs } from "../../src/tools/shared/shell-jobs.ts";
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

const noShells: ShellJobs = {
  async killAll() {},
};

export function toolSession(dir: string, overrides: Partial<ToolSession> = {}): ToolSession {
  return {
    projectDir: dir,
    cwd: dir,
    files: new FileTracker(),
    shells: noShells,
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
