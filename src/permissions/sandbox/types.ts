/**
 * The OS sandbox for Bash (spec §7), as data. Settings reach this folder already merged; the
 * shapes are repeated here because permissions/ may import only util/ (the settings schema is
 * `settings/schema/sandbox.ts`; both stay structurally assignable).
 */

/** One path a settings file lists, with what its relative form resolves against. */
export interface SandboxPathEntry {
  text: string;
  /** The project root for project and local settings, the user config dir for user settings. */
  base: string;
  /** Set when the entry comes from a permission rule (`Read(~/.aws/**)` deny → denyRead). */
  rule?: string;
}

/** What the merged `sandbox` settings say, with paths still as written. */
export interface SandboxConfig {
  enabled: boolean;
  failIfUnavailable: boolean;
  autoAllowBashIfSandboxed: boolean;
  allowUnsandboxedCommands: boolean;
  excludedCommands: readonly string[];
  allowWrite: readonly SandboxPathEntry[];
  denyWrite: readonly SandboxPathEntry[];
  denyRead: readonly SandboxPathEntry[];
  allowRead: readonly SandboxPathEntry[];
  allowedDomains: readonly string[];
  deniedDomains: readonly string[];
  allowLocalBinding: boolean;
  strictAllowlist: boolean;
}

export interface NetworkPolicy {
  allowedDomains: readonly string[];
  deniedDomains: readonly string[];
  allowLocalBinding: boolean;
}

/** The boundary one sandboxed command runs in: absolute paths, nothing left to resolve. */
export interface SandboxPolicy {
  /** Writable: the working directories and `allowWrite`. Everything else is read-only. */
  writable: readonly string[];
  /** Read-only even inside a writable directory: `denyWrite`. */
  denyWrite: readonly string[];
  /** Unreadable: `denyRead`. */
  denyRead: readonly string[];
  /** Readable again inside a `denyRead` region. */
  allowRead: readonly string[];
  network: NetworkPolicy;
  /** Entries that could not be applied, each with why (a glob bwrap cannot mount, …). */
  skipped: readonly { entry: string; list: string; why: string; rule?: string }[];
}

/**
 * The rules one command runs under: the session's, or those of a helper agent working in its own
 * git worktree (that worktree writable instead of the project). The network and the denied paths
 * are the session's either way.
 */
export interface SandboxBoundary {
  policy: SandboxPolicy;
  /** Read-only even inside a writable directory: policy.ts `protectedPaths`, and a linked worktree's links to its repository. */
  protectedPaths: readonly string[];
  /**
   * Directories shown read-only before the writable ones are mounted: the project, for a helper in
   * a worktree inside it (a project under /tmp would otherwise vanish behind the private /tmp).
   */
  readOnlyDirs: readonly string[];
}

/**
 * How a command is started inside the sandbox (structurally the `ShellLaunch` of
 * tools/shared/shell.ts).
 */
export interface SandboxLaunch {
  /** The argv that runs `argv` (the shell) inside the sandbox. */
  wrap(argv: readonly string[]): string[];
  /** The child's environment from the session's: proxy variables set, NO_PROXY removed, TMPDIR inside. */
  environment(base: Readonly<Record<string, string>>): Record<string, string>;
  /** A directory both the command and clew can write: its path inside the sandbox and outside. */
  scratch: { inside: string; outside: string };
}

/** Whether the sandbox can run here, and if not, why and what to do. */
export type SandboxAvailability =
  | { available: true; platform: "linux" | "darwin"; tool: string }
  | { available: false; reason: string; fix: string };

/** What the permission gate needs to know (spec §7.3). */
export interface SandboxView {
  /** The sandbox runs and `autoAllowBashIfSandboxed` is on: a sandboxed command needs no prompt. */
  autoAllow: boolean;
  /** `allowUnsandboxedCommands`: whether `dangerouslyDisableSandbox: true` is honoured. */
  allowUnsandboxed: boolean;
  /** `excludedCommands`, Bash-rule syntax: the whole line runs unsandboxed when any part matches. */
  excludedCommands: readonly string[];
}
