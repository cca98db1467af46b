/**
 * A gate driven by the permission mode alone: reads are always allowed, `acceptEdits` adds file
 * edits, `bypassPermissions` allows everything, and anything that would need a human is denied
 * with a reason the model can act on (headless runs have nobody to ask).
 */
import type { Gate, PermissionDecision, PermissionMode, PermissionRequest } from "./types.ts";

function denyReason(request: PermissionRequest, mode: PermissionMode): string {
  if (mode === "plan") {
    return `${request.toolName} is not available in plan mode: clew is only allowed to read and plan. Present the plan to the user instead of making changes.`;
  }
  return `Permission to use ${request.toolName} was denied: it needs approval and nobody can approve it in this session. Do not retry this call; continue with what you can do, or explain what you need.`;
}

export function modeDecision(request: PermissionRequest, mode: PermissionMode): PermissionDecision {
  if (mode === "bypassPermissions") return { behavior: "allow" };
  if (request.access === "read") return { behavior: "allow" };
  if (mode === "acceptEdits" && request.access === "write") return { behavior: "allow" };
  return { behavior: "deny", reason: denyReason(request, mode) };
}

export function createModeGate(mode: PermissionMode): Gate {
  return { check: async (request) => modeDecision(request, mode) };
}
