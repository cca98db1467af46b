/**
 * Runs one matched handler of any supported type and reports it twice: a start notice and a run
 * record (event, matcher, source, command, duration, exit code, bounded output, outcome), for the
 * transcript, `/hooks` and stream-json `hook_started` / `hook_response`.
 */
import { truncateMiddle } from "../util/truncate.ts";
import type { FiredHookEvent } from "./events.ts";
import { hookEnvironment } from "./placeholders.ts";
import { type Execution, type HandlerResult, interpretExit } from "./result.ts";
import { resolvedCommand, startCommand } from "./run-command.ts";
import { runHttp } from "./run-http.ts";
import { type PromptPort, runPrompt } from "./run-prompt.ts";
import type { CompiledHook, HookPolicy, HookRunRecord, HookSourceInfo, HookStartInfo } from "./types.ts";

/** Output kept in a run record, per stream. */
export const RECORD_OUTPUT_CHARS = 2000;

export interface RunContext {
  event: FiredHookEvent;
  inputJson: string;
  hookName: string;
  source: HookSourceInfo;
  projectDir: string;
  baseEnv: Readonly<Record<string, string>>;
  envFile?: string;
  effort?: string;
  prompt?: PromptPort;
  policy: HookPolicy;
  timeoutMs: number;
  signal?: AbortSignal;
  onStarted?: (info: HookStartInfo) => void;
  onFinished?: (record: HookRunRecord) => void;
}

export interface StartedHandler {
  info: HookStartInfo;
  /** `stdout`/`stderr`: all that was captured (records keep a bounded copy). */
  done: Promise<{ result: HandlerResult; record: HookRunRecord; stdout: string; stderr: string }>;
  kill(): Promise<void>;
}

function firstLine(text: string, max: number): string {
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

export function commandText(hook: CompiledHook, projectDir: string, source: HookSourceInfo): string {
  const spec = hook.spec;
  switch (spec.type) {
    case "command": {
      const { command, args } = resolvedCommand(spec, source.origin, projectDir);
      return args ? [command, ...args].join(" ") : command;
    }
    case "http":
      return spec.url;
    case "prompt":
      return firstLine(spec.prompt, 200);
    default:
      return spec.summary;
  }
}

function toResult(hook: CompiledHook, context: RunContext, execution: Execution): HandlerResult {
  const { hookName } = context;
  const lenient = hook.spec.type === "command" && hook.spec.async;
  switch (execution.kind) {
    case "exit":
      return interpretExit(hook, hookName, context.event, execution.run, lenient);
    case "verdict":
      return { hook, hookName, status: execution.verdict.ok ? "success" : "blocked", verdict: execution.verdict };
    case "error": {
      const error = `${hookName} hook error: ${execution.message}`;
      return { hook, hookName, status: "error", error, message: error };
    }
    case "timeout": {
      const error = `${hookName} hook timed out after ${context.timeoutMs / 1000}s and was stopped; its output was ignored`;
      return { hook, hookName, status: "timeout", error, message: error };
    }
    case "cancelled":
      return { hook, hookName, status: "cancelled", message: "cancelled" };
  }
}

function exitCodeOf(execution: Execution): number | undefined {
  if (execution.kind === "exit") return execution.run.exitCode;
  if (execution.kind === "error" && execution.run && execution.run.exitCode >= 0) return execution.run.exitCode;
  return undefined;
}

export function startHandler(hook: CompiledHook, context: RunContext): StartedHandler {
  const spec = hook.spec;
  const info: HookStartInfo = {
    runId: crypto.randomUUID(),
    hookId: hook.id,
    event: context.event,
    hookName: context.hookName,
    ...(hook.matcher !== undefined ? { matcher: hook.matcher } : {}),
    sourceId: context.source.id,
    sourceLabel: context.source.label,
    file: context.source.file,
    type: spec.type,
    command: commandText(hook, context.projectDir, context.source),
    async: spec.type === "command" && spec.async,
    ...(hook.statusMessage !== undefined ? { statusMessage: hook.statusMessage } : {}),
  };
  const started = performance.now();
  context.onStarted?.(info);
  let kill: () => Promise<void> = async () => {};
  let execution: Promise<Execution>;
  if (spec.type === "command") {
    const env = hookEnvironment({
      base: context.baseEnv,
      origin: context.source.origin,
      projectDir: context.projectDir,
      ...(context.envFile !== undefined ? { envFile: context.envFile } : {}),
      ...(context.effort !== undefined ? { effort: context.effort } : {}),
    });
    const command = startCommand(spec, { origin: context.source.origin, projectDir: context.projectDir, env, stdin: context.inputJson, timeoutMs: context.timeoutMs, signal: context.signal });
    execution = command.execution;
    kill = command.kill;
  } else if (spec.type === "http") {
    execution = runHttp(spec, {
      env: context.baseEnv,
      ...(context.policy.httpHookAllowedEnvVars ? { policyEnvVars: context.policy.httpHookAllowedEnvVars } : {}),
      body: context.inputJson,
      timeoutMs: context.timeoutMs,
      signal: context.signal,
    });
  } else if (spec.type === "prompt") {
    execution = runPrompt(spec, context.prompt, context.inputJson, context.timeoutMs, context.signal);
  } else {
    execution = Promise.resolve({ kind: "error", message: `${spec.type} hooks are not supported yet` });
  }
  const done = execution.then((outcome) => {
    const result = toResult(hook, context, outcome);
    const run = outcome.kind === "verdict" ? { stdout: outcome.reply, stderr: "" } : "run" in outcome ? outcome.run : undefined;
    const exitCode = exitCodeOf(outcome);
    const message = result.message ?? (result.status === "blocked" ? `blocked: ${firstLine(result.exitTwoReason || result.verdict?.reason || "", 300)}` : undefined);
    const record: HookRunRecord = {
      ...info,
      durationMs: Math.round(performance.now() - started),
      ...(exitCode !== undefined ? { exitCode } : {}),
      stdout: truncateMiddle(run?.stdout ?? "", RECORD_OUTPUT_CHARS),
      stderr: truncateMiddle(run?.stderr ?? "", RECORD_OUTPUT_CHARS),
      outcome: result.status,
      ...(message !== undefined ? { message } : {}),
    };
    context.onFinished?.(record);
    return { result, record, stdout: run?.stdout ?? "", stderr: run?.stderr ?? "" };
  });
  return { info, done, kill };
}
