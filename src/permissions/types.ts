/**
 * The permission seam. The executor asks the gate about every call, built-in or not; the gate
 * decides from data (rules, mode) and, where a human can be asked, through an injected port.
 */
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
}

export type PermissionDecision =
  | { behavior: "allow" }
  /** `reason` is written for the model: it says why and what to do instead. */
  | { behavior: "deny"; reason: string };

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
