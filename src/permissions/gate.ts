/**
 * The Gate the executor calls: evaluates each request and, when the answer is "ask", asks a
 * human through the optional approval port. Without a port (headless `-p`) an ask becomes a
 * denial the model can act on. "Allow for this session" grants live here, in memory.
 */
import { evaluate } from "./evaluate.ts";
import * as say from "./reasons.ts";
import { compileRules, type RuleSet } from "./rules.ts";
import type { SandboxView } from "./sandbox/types.ts";
import type { ApprovalAnswer, ApprovalPort, Gate, PermissionCall, PermissionContext, PermissionDecision, PermissionEvaluation, PermissionRequest, RuleWarning } from "./types.ts";

export interface GateOptions {
  /** The rules in force; a function so that reloaded settings apply from the next call. */
  rules: RuleSet | (() => RuleSet);
  /** A function so that mode changes (Shift+Tab) and `cd` apply from the next call. */
  context: PermissionContext | (() => PermissionContext);
  /** Asks a human; absent in headless runs, where whatever needs approval is denied. */
  ask?: ApprovalPort;
  /** Sees every evaluation (for `/permissions` "recently denied", transcripts, tests). */
  observe?: (request: PermissionRequest, evaluation: PermissionEvaluation) => void;
  /** PermissionRequest hooks: may answer an approval before a human is asked (undefined: ask as usual). */
  beforeAsk?: (request: PermissionRequest, evaluation: PermissionEvaluation) => Promise<ApprovalAnswer | undefined>;
  /** PermissionDenied hooks: told of every denial nobody was asked about; may add a note for the model. */
  onAutoDeny?: (request: PermissionRequest, reason: string) => Promise<string | undefined>;
}

/**
 * A call as a helper agent makes it: where its shell is now (a helper keeps its own `cd`, and one
 * in a worktree starts there), so relative paths in its commands resolve where they will run.
 */
export interface ScopedRequest extends PermissionRequest {
  shellCwd?: string;
}

/** What a helper agent's calls go through: the session's gate. */
export interface ScopedGate {
  check(request: ScopedRequest): Promise<PermissionDecision>;
}

export interface PermissionGate extends Gate, ScopedGate {
  check(request: ScopedRequest): Promise<PermissionDecision>;
  /** Rules granted for the rest of this session, as written. */
  sessionGrants(): string[];
  /** Adds session grants; returns warnings for any that could not be read. */
  grant(rules: readonly string[]): RuleWarning[];
  /** Grants until the user's next message (a skill's `allowed-tools`). */
  grantForTurn(rules: readonly string[]): RuleWarning[];
  /** The user sent a new message: turn grants end. */
  endTurn(): void;
  /** The decision without asking anyone: an ask is a denial (`!cmd` in a skill must be allowed outright). */
  peek(request: PermissionRequest): Promise<PermissionDecision>;
  /** The OS sandbox Bash runs in (app/sandbox-setup.ts, once it is known to start); undefined: none. */
  useSandbox(view: SandboxView | undefined): void;
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
  let turnGranted: RuleSet = compileRules([]);
  let sandbox: SandboxView | undefined;
  /**
   * Sandbox auto-allow only where the command will run through a sandbox port: the Bash calls of
   * the main conversation and of helper agents (whose tool sessions carry the session's sandbox,
   * or one narrowed to their worktree). Not for `peek`: a skill's `!cmd` runs as a plain child.
   */
  const contextNow = (request?: ScopedRequest): PermissionContext => {
    const context = resolveValue(options.context);
    const here = request?.shellCwd !== undefined ? { ...context, shellCwd: request.shellCwd } : context;
    return sandbox && request !== undefined ? { ...here, sandbox } : here;
  };

  const compile = (texts: readonly string[]): RuleSet => {
    const context = resolveValue(options.context);
    return compileRules(texts.map((text) => ({ text, kind: "allow", source: { scope: "session", root: context.cwd } })));
  };

  const grant = (rules: readonly string[]): RuleWarning[] => {
    const fresh = rules.filter((rule) => !grants.includes(rule));
    grants.push(...fresh);
    granted = compile(grants);
    return granted.warnings.filter((warning) => fresh.includes(warning.rule));
  };

  const grantForTurn = (rules: readonly string[]): RuleWarning[] => {
    const texts = [...new Set([...turnGranted.allow.map((rule) => rule.text), ...rules])];
    turnGranted = compile(texts);
    return turnGranted.warnings.filter((warning) => rules.includes(warning.rule));
  };

  const denied = async (request: PermissionRequest, evaluation: PermissionEvaluation): Promise<PermissionDecision> => {
    const decision = toDecision(evaluation);
    if (decision.behavior !== "deny" || !options.onAutoDeny) return decision;
    const note = await options.onAutoDeny(request, decision.reason);
    return note ? { ...decision, reason: `${decision.reason} ${note}` } : decision;
  };

  const rulesNow = (): RuleSet => {
    const base = resolveValue(options.rules);
    return { ...base, allow: [...base.allow, ...granted.allow, ...turnGranted.allow] };
  };

  const peek = async (request: PermissionRequest): Promise<PermissionDecision> => {
    const call: PermissionCall = { toolName: request.toolName, access: request.access, input: request.input, subject: request.subject };
    const evaluation = await evaluate(rulesNow(), call, contextNow());
    return evaluation.behavior === "ask" ? toDecision({ ...evaluation, behavior: "deny" }) : toDecision(evaluation);
  };

  const check = async (scoped: ScopedRequest): Promise<PermissionDecision> => {
    const shared = contextNow(scoped);
    // Hooks, prompts and observers get the request as every other caller makes it.
    const { shellCwd: _where, ...request } = scoped;
    const context = request.mode ? { ...shared, mode: request.mode } : shared;
    const rules = rulesNow();
    const call: PermissionCall = { toolName: request.toolName, access: request.access, input: request.input, subject: request.subject };
    if (request.requiresUserInteraction) call.requiresUserInteraction = true;
    let evaluation = await evaluate(rules, call, context);
    // A PreToolUse hook can tighten (ask) or skip a prompt nothing insists on (allow), never loosen a rule.
    if (request.hookDecision === "allow" && evaluation.behavior === "ask" && evaluation.waivable) evaluation = say.allowedByHook(request.hookReason);
    if (request.hookDecision === "ask" && evaluation.behavior === "allow") evaluation = say.askedByHook(call, request.hookReason);
    options.observe?.(request, evaluation);
    if (evaluation.behavior !== "ask") return evaluation.behavior === "deny" ? denied(request, evaluation) : toDecision(evaluation);
    if (context.mode === "dontAsk") return denied(request, say.dontAskDenied(evaluation));
    const hookAnswer = await options.beforeAsk?.(request, evaluation);
    if (hookAnswer) return hookAnswer.allow ? { behavior: "allow" } : toDecision(say.rejectedByHook(call, hookAnswer.reason));
    if (!options.ask) return denied(request, say.unapprovable(evaluation));
    const answer = await options.ask(request, evaluation);
    if (!answer.allow) return toDecision(say.rejectedByUser(call, answer.reason));
    if (answer.remember && answer.remember.length > 0) grant(answer.remember);
    return { behavior: "allow" };
  };

  const endTurn = (): void => {
    turnGranted = compileRules([]);
  };

  const useSandbox = (view: SandboxView | undefined): void => {
    sandbox = view;
  };

  return { check, peek, grant, grantForTurn, endTurn, useSandbox, sessionGrants: () => [...grants] };
}
