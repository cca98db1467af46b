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
