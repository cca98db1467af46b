/**
 * Background shell jobs started by `Bash` with `run_in_background`, read with `BashOutput` and
 * stopped with `KillShell`. Owned by the session; every job is killed when the session ends.
 */
export interface ShellJobs {
  killAll(): Promise<void>;
}
