/**
 * Runs a `command` handler (hooks.md §4.1). Shell form goes to `sh -c` (or bash / PowerShell when
 * `shell` says so); exec form (`args` present) resolves the executable on PATH and spawns it
 * without a shell, placeholders substituted per argument verbatim.
 */
import { isAbsolute, resolve } from "node:path";
import { placeholderValues, substitute } from "./placeholders.ts";
import { type ProcessRun, type RunningProcess, startProcess } from "./process.ts";
import type { Execution } from "./result.ts";
import type { CommandSpec, HookOrigin } from "./types.ts";

export interface CommandRunContext {
  origin: HookOrigin;
  projectDir: string;
  env: Readonly<Record<string, string>>;
  stdin: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** The command as it will run, for records and de-duplication. */
export function resolvedCommand(spec: CommandSpec, origin: HookOrigin, projectDir: string): { command: string; args?: string[] } {
  const values = placeholderValues(origin, projectDir);
  if (!spec.args) return { command: substitute(spec.command, values) };
  const userConfig = origin.kind === "plugin" ? (origin.options ?? {}) : undefined;
  return { command: substitute(spec.command, values, userConfig), args: spec.args.map((arg) => substitute(arg, values, userConfig)) };
}

function argvOf(spec: CommandSpec, context: CommandRunContext): string[] | { error: string } {
  const PATH = context.env.PATH ?? "/usr/bin:/bin";
  const { command, args } = resolvedCommand(spec, context.origin, context.projectDir);
  if (args) {
    const executable = command.includes("/") ? (isAbsolute(command) ? command : resolve(context.projectDir, command)) : Bun.which(command, { PATH });
    if (!executable) return { error: `${command}: executable not found on PATH` };
    return [executable, ...args];
  }
  if (spec.shell === "powershell") {
    const pwsh = Bun.which("pwsh", { PATH }) ?? Bun.which("powershell", { PATH });
    if (!pwsh) return { error: 'this hook sets "shell": "powershell", but neither pwsh nor powershell is on PATH' };
    return [pwsh, "-NoProfile", "-NonInteractive", "-Command", command];
  }
  const shell = spec.shell === "bash" ? Bun.which("bash", { PATH }) : (Bun.which("sh", { PATH }) ?? "/bin/sh");
  if (!shell) return { error: 'this hook sets "shell": "bash", but bash is not on PATH' };
  return [shell, "-c", command];
}

function toExecution(run: ProcessRun): Execution {
  if (run.kind === "exited") return { kind: "exit", run: { exitCode: run.exitCode, stdout: run.stdout, stderr: run.stderr } };
  const partial = { exitCode: -1, stdout: run.stdout, stderr: run.stderr };
  return run.kind === "timeout" ? { kind: "timeout", run: partial } : { kind: "cancelled", run: partial };
}

export interface StartedCommand {
  execution: Promise<Execution>;
  kill(): Promise<void>;
}

export function startCommand(spec: CommandSpec, context: CommandRunContext): StartedCommand {
  const argv = argvOf(spec, context);
  if (!Array.isArray(argv)) {
    // What a shell reports for a command it cannot start: non-blocking (exit 127).
    return { execution: Promise.resolve({ kind: "exit", run: { exitCode: 127, stdout: "", stderr: argv.error } }), kill: async () => {} };
  }
  let running: RunningProcess;
  try {
    running = startProcess({ argv, cwd: context.projectDir, env: context.env, stdin: context.stdin, timeoutMs: context.timeoutMs, signal: context.signal });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { execution: Promise.resolve({ kind: "exit", run: { exitCode: 127, stdout: "", stderr: `could not start ${argv[0] ?? "the hook"}: ${message}` } }), kill: async () => {} };
  }
  return { execution: running.done.then(toExecution), kill: running.kill };
}
