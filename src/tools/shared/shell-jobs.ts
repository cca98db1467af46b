/**
 * Background shell jobs started by `Bash` with `run_in_background`, read with `BashOutput` and
 * stopped with `KillShell`. Owned by the session; every job is killed when the session ends.
 */
import { errorMessage } from "../../util/errors.ts";
import { prefixed, ShellProcess, type ShellSpec } from "./shell.ts";

export type ShellJobStatus = "running" | "completed" | "failed" | "killed";

export interface ShellJobSpec extends ShellSpec {
  /** The short summary the model gave for the command, for listings. */
  description?: string;
}

export interface ShellJobOutput {
  stdout: string;
  stderr: string;
}

export interface ShellJob {
  /** `bash_1`, `bash_2`, … — the id the model passes to BashOutput and KillShell. */
  readonly id: string;
  readonly command: string;
  readonly description: string | undefined;
  readonly status: ShellJobStatus;
  /** Set once the job has ended (128 + signal number when a signal ended it). */
  readonly exitCode: number | null;
  /** Resolves when the job has ended, however it ended. Never rejects. */
  readonly done: Promise<void>;
  /** Output produced since the previous call (bounded like Bash output); it is not kept after. */
  takeOutput(): ShellJobOutput;
}

export interface ShellJobs {
  start(spec: ShellJobSpec): ShellJob;
  get(id: string): ShellJob | undefined;
  /** Every id handed out in this session, oldest first. */
  ids(): string[];
  /** Kills the job's whole process group. Resolves once nothing of it is left running. */
  kill(id: string): Promise<void>;
  /** Called when the session ends, so no job outlives it. */
  killAll(): Promise<void>;
}

class BackgroundJob implements ShellJob {
  readonly command: string;
  readonly description: string | undefined;
  readonly done: Promise<void>;
  private readonly process: ShellProcess;
  private state: ShellJobStatus = "running";
  private code: number | null = null;
  private killRequested = false;
  private startError: string | undefined;

  constructor(
    readonly id: string,
    spec: ShellJobSpec,
  ) {
    this.command = spec.command;
    this.description = spec.description;
    this.process = new ShellProcess({ ...spec, command: prefixed(spec.command, spec.env) });
    this.done = this.process.exited.then(
      (exit) => {
        this.code = exit.exitCode;
        if (this.killRequested) this.state = "killed";
        else this.state = exit.exitCode === 0 ? "completed" : "failed";
      },
      (error: unknown) => {
        this.startError = `Failed to start: ${errorMessage(error)}`;
        this.state = "failed";
      },
    );
  }

  get status(): ShellJobStatus {
    return this.state;
  }

  get exitCode(): number | null {
    return this.code;
  }

  takeOutput(): ShellJobOutput {
    let stderr = this.process.stderr.take();
    if (this.startError !== undefined) {
      stderr = stderr.length > 0 ? `${stderr}\n${this.startError}` : this.startError;
      this.startError = undefined;
    }
    return { stdout: this.process.stdout.take(), stderr };
  }

  async kill(): Promise<void> {
    if (this.state === "running") this.killRequested = true;
    await this.process.kill();
    await this.done;
  }
}

export class ShellJobRegistry implements ShellJobs {
  private readonly jobs = new Map<string, BackgroundJob>();
  private counter = 0;

  start(spec: ShellJobSpec): ShellJob {
    this.counter += 1;
    const job = new BackgroundJob(`bash_${this.counter}`, spec);
    this.jobs.set(job.id, job);
    return job;
  }

  get(id: string): ShellJob | undefined {
    return this.jobs.get(id);
  }

  ids(): string[] {
    return [...this.jobs.keys()];
  }

  async kill(id: string): Promise<void> {
    await this.jobs.get(id)?.kill();
  }

  async killAll(): Promise<void> {
    // Finished jobs may still have grandchildren holding the group, so every group gets the kill.
    await Promise.all([...this.jobs.values()].map((job) => job.kill()));
  }
}
