/**
 * The stdio transport: the server runs as a child process in its own process group (so closing
 * it also ends whatever it started), JSON-RPC messages one per line on stdin/stdout, stderr kept
 * as a short tail for `/mcp`. Written here rather than taken from the SDK because clew needs the
 * process group, the stderr tail, the exit status and the lines on stdout that are not protocol.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { Subprocess } from "bun";
import type { McpSdk } from "./load-sdk.ts";

export interface StdioLaunch {
  command: string;
  args: readonly string[];
  cwd: string;
  env: Readonly<Record<string, string>>;
}

const STDERR_LINES = 20;
const STRAY_LINES = 5;
/** One message larger than this means the stream is broken, not that the server is chatty. */
const MAX_LINE_CHARS = 64 * 1024 * 1024;
const KILL_GRACE_MS = 1500;

/** The executable a stdio entry names, resolved against its own PATH and working directory. */
export function resolveCommand(command: string, cwd: string, env: Readonly<Record<string, string>>): string | undefined {
  if (command.includes("/")) return Bun.which(command, { cwd, PATH: "" }) ?? undefined;
  return Bun.which(command, { cwd, PATH: env.PATH ?? "" }) ?? undefined;
}

export class StdioProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  /** The last lines the server wrote to stderr. */
  readonly stderrTail: string[] = [];
  /** Lines on stdout that were not JSON-RPC (the first few): a server that logs to stdout. */
  readonly strayStdout: string[] = [];
  /** "exited with code 1" / "was killed by SIGKILL", once the process has ended. */
  exitDescription?: string;
  private noteExit: () => void = () => undefined;
  /** Settles once the process's end has been noted (exitDescription set). */
  private readonly exitNoted = new Promise<void>((resolve) => {
    this.noteExit = resolve;
  });

  /**
   * Waits (at most `ms`) for the process's end to be noted: a write that fails with EPIPE is
   * usually the first sign of a server that exited, and the exit says more than the pipe.
   */
  async exitWithin(ms: number): Promise<void> {
    if (this.exitDescription !== undefined) return;
    await Promise.race([this.exitNoted, Bun.sleep(ms)]);
  }

  private process?: Subprocess<"pipe", "pipe", "pipe">;
  private closed = false;

  constructor(
    private readonly sdk: McpSdk,
    private readonly launch: StdioLaunch,
    private readonly onStderr?: () => void,
  ) {}

  get pid(): number | undefined {
    return this.process?.pid;
  }

  async start(): Promise<void> {
    const { command, args, cwd, env } = this.launch;
    const executable = resolveCommand(command, cwd, env);
    if (!executable) {
      throw new Error(`command not found: ${command} (looked in ${command.includes("/") ? cwd : "the PATH the server gets"})`);
    }
    const child = Bun.spawn([executable, ...args], { cwd, env: { ...env }, stdin: "pipe", stdout: "pipe", stderr: "pipe", detached: true });
    this.process = child;
    const stdoutDone = this.readStdout(child.stdout);
    void this.readStderr(child.stderr);
    void child.exited.then(async (code) => {
      // Messages written just before the exit are still delivered; a grandchild holding stdout
      // open must not keep the connection looking alive.
      await Promise.race([stdoutDone, Bun.sleep(200)]);
      this.exitDescription = child.signalCode ? `was killed by ${child.signalCode}` : `exited with code ${code}`;
      this.noteExit();
      this.signalGroup(child, "SIGKILL");
      this.finish();
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const child = this.process;
    if (!child || this.closed) throw new Error("the server process is not running");
    child.stdin.write(`${JSON.stringify(message)}\n`);
    await child.stdin.flush();
  }

  async close(): Promise<void> {
    const child = this.process;
    if (!child || this.closed) return;
    try {
      await child.stdin.end();
    } catch {
      // Already gone: the group signal below still applies.
    }
    this.signalGroup(child, "SIGTERM");
    const exited = await Promise.race([child.exited.then(() => true), Bun.sleep(KILL_GRACE_MS).then(() => false)]);
    if (!exited) this.signalGroup(child, "SIGKILL");
    this.finish();
  }

  private signalGroup(child: Subprocess, signal: NodeJS.Signals): void {
    try {
      process.kill(-child.pid, signal);
    } catch {
      try {
        child.kill(signal);
      } catch {
        // The process is already gone.
      }
    }
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }

  private async readStdout(stream: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let pending = "";
    try {
      for await (const chunk of stream) {
        const scanFrom = pending.length;
        pending += decoder.decode(chunk, { stream: true });
        if (pending.indexOf("\n", scanFrom) === -1) {
          if (pending.length > MAX_LINE_CHARS) {
            this.onerror?.(new Error(`the server wrote a line over ${MAX_LINE_CHARS} characters on stdout`));
            pending = "";
          }
          continue;
        }
        const lines = pending.split("\n");
        pending = lines.pop() ?? "";
        for (const line of lines) this.deliver(line.replace(/\r$/, ""));
      }
      if (pending.trim() !== "") this.deliver(pending);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private deliver(line: string): void {
    if (line.trim() === "") return;
    let message: JSONRPCMessage;
    try {
      message = this.sdk.JSONRPCMessageSchema.parse(JSON.parse(line));
    } catch {
      if (this.strayStdout.length < STRAY_LINES) this.strayStdout.push(line.length > 200 ? `${line.slice(0, 200)}…` : line);
      return;
    }
    this.onmessage?.(message);
  }

  private async readStderr(stream: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let pending = "";
    try {
      for await (const chunk of stream) {
        pending += decoder.decode(chunk, { stream: true });
        const lines = pending.split("\n");
        pending = lines.pop() ?? "";
        for (const line of lines) this.keepStderr(line);
        if (pending.length > 4000) {
          this.keepStderr(pending);
          pending = "";
        }
      }
      if (pending !== "") this.keepStderr(pending);
    } catch {
      // stderr is only for diagnostics.
    }
  }

  private keepStderr(line: string): void {
    const trimmed = line.replace(/\r$/, "");
    if (trimmed.trim() === "") return;
    this.stderrTail.push(trimmed.length > 500 ? `${trimmed.slice(0, 500)}…` : trimmed);
    if (this.stderrTail.length > STDERR_LINES) this.stderrTail.shift();
    this.onStderr?.();
  }
}
