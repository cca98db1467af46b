/**
 * The words of a permission decision. They are read by the model (and shown to the user), so
 * each says what was decided, because of which rule or check, and what to do next.
 */
import type { InactiveRule, PermissionRule } from "./rules.ts";
import type { PermissionCall, PermissionEvaluation, UnappliedRule } from "./types.ts";

const SCOPE_NAMES: Record<string, string> = {
  managed: "managed settings",
  cli: "a command-line flag",
  local: "local project settings",
  project: "project settings",
  user: "user settings",
  session: "a grant for this session",
};

export function ruleOrigin(rule: PermissionRule): string {
  return rule.source.file ?? SCOPE_NAMES[rule.source.scope] ?? rule.source.scope;
}

function clip(text: string, max = 200): string {
  const oneLine = text.replace(/\s*\n\s*/g, " ⏎ ");
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}

/** "Bash command `ls`", "Read of /repo/.env", "WebFetch of https://x.dev". */
export function describeCall(call: PermissionCall): string {
  if (call.subject === "") return call.toolName;
  if (call.toolName === "Bash" || call.toolName === "Monitor" || call.toolName === "PowerShell") {
    return `${call.toolName} command \`${clip(call.subject)}\``;
  }
  return `${call.toolName} of ${clip(call.subject)}`;
}

export function deniedByRule(call: PermissionCall, rule: PermissionRule, detail?: string): PermissionEvaluation {
  const what = detail ? ` (${detail})` : "";
  return {
    behavior: "deny",
    rule: rule.text,
    reason: `Permission to use ${describeCall(call)} was denied by the deny rule ${rule.text} in ${ruleOrigin(rule)}${what}. Do not retry this or reach the same result another way (another tool, command or path); continue without it, or tell the user what you need.`,
  };
}

export function askedByRule(call: PermissionCall, rule: PermissionRule, detail?: string): PermissionEvaluation {
  const what = detail ? ` (${detail})` : "";
  return {
    behavior: "ask",
    rule: rule.text,
    reason: `${describeCall(call)} needs approval: it matches the ask rule ${rule.text} in ${ruleOrigin(rule)}${what}.`,
  };
}

export function allowedByRule(rule: PermissionRule): PermissionEvaluation {
  return { behavior: "allow", rule: rule.text, reason: `Allowed by ${rule.text} in ${ruleOrigin(rule)}.` };
}

export function allowed(why: string): PermissionEvaluation {
  return { behavior: "allow", reason: `Allowed: ${why}.` };
}

export function needsApproval(call: PermissionCall, why: string, suggestions?: string[]): PermissionEvaluation {
  const evaluation: PermissionEvaluation = { behavior: "ask", reason: `${describeCall(call)} needs approval: ${why}.` };
  if (suggestions && suggestions.length > 0) evaluation.suggestions = suggestions;
  return evaluation;
}

export function planModeDenied(call: PermissionCall): PermissionEvaluation {
  return {
    behavior: "deny",
    reason: `${describeCall(call)} is not allowed in plan mode: plan mode only reads and plans, it does not change files or run commands that do. Finish the plan and present it (ExitPlanMode) instead of making changes.`,
  };
}

/** dontAsk mode: whatever would ask is denied. */
export function dontAskDenied(evaluation: PermissionEvaluation): PermissionEvaluation {
  return {
    ...evaluation,
    behavior: "deny",
    reason: `${evaluation.reason.replace(/\.$/, "")}; in dontAsk mode anything that needs approval is denied. Do not retry it in another form; continue with what is allowed, or tell the user what you need.`,
  };
}

/** Headless runs: an approval nobody can give. */
export function unapprovable(evaluation: PermissionEvaluation): PermissionEvaluation {
  return {
    ...evaluation,
    behavior: "deny",
    reason: `${evaluation.reason.replace(/\.$/, "")}, and nobody can approve it in this session. Do not retry it in another form (another tool, command or path); continue with what you can do, or tell the user what you need and why.`,
  };
}

export function rejectedByUser(call: PermissionCall, comment?: string): PermissionEvaluation {
  const said = comment ? ` The user said: ${comment}` : "";
  return {
    behavior: "deny",
    reason: `The user rejected ${describeCall(call)}.${said} Do not retry it; ask the user how to proceed if it is unclear.`,
  };
}

/** Records which rules would have allowed the call but did not apply (see `fullReason`). */
export function withUnapplied(evaluation: PermissionEvaluation, unapplied: readonly UnappliedRule[]): PermissionEvaluation {
  if (unapplied.length === 0 || evaluation.behavior === "allow") return evaluation;
  return { ...evaluation, unapplied: [...unapplied] };
}

/** The reason followed by what it says of rules that did not apply, and what would put them in force. */
export function fullReason(evaluation: PermissionEvaluation): string {
  const notes = (evaluation.unapplied ?? []).slice(0, 3).map((entry) =>
    entry.fix
      ? ` The allow rule ${entry.rule} in ${entry.origin} would allow it but is not in force: ${entry.why}; to apply it, ${entry.fix}.`
      : ` The allow rule ${entry.rule} in ${entry.origin} matches it too, but ${entry.why}.`,
  );
  return `${evaluation.reason}${notes.join("")}`;
}

export function inactiveNote(rule: InactiveRule): UnappliedRule {
  return { rule: rule.text, origin: ruleOrigin(rule), why: rule.why, fix: rule.fix };
}

export function overruledNote(rule: PermissionRule, by: "deny" | "ask" | "read"): UnappliedRule {
  const why = by === "read" ? "a Read deny rule holds for every command that could read the file" : `${by} rules take precedence over allow rules`;
  return { rule: rule.text, origin: ruleOrigin(rule), why };
}

/** The fallback ask when nothing allows a call: a PreToolUse hook's allow may waive it. */
export function notAllowed(call: PermissionCall, why: string, suggestions?: string[]): PermissionEvaluation {
  return { ...needsApproval(call, why, suggestions), waivable: true };
}

export function allowedByHook(reason?: string): PermissionEvaluation {
  return { behavior: "allow", reason: `Allowed by a PreToolUse hook${reason ? `: ${reason}` : ""}.` };
}

export function askedByHook(call: PermissionCall, reason?: string): PermissionEvaluation {
  return needsApproval(call, `a PreToolUse hook asks for approval${reason ? ` (${reason})` : ""}`);
}

export function rejectedByHook(call: PermissionCall, message?: string): PermissionEvaluation {
  return {
    behavior: "deny",
    reason: `A PermissionRequest hook denied ${describeCall(call)}${message ? `: ${message}` : "."} Do not retry it in another form; continue without it, or tell the user what you need.`,
  };
}
