/**
 * Runs a shell command the way Bash and background jobs need it: in its own process group (so a
 * kill reaches every grandchild, not just the shell), stdin from /dev/null, output held in bounded
 * buffers, and with a timeout / abort that leaves nothing running behind it. On Bun.spawn, not
 * node:child_process: that module and the Node streams under it cost ~3 ms and several MB of RSS
 * at the first command (measured in the compiled binary).
 */
import { readFileSync, rmSync, statSync } from "node:fs";
import { constants, tmpdir } from "node:os";
import { join } from "node:path";
import { BoundedText } from "./bounded-text.ts";

/** How long a process group gets to honour SIGTERM before SIGKILL. */
const KILL_GRACE_MS = 1000;
/**
 * Once the shell itself has exited, a grandchild it backgrounded (`server &`) may keep the pipes
 * open indefinitely. Give the pipes this long to drain, then stop waiting for them.
 */
const DRAIN_GRACE_MS = 200;

export interface ShellSpec {
  command: string;
  cwd: string;
  env: Readonly<Record<string, string>>;
  /** Budget per stream (stdout and stderr each), see BoundedText. */
  maxOutputChars: number;
  /** Where over-long output is saved in full: `<stem>.stdout.txt` and `<stem>.stderr.txt`. */
  spillStem?: string;
  /** Runs the shell inside the OS sandbox (permissions/sandbox); absent: as a plain child. */
  launch?: ShellLaunch;
}

/** How a shell is started inside a sandbox (structurally permissions/sandbox's `SandboxLaunch`). */
export interface ShellLaunch {
  /** The argv that runs `argv` (the shell) inside the sandbox. */
  wrap(argv: readonly string[]): string[];
  /** The child's environment from the session's. */
  environment(base: Readonly<Record<string, string>>): Record<string, string>;
  /** A directory both the command and clew can write: its path inside the sandbox and outside. */
  scratch: { inside: string; outside: string };
}

export interface ShellExit {
  /** The shell's exit status; 128 + signal number when a signal ended it. */
  exitCode: number | null;
  signal: string | null;
}

/** CLAUDE_CODE_SHELL when it names a shell that runs; else bash if it is on the child's PATH, else POSIX sh. */
export function shellBinary(env: Readonly<Record<string, string>>): string {
  const chosen = env.CLAUDE_CODE_SHELL;
  const found = chosen ? Bun.which(chosen, { PATH: env.PATH ?? "/usr/bin:/bin" }) : null;
  return found ?? Bun.which("bash", { PATH: env.PATH ?? "/usr/bin:/bin" }) ?? "/bin/sh";
}

/**
 * CLAUDE_CODE_SHELL_PREFIX (an auditing or logging wrapper): the shell runs `<prefix> '<command>'`,
 * the wrapper getting the whole command as its one argument, after the permission gate passed it.
 */
export function prefixed(command: string, env: Readonly<Record<string, string>>): string {
  const prefix = env.CLAUDE_CODE_SHELL_PREFIX?.trim();
  return prefix ? `${prefix} ${shellQuote(command)}` : command;
}

/** Every process clew spawns is told it runs under an agent (spec/cli-headless.md §11). */
export function childEnv(env: Readonly<Record<string, string>>): Record<string, string> {
  return { ...env, CLAUDECODE: "1", CLEW: "1" };
}

/** Feeds a pipe into a BoundedText as UTF-8 text, chunk by chunk, until it ends or is cancelled. */
async function pump(reader: { read(): Promise<{ done: boolean; value?: Uint8Array }> }, into: BoundedText): Promise<void> {
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || value === undefined) break;
      const text = decoder.decode(value, { stream: true });
      if (text !== "") into.append(text);
    }
    const rest = decoder.decode();
    if (rest !== "") into.append(rest);
  } catch {
    // Cancelled after the drain grace period, or the pipe broke: what arrived is kept.
  }
}

type Child = ReturnType<typeof spawnShell>;

function spawnShell(spec: ShellSpec) {
  const argv = [shellBinary(spec.env), "-c", spec.command];
  const env = childEnv(spec.env);
  return Bun.spawn(spec.launch ? spec.launch.wrap(argv) : argv, {
    cwd: spec.cwd,
    env: spec.launch ? spec.launch.environment(env) : env,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    // A new session/process group led by the shell: kill(-pid) then reaches all of it.
    detached: true,
  });
}

export class ShellProcess {
  readonly stdout: BoundedText;
  readonly stderr: BoundedText;
  /** Resolves when the shell has exited and its pipes are drained; rejects if it never started. */
  readonly exited: Promise<ShellExit>;
  private readonly child: Child | undefined;
  private leaderGone = false;
  private killing: Promise<void> | undefined;

  constructor(spec: ShellSpec) {
    this.stdout = new BoundedText(spec.maxOutputChars, spec.spillStem && `${spec.spillStem}.stdout.txt`);
    this.stderr = new BoundedText(spec.maxOutputChars, spec.spillStem && `${spec.spillStem}.stderr.txt`);
    let child: Child;
    try {
      child = spawnShell(spec);
    } catch (error) {
      this.leaderGone = true;
      this.exited = Promise.reject(error);
      // Handled by whoever awaits `exited`; never an unhandled rejection on its own.
      this.exited.catch(noop);
      return;
    }
    this.child = child;
    const readers = [child.stdout.getReader(), child.stderr.getReader()] as const;
    const pipes = Promise.all([pump(readers[0], this.stdout), pump(readers[1], this.stderr)]);
    this.exited = child.exited.then(async (code) => {
      this.leaderGone = true;
      const signal = child.signalCode;
      const result: ShellExit =
        signal === null || signal === undefined
          ? { exitCode: code, signal: null }
          : { exitCode: signalExitCode(signal), signal: typeof signal === "number" ? String(signal) : signal };
      let drainTimer: ReturnType<typeof setTimeout> | undefined;
      const drained = await Promise.race([
        pipes.then(() => true),
        new Promise<false>((resolve) => {
          drainTimer = setTimeout(() => resolve(false), DRAIN_GRACE_MS);
        }),
      ]);
      clearTimeout(drainTimer);
      if (!drained) {
        // A backgrounded grandchild still holds the pipes: stop reading and keep what came.
        for (const reader of readers) await reader.cancel().catch(noop);
      }
      return result;
    });
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return !this.leaderGone;
  }

  /**
   * SIGTERM to the whole group, SIGKILL to whatever is left once the shell has died or the grace
   * period is over. Resolves after the SIGKILL was sent, so callers can promise "nothing left".
   */
  kill(): Promise<void> {
    this.killing ??= this.killGroup();
    return this.killing;
  }

  private async killGroup(): Promise<void> {
    const pid = this.child?.pid;
    if (pid === undefined) return;
    signalGroup(pid, "SIGTERM");
    let timer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, KILL_GRACE_MS);
    });
    await Promise.race([this.exited.then(noop, noop), grace]);
    clearTimeout(timer);
    signalGroup(pid, "SIGKILL");
    await this.exited.then(noop, noop);
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone, which is what we wanted.
  }
}

function signalExitCode(signal: NodeJS.Signals | number): number | null {
  const number = typeof signal === "number" ? signal : constants.signals[signal];
  return typeof number === "number" ? 128 + number : null;
}

function noop(): void {}

export interface RunOptions extends ShellSpec {
  timeoutMs: number;
  signal: AbortSignal;
}

export interface RunResult extends ShellExit {
  stdout: string;
  stderr: string;
  timedOut: boolean;
  interrupted: boolean;
  /** The directory the command ended in (after any `cd`), if it still exists. */
  finalCwd: string | undefined;
}

/** Runs a command to completion (or timeout / abort) and reports where it left the working dir. */
export async function runShell(options: RunOptions): Promise<RunResult> {
  const empty = { stdout: "", stderr: "", exitCode: null, signal: null, finalCwd: undefined };
  if (options.signal.aborted) return { ...empty, timedOut: false, interrupted: true };

  // Inside a sandbox the command sees its own /tmp: the file is written there and read from outside.
  const name = `clew-cwd-${crypto.randomUUID()}`;
  const cwdFile = join(options.launch?.scratch.outside ?? tmpdir(), name);
  const shell = new ShellProcess({ ...options, command: withCwdTrailer(prefixed(options.command, options.env), join(options.launch?.scratch.inside ?? tmpdir(), name)) });
  let timedOut = false;
  let interrupted = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void shell.kill();
  }, options.timeoutMs);
  const onAbort = (): void => {
    interrupted = true;
    void shell.kill();
  };
  options.signal.addEventListener("abort", onAbort, { once: true });
  try {
    const exit = await shell.exited;
    if (timedOut || interrupted) await shell.kill();
    return {
      ...exit,
      stdout: shell.stdout.text(),
      stderr: shell.stderr.text(),
      timedOut,
      interrupted: interrupted || timedOut,
      finalCwd: readCwdFile(cwdFile),
    };
  } finally {
    clearTimeout(timer);
    options.signal.removeEventListener("abort", onAbort);
    rmSync(cwdFile, { force: true });
  }
}

/**
 * Appends `pwd -P` into a side file after the user's command, keeping the command's own exit
 * status. On its own line, so a trailing comment or heredoc in the command cannot swallow it.
 */
function withCwdTrailer(command: string, cwdFile: string): string {
  return `${command}\n__clew_status=$?\npwd -P >| ${shellQuote(cwdFile)} 2>/dev/null\nexit $__clew_status\n`;
}

function readCwdFile(path: string): string | undefined {
  try {
    const dir = readFileSync(path, "utf8").replace(/\n+$/, "");
    return dir.length > 0 && statSync(dir).isDirectory() ? dir : undefined;
  } catch {
    return undefined;
  }
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
