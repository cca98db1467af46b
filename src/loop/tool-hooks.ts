/**
 * PreToolUse, PostToolUse and PostToolUseFailure around one tool call (hooks.md §6.4). The hooks
 * decide nothing on their own: a deny becomes an error result, an `updatedInput` is validated
 * again and goes through the permission gate like the model's own input, and an allow or ask is
 * handed to the gate, which never lets it loosen a rule.
 */
import type { HookRunner } from "../hooks/outcomes.ts";

/** What hooks added to one call, for the model (next to the result) and the loop (stop the turn). */
export interface HookExtras {
  context: string[];
  stop?: string;
}

export type PreToolVerdict =
  | { kind: "deny"; reason: string }
  | { kind: "proceed"; updatedInput?: Record<string, unknown>; decision?: "allow" | "ask"; reason?: string };

export function asRecord(input: unknown): Record<string, unknown> {
  return typeof input === "object" && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
}

export async function preToolUse(
  hooks: HookRunner | undefined,
  call: { id: string; name: string; input: unknown },
  extras: HookExtras,
  signal: AbortSignal,
): Promise<PreToolVerdict> {
  if (!hooks || !(hooks.hasHooksFor?.("PreToolUse", call.name) ?? hooks.hasHooks("PreToolUse"))) return { kind: "proceed" };
  const outcome = await hooks.fire("PreToolUse", { tool_name: call.name, tool_input: asRecord(call.input), tool_use_id: call.id }, { signal });
  extras.context.push(...outcome.additionalContext);
  if (outcome.stop) extras.stop = outcome.stop.reason;
  if (outcome.decision === "deny") return { kind: "deny", reason: outcome.reason || `A PreToolUse hook blocked this ${call.name} call.` };
  const verdict: PreToolVerdict = { kind: "proceed" };
  if (outcome.updatedInput) verdict.updatedInput = outcome.updatedInput;
  // `defer` is for SDK hosts resuming later; here it asks like `ask`.
  if (outcome.decision === "allow") verdict.decision = "allow";
  else if (outcome.decision === "ask" || outcome.decision === "defer") verdict.decision = "ask";
  if (outcome.reason) verdict.reason = outcome.reason;
  return verdict;
}

export async function postToolUse(
  hooks: HookRunner | undefined,
  call: { id: string; name: string; input: unknown },
  result: { failed: boolean; text: string; response: unknown; durationMs: number },
  extras: HookExtras,
  signal: AbortSignal,
): Promise<void> {
  const event = result.failed ? "PostToolUseFailure" : "PostToolUse";
  if (!hooks || !(hooks.hasHooksFor?.(event, call.name) ?? hooks.hasHooks(event))) return;
  const base = { tool_name: call.name, tool_input: asRecord(call.input), tool_use_id: call.id, duration_ms: Math.round(result.durationMs) };
  const outcome = result.failed
    ? await hooks.fire("PostToolUseFailure", { ...base, error: result.text }, { signal })
    : await hooks.fire("PostToolUse", { ...base, tool_response: result.response }, { signal });
  extras.context.push(...outcome.feedback, ...outcome.additionalContext);
  if (outcome.stop) extras.stop = outcome.stop.reason;
}
