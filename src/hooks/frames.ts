/**
 * stream-json `system` frames for hook runs (cli-headless.md §5: `hook_started` and
 * `hook_response`, with `hook_id`, `hook_name`, `hook_event`; the response adds `stdout`, `stderr`,
 * `output`, `exit_code?` and `outcome`). The caller adds `uuid` and `session_id`.
 */
import type { HookRunRecord, HookStartInfo } from "./types.ts";

export interface HookStartedFrame {
  type: "system";
  subtype: "hook_started";
  hook_id: string;
  hook_name: string;
  hook_event: string;
}

export interface HookResponseFrame {
  type: "system";
  subtype: "hook_response";
  hook_id: string;
  hook_name: string;
  hook_event: string;
  stdout: string;
  stderr: string;
  output: string;
  exit_code?: number;
  outcome: "success" | "error" | "cancelled";
}

export function hookStartedFrame(info: HookStartInfo): HookStartedFrame {
  return { type: "system", subtype: "hook_started", hook_id: info.runId, hook_name: info.hookName, hook_event: info.event };
}

export function hookResponseFrame(record: HookRunRecord): HookResponseFrame {
  const outcome = record.outcome === "success" ? "success" : record.outcome === "cancelled" || record.outcome === "timeout" ? "cancelled" : "error";
  return {
    type: "system",
    subtype: "hook_response",
    hook_id: record.runId,
    hook_name: record.hookName,
    hook_event: record.event,
    stdout: record.stdout,
    stderr: record.stderr,
    output: [record.stdout, record.stderr].filter((text) => text !== "").join("\n"),
    ...(record.exitCode !== undefined ? { exit_code: record.exitCode } : {}),
    outcome,
  };
}
