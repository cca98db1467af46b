/**
 * Starts one hook process: the input JSON on stdin (then closed), output captured in bounded
 * buffers, its own process group (detached), so a timeout or abort kills the hook together with
 * everything it started. A grandchild that keeps the pipes open after the hook itself exited
 * does not hold the session: the pipes get a short grace period and are then let go.
 */
import { readdirSync, readFileSync } from "node:fs";
import { constants } from "node:os";

/** How long the process group gets to honour SIGTERM before SIGKILL. */
const KILL_GRACE_MS = 500;
/** How long to wait for a SIGKILLed group to disappear. */
const GROUP_EXIT_WAIT_MS = 1000;
/** How long pipes may stay open after the hook process itself has exited. */
const DRAIN_GRACE_MS = 200;
/** Per stream; a hook that prints more than this has its output cut (and says so in the record). */
const MAX_CAPTURE_BYTES = 1_000_000;

export type ProcessRun =
  | { kind: "exited"; exitCode: number; stdout: string; stderr: string }
  | { kind: "timeout"; stdout: string; stderr: string }
  | { kind: "cancelled"; stdout: string; stderr: string };

export interface ProcessSpec {
  argv: readonly string[];
  cwd: string;
  env: Readonly<Record<string, string>>;
  stdin: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface RunningProcess {
  done: Promise<ProcessRun>;
  /** Kills the whole process group (SIGTERM, then SIGKILL); resolves once the hook has exited. */
  kill(): Promise<void>;
}

class Capture {
  private readonly chunks: Uint8Array[] = [];
  private size = 0;
  private truncated = false;
  private cancel: (() => void) | undefined;
  readonly finished: Promise<void>;

  constructor(stream: ReadableStream<Uint8Array>) {
    const reader = stream.getReader();
    this.cancel = () => void reader.cancel().catch(() => undefined);
    this.finished = this.pump(reader);
  }

  private async pump(reader: { read(): Promise<{ done: boolean; value?: Uint8Array }> }): Promise<void> {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done || value === undefined) return;
        if (this.size + value.byteLength <= MAX_CAPTURE_BYTES) {
          this.chunks.push(value);
          this.size += value.byteLength;
        } else this.truncated = true;
      }
    } catch {
      // Cancelled after the drain grace period, or the pipe broke: keep what arrived.
    }
  }

  release(): void {
    this.cancel?.();
    this.cancel = undefined;
  }

  text(): string {
    const text = new TextDecoder().decode(Buffer.concat(this.chunks));
    return this.truncated ? `${text}\n[output cut at ${MAX_CAPTURE_BYTES} bytes]` : text;
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the whole group is already gone.
  }
}

/** Whether any process of the group still runs. Members that died but await reaping do not count. */
function groupRunning(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    // No /proc (macOS): the signal probe above is all there is.
    return true;
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue;
    }
    // After the parenthesised command name: state, ppid, pgrp, …
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(pgrp) === pgid && state !== "Z" && state !== "X") return true;
  }
  return false;
}

/**
 * Signals are delivered asynchronously: wait until nothing of the group runs any more, so "killed"
 * means killed. Bounded, in case a member is stuck in the kernel (state D).
 */
async function groupGone(pgid: number): Promise<void> {
  const deadline = performance.now() + GROUP_EXIT_WAIT_MS;
  while (groupRunning(pgid) && performance.now() < deadline) await delay(10);
}

function exitCodeOf(code: number | null, signal: NodeJS.Signals | number | null): number {
  if (code !== null) return code;
  if (typeof signal === "number") return 128 + signal;
  const number = signal ? constants.signals[signal] : undefined;
  return typeof number === "number" ? 128 + number : 1;
}

function ignore(): void {}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function startProcess(spec: ProcessSpec): RunningProcess {
  const child = Bun.spawn([...spec.argv], {
    cwd: spec.cwd,
    env: { ...spec.env },
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
    // A new process group led by the hook: kill(-pid) reaches every process it started.
    detached: true,
  });
  const stdout = new Capture(child.stdout);
  const stderr = new Capture(child.stderr);
  // A hook may exit (or close stdin) without reading its input; the broken pipe is its business.
  try {
    void Promise.resolve(child.stdin.write(spec.stdin)).catch(ignore);
    void Promise.resolve(child.stdin.end()).catch(ignore);
  } catch {
    // Raised synchronously when the pipe is already closed.
  }

  let killing: Promise<void> | undefined;
  const kill = (): Promise<void> => {
    killing ??= (async () => {
      signalGroup(child.pid, "SIGTERM");
      await Promise.race([child.exited, delay(KILL_GRACE_MS)]);
      // Unconditionally: a grandchild may ignore SIGTERM after the hook itself died.
      signalGroup(child.pid, "SIGKILL");
      await child.exited;
      await groupGone(child.pid);
    })();
    return killing;
  };

  let reason: "timeout" | "cancelled" | undefined;
  const timer = setTimeout(() => {
    reason ??= "timeout";
    void kill();
  }, spec.timeoutMs);
  const onAbort = (): void => {
    reason ??= "cancelled";
    void kill();
  };
  if (spec.signal?.aborted) onAbort();
  else spec.signal?.addEventListener("abort", onAbort, { once: true });

  const done = (async (): Promise<ProcessRun> => {
    await child.exited;
    await Promise.race([Promise.all([stdout.finished, stderr.finished]), delay(DRAIN_GRACE_MS)]);
    stdout.release();
    stderr.release();
    clearTimeout(timer);
    spec.signal?.removeEventListener("abort", onAbort);
    if (reason !== undefined) {
      await kill();
      return { kind: reason, stdout: stdout.text(), stderr: stderr.text() };
    }
    return { kind: "exited", exitCode: exitCodeOf(child.exitCode, child.signalCode), stdout: stdout.text(), stderr: stderr.text() };
  })();
  return { done, kill };
}
