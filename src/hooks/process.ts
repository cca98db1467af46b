/**
 * Starts one hook process: the input JSON on stdin (then closed), output captured in bounded
 * buffers, its own process group (detached), so a timeout or abort kills the hook together with
 * everything it started. A grandchild that keeps the pipes open after the hook itself exited
 * does not hold the session: the pipes get a short grace period and are then let go.
 */
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

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Signals are delivered asynchronously: wait until the group is really gone, so "killed" means
 * nothing of the hook still runs. Bounded, because members that died but were not yet reaped by
 * their new parent still count as present.
 */
async function groupGone(pid: number): Promise<void> {
  const deadline = performance.now() + GROUP_EXIT_WAIT_MS;
  while (groupAlive(pid) && performance.now() < deadline) await delay(10);
}

function exitCodeOf(code: number | null, signal: NodeJS.Signals | number | null): number {
  if (code !== null) return code;
  if (typeof signal === "number") return 128 + signal;
  const number = signal ? constants.signals[signal] : undefined;
  return typeof number === "number" ? 128 + number : 1;
}

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
  try {
    child.stdin.write(spec.stdin);
    void Promise.resolve(child.stdin.end()).catch(() => undefined);
  } catch {
    // The hook exited (or closed stdin) before reading its input; that is its business.
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
