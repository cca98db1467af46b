/**
 * The Gate the executor calls: evaluates each request and, when the answer is "ask", asks a
 * human through the optional approval port. Without a port (headless `-p`) an ask becomes a
 * denial the model can act on. "Allow for this session" grants live here, in memory.
 */
import { evaluate } from "./evaluate.ts";
import * as say from "./reasons.ts";
import { compileRules, type RuleSet } from "./rules.ts";
import type { ApprovalPort, Gate, PermissionCall, PermissionContext, PermissionDecision, PermissionEvaluation, PermissionRequest, RuleWarning } from "./types.ts";

export interface GateOptions {
  /** The rules in force; a function so that reloaded settings apply from the next call. */
  rules: RuleSet | (() => RuleSet);
  /** A function so that mode changes (Shift+Tab) and `cd` apply from the next call. */
  context: PermissionContext | (() => PermissionContext);
  /** Asks a human; absent in headless runs, where whatever needs approval is denied. */
  ask?: ApprovalPort;
  /** Sees every evaluation (for `/permissions` "recently denied", transcripts, tests). */
  observe?: (request: PermissionRequest, evaluation: PermissionEvaluation) => void;
}

export interface PermissionGate extends Gate {
  /** Rules granted for the rest of this session, as written. */
  sessionGrants(): string[];
  /** Adds session grants; returns warnings for any that could not be read. */
  grant(rules: readonly string[]): RuleWarning[];
}

function resolveValue<T>(value: T | (() => T)): T {
  return typeof value === "function" ? (value as () => T)() : value;
}

function toDecision(evaluation: PermissionEvaluation): PermissionDecision {
  if (evaluation.behavior === "allow") return evaluation.rule ? { behavior: "allow", rule: evaluation.rule } : { behavior: "allow" };
  const decision: PermissionDecision = { behavior: "deny", reason: say.fullReason(evaluation) };
  if (evaluation.rule) decision.rule = evaluation.rule;
  return decision;
}

export function createGate(options: GateOptions): PermissionGate {
  const grants: string[] = [];
  let granted: RuleSet = compileRules([]);

  const grant = (rules: readonly string[]): RuleWarning[] => {
    const context = resolveValue(options.context);
    const fresh = rules.filter((rule) => !grants.includes(rule));
    grants.push(...fresh);
    granted = compileRules(grants.map((text) => ({ text, kind: "allow", source: { scope: "session", root: context.cwd } })));
    return granted.warnings.filter((warning) => fresh.includes(warning.rule));
  };

  const check = async (request: PermissionRequest): Promise<PermissionDecision> => {
    const context = resolveValue(options.context);
    const base = resolveValue(options.rules);
    const rules: RuleSet = { ...base, allow: [...base.allow, ...granted.allow] };
    const call: PermissionCall = { toolName: request.toolName, access: request.access, input: request.input, subject: request.subject };
    if (request.requiresUserInteraction) call.requiresUserInteraction = true;
    const evaluation = await evaluate(rules, call, context);
    options.observe?.(request, evaluation);
    if (evaluation.behavior !== "ask") return toDecision(evaluation);
    if (context.mode === "dontAsk") return toDecision(say.dontAskDenied(evaluation));
    if (!options.ask) return toDecision(say.unapprovable(evaluation));
    const answer = await options.ask(request, evaluation);
    if (!answer.allow) return toDecision(say.rejectedByUser(call, answer.reason));
    if (answer.remember && answer.remember.length > 0) grant(answer.remember);
    return { behavior: "allow" };
  };

  return { check, grant, sessionGrants: () => [...grants] };
}
