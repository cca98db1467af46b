// Real temp projects and a real engine for hook tests: hooks run as real processes.
import { mkdtempSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { collectHooks } from "../../../src/hooks/collect.ts";
import { createHookEngine, type HookEngine, type HookEngineOptions } from "../../../src/hooks/engine.ts";
import type { HookCommonInput } from "../../../src/hooks/inputs.ts";
import type { HookConfig, HookOrigin, HookPolicy, HookRunRecord, HookSource, HookStartInfo } from "../../../src/hooks/types.ts";

export const FIXTURES = resolve(import.meta.dir, "../../fixtures/hooks");

export function tempDir(prefix = "clew-hooks-"): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

/** The environment a hook inherits: this process's, without anything a parent agent exported. */
export function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith("CLAUDE_") && !key.startsWith("CLEW_")) env[key] = value;
  }
  return env;
}

export function userSettings(file = "/home/u/.clew/settings.json"): HookOrigin {
  return { kind: "settings", scope: "user", file };
}

export function projectSettings(projectDir: string): HookOrigin {
  return { kind: "settings", scope: "project", file: join(projectDir, ".claude/settings.json") };
}

export function common(projectDir: string): HookCommonInput {
  return { session_id: "sess-1", transcript_path: join(projectDir, "transcript.jsonl"), cwd: projectDir, permission_mode: "default" };
}

export interface Harness {
  projectDir: string;
  config: HookConfig;
  engine: HookEngine;
  started: HookStartInfo[];
  records: HookRunRecord[];
}

/** Sources given as `{ origin?, hooks }`; the origin defaults to user settings. */
export function harness(
  sources: (Partial<HookSource> & { hooks: unknown })[],
  options: Partial<HookEngineOptions> & { projectDir?: string; policy?: HookPolicy } = {},
): Harness {
  const projectDir = options.projectDir ?? tempDir();
  const config = collectHooks(
    sources.map((source) => ({ origin: userSettings(), ...source })),
    { projectDir, ...(options.policy ? { policy: options.policy } : {}) },
  );
  const started: HookStartInfo[] = [];
  const records: HookRunRecord[] = [];
  const engine = createHookEngine({
    config,
    env: baseEnv(),
    common: () => common(projectDir),
    matchesRule: () => true,
    onHookStarted: (info) => started.push(info),
    onHookFinished: (record) => records.push(record),
    ...options,
  });
  return { projectDir, config, engine, started, records };
}

/** One command hook on one event. */
export function commandHook(event: string, command: string, extra: Record<string, unknown> = {}, matcher?: string): { hooks: unknown } {
  return { hooks: { [event]: [{ ...(matcher !== undefined ? { matcher } : {}), hooks: [{ type: "command", command, ...extra }] }] } };
}

export function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  // Killed but not yet reaped by its new parent: a zombie no longer runs.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return true;
  }
}
