/**
 * The permission seam. The executor asks the gate about every call, built-in or not; the gate
 * decides from data (rules, mode) and, where a human can be asked, through an injected port.
 */
import type { SandboxView } from "./sandbox/types.ts";

/** Drives permission defaults and scheduling: consecutive `read` calls run concurrently. */
export type ToolAccess = "read" | "write" | "exec" | "network";

export type PermissionMode = "default" | "acceptEdits" | "plan" | "bypassPermissions" | "dontAsk";

export const PERMISSION_MODES: readonly PermissionMode[] = ["default", "acceptEdits", "plan", "bypassPermissions", "dontAsk"];

export interface PermissionRequest {
  toolName: string;
  access: ToolAccess;
  /** The string rules match: a path for file tools, the command for Bash. */
  subject: string;
  input: unknown;
  toolUseId: string;
  /** MCP tools annotated `_meta["anthropic/requiresUserInteraction"]`: never approved without a human. */
  requiresUserInteraction?: boolean;
  /** A PreToolUse hook's decision: `allow` skips a prompt nothing insists on, `ask` forces one. */
  hookDecision?: "allow" | "ask";
  hookReason?: string;
  /** A helper agent's own mode (Explore runs in plan mode whatever the session's mode is). */
  mode?: PermissionMode;
  /** Which helper agent makes the call, for the approval prompt: `Explore: find the parser`. */
  agent?: string;
}

export type PermissionDecision =
  | { behavior: "allow"; rule?: string }
  /** `reason` is written for the model: it says why and what to do instead. */
  | { behavior: "deny"; reason: string; rule?: string };

export interface Gate {
  check(request: PermissionRequest): Promise<PermissionDecision>;
}

export type RuleKind = "allow" | "ask" | "deny";

export type RuleScope = "managed" | "cli" | "local" | "project" | "user" | "session";

/** Where a rule came from: for messages, `/permissions`, and resolving `/path` patterns. */
export interface RuleSource {
  scope: RuleScope;
  /** The settings file, or undefined for flags and session grants. */
  file?: string;
  /**
   * What a rule's single leading `/` is relative to: the project root for project settings, the
   * start directory for local settings and flags, the user config dir for user settings, the
   * file's own directory for `--settings <file>`.
   */
  root: string;
}

/** A rule string exactly as written, with its kind and origin (parsed by permissions/rules.ts). */
export interface RuleInput {
  text: string;
  kind: RuleKind;
  source: RuleSource;
}

/** A rule written in settings but not in force (an untrusted folder, a broken file, managed-only rules). */
export interface InactiveRuleInput extends RuleInput {
  why: string;
  fix: string;
}

export type PermissionBehavior = "allow" | "ask" | "deny";

/** One tool call as the permission engine sees it. */
export interface PermissionCall {
  toolName: string;
  access: ToolAccess;
  input: unknown;
  /** What the tool's `subject()` returned: the command for Bash, the resolved absolute path for file tools. */
  subject: string;
  /** MCP tools annotated `_meta["anthropic/requiresUserInteraction"]`: never approved without a human. */
  requiresUserInteraction?: boolean;
}

/** Everything evaluation needs from outside, passed in so that evaluation stays pure. */
export interface PermissionContext {
  mode: PermissionMode;
  /** The session's working directory; relative rule patterns and paths resolve against it. */
  cwd: string;
  /** Additional working directories (`--add-dir`, `permissions.additionalDirectories`). */
  workingDirs: readonly string[];
  homeDir: string;
  /** The real path of an existing file or directory, undefined when it does not exist. */
  realpath: (path: string) => string | undefined;
  /** Where Bash runs now (a `cd` carries over between calls); relative paths in commands resolve here. Default: `cwd`. */
  shellCwd?: string;
  /**
   * The read gate's views of the file system; without them it assumes the worst (a directory may
   * hold a denied file, git may track one), so a missing port never loosens a Read deny.
   */
  files?: FileSystemView;
  /** The OS sandbox Bash runs in, when it is on and works here (spec §7.3 auto-allow). */
  sandbox?: SandboxView;
}

export type DirEntryKind = "file" | "dir" | "symlink" | "other";

export interface FileSystemView {
  /** The entries of a directory, or undefined when it cannot be read. */
  listDir(dir: string): Array<{ name: string; kind: DirEntryKind }> | undefined;
  /** Absolute paths of the files git tracks (the index) in the repository holding `dir`; undefined outside a repository. */
  gitTracked(dir: string): readonly string[] | undefined;
  /**
   * Whether any commit of the repository holding `dir` (any branch, stash or tag) has a file an
   * absolute glob pattern matches: history git can still show after the file left the index.
   */
  gitHistoryHas(dir: string, patterns: readonly string[]): boolean;
  /** Bash's expansion of a glob in `dir`: absolute paths, or undefined when there are too many to check. */
  expandGlob(pattern: string, dir: string): string[] | undefined;
  /**
   * A setting of the repository's own git configuration (holding `dir`) that makes git's
   * read-only commands run a program, as `section.key` with its file; undefined when none does.
   */
  gitConfigRisk?(dir: string): { setting: string; file: string } | undefined;
}

export interface PermissionEvaluation {
  behavior: PermissionBehavior;
  /** Written for the model and the user: which rule or check decided, and what to do next. */
  reason: string;
  /** The rule that decided, as written in settings. */
  rule?: string;
  /** The narrowest allow rules that would approve this call next time ("don't ask again"). */
  suggestions?: string[];
  /**
   * An ask only because nothing allows the call (no rule, the mode's default) — not an ask rule,
   * a protected path or a safety check — so a PreToolUse hook's `allow` may waive it.
   */
  waivable?: boolean;
  /**
   * Rules that would have allowed the call but did not apply: not in force (`why`, `fix`), or
   * overruled by the rule that decided. Told to the model after `reason` (reasons.ts `fullReason`).
   */
  unapplied?: UnappliedRule[];
}

export interface UnappliedRule {
  rule: string;
  /** The settings file (or scope) it is written in. */
  origin: string;
  /** "this folder is not trusted …", "deny rules take precedence". */
  why: string;
  /** What would put it in force, when something would. */
  fix?: string;
}

/** A rule that was ignored, widened or is likely a mistake; never an exception. */
export interface RuleWarning {
  rule: string;
  kind: RuleKind;
  source: RuleSource;
  message: string;
}

/** What a human answered to an approval prompt. */
export interface ApprovalAnswer {
  allow: boolean;
  /** Sent to the model as the denial reason, or after the result when allowed. */
  reason?: string;
  /** Allow rules to keep for the rest of the session ("allow for this session"). */
  remember?: string[];
}

export type ApprovalPort = (request: PermissionRequest, evaluation: PermissionEvaluation) => Promise<ApprovalAnswer>;
