/**
 * Combines the results of every hook that ran for one event (hooks.md §6.6, §4.4): any block or
 * deny wins, PreToolUse decisions by restrictiveness (deny > defer > ask > allow), contexts and
 * messages in configuration order — never completion order, so the model sees a stable prompt.
 */
import type { FiredHookEvent } from "./events.ts";
import type { PermissionUpdate } from "./inputs.ts";
import type {
  HookOutcomeBase,
  HookOutcomes,
  PermissionRequestAnswer,
  PermissionRequestOutcome,
  PreToolDecision,
  PreToolUseOutcome,
  StopOutcome,
} from "./outcomes.ts";
import type { HandlerResult } from "./result.ts";
import { EVENT_TRAITS } from "./events.ts";

/** Caps one model- or user-facing string (10,000 characters, hooks.md §6.1). */
type Cap = (text: string) => string;

function base(event: FiredHookEvent, results: readonly HandlerResult[], cap: Cap): HookOutcomeBase {
  const outcome: HookOutcomeBase = { systemMessages: [], errors: [], terminalSequences: [], ran: results.length, asyncStarted: 0 };
  for (const result of results) {
    const output = result.output;
    if (result.error) outcome.errors.push(result.error);
    if (output?.systemMessage) outcome.systemMessages.push(cap(output.systemMessage));
    if (output?.terminalSequence) outcome.terminalSequences.push(output.terminalSequence);
    if (output?.continue === false && !EVENT_TRAITS[event].ignoresContinue && outcome.stop === undefined) {
      outcome.stop = { reason: output.stopReason ?? "", hookName: result.hookName };
    }
  }
  return outcome;
}

function contexts(results: readonly HandlerResult[], cap: Cap, includeText: boolean): string[] {
  const out: string[] = [];
  for (const result of results) {
    if (includeText && result.text) out.push(cap(result.text));
    const context = result.output?.specific?.additionalContext;
    if (context) out.push(cap(context));
  }
  return out;
}

/** Exit code 2 on an event where it blocks or feeds back (a prompt hook's `ok: false` is a verdict, not this). */
function exitedTwo(result: HandlerResult): boolean {
  return result.exitTwoReason !== undefined;
}

/** A JSON blocking decision's reason wins over exit-2 stderr (hooks.md §6.1). */
function reasonOf(result: HandlerResult, fallback: string): string {
  const output = result.output;
  const jsonReason = output?.specific?.permissionDecision === "deny" ? output.specific.permissionDecisionReason : undefined;
  const blockReason = output?.decision === "block" ? output.reason : undefined;
  return jsonReason || blockReason || result.exitTwoReason || result.verdict?.reason || fallback;
}

/** A prompt hook answered `ok: false`: the default effect ends the turn with a warning. */
function promptStops(result: HandlerResult, outcome: HookOutcomeBase, reason: string): boolean {
  if (result.hook.spec.type !== "prompt" || result.verdict?.ok !== false) return false;
  if (result.hook.spec.continueOnBlock) return false;
  outcome.stop ??= { reason, hookName: result.hookName };
  outcome.systemMessages.push(reason);
  return true;
}

const RESTRICTIVENESS: Record<PreToolDecision, number> = { allow: 0, ask: 1, defer: 2, deny: 3 };

function preToolDecisionOf(result: HandlerResult): PreToolDecision | undefined {
  if (result.status === "blocked" || result.verdict?.ok === false) return "deny";
  const specific = result.output?.specific?.permissionDecision;
  if (specific) return specific;
  if (result.output?.decision === "block") return "deny";
  if (result.output?.decision === "approve") return "allow";
  return undefined;
}

function preToolUse(results: readonly HandlerResult[], cap: Cap): PreToolUseOutcome {
  const outcome: PreToolUseOutcome = { ...base("PreToolUse", results, cap), additionalContext: contexts(results, cap, false) };
  const decided = results.map((result) => ({ result, decision: preToolDecisionOf(result) }));
  for (const { result, decision } of decided) {
    if (decision === undefined) continue;
    if (outcome.decision === undefined || RESTRICTIVENESS[decision] > RESTRICTIVENESS[outcome.decision]) outcome.decision = decision;
    if (decision === "deny") promptStops(result, outcome, reasonOf(result, "Blocked by a PreToolUse hook"));
  }
  if (outcome.decision === undefined) return outcome;
  const reasons = decided
    .filter((entry) => entry.decision === outcome.decision)
    .map(({ result }) =>
      outcome.decision === "deny"
        ? reasonOf(result, "")
        : (result.output?.specific?.permissionDecisionReason ?? result.output?.reason ?? ""),
    )
    .filter((reason) => reason !== "");
  if (reasons.length > 0) outcome.reason = cap(reasons.join("\n"));
  else if (outcome.decision === "deny") outcome.reason = "Blocked by a PreToolUse hook";
  if (outcome.decision === "allow" || outcome.decision === "ask") {
    // The last hook in configuration order that rewrote the input and did not refuse the call.
    for (const { result, decision } of decided) {
      const updated = result.output?.specific?.updatedInput;
      if (updated && (decision === undefined || decision === "allow" || decision === "ask")) outcome.updatedInput = updated;
    }
  }
  return outcome;
}

function permissionRequest(results: readonly HandlerResult[], cap: Cap): PermissionRequestOutcome {
  const outcome: PermissionRequestOutcome = base("PermissionRequest", results, cap);
  const answers = results.flatMap((result) => (result.output?.specific?.decision ? [result.output.specific.decision] : []));
  const denies = answers.filter((answer) => answer.behavior === "deny");
  if (denies.length > 0) {
    const messages = denies.map((deny) => deny.message).filter((message): message is string => typeof message === "string" && message !== "");
    const answer: PermissionRequestAnswer = { behavior: "deny", interrupt: denies.some((deny) => deny.interrupt === true) };
    if (messages.length > 0) answer.message = cap(messages.join("\n"));
    outcome.decision = answer;
    return outcome;
  }
  const allows = answers.filter((answer) => answer.behavior === "allow");
  if (allows.length === 0) return outcome;
  const updatedPermissions: PermissionUpdate[] = allows.flatMap((allow) => allow.updatedPermissions ?? []);
  const updatedInput = allows.map((allow) => allow.updatedInput).filter((input) => input !== undefined).at(-1);
  outcome.decision = { behavior: "allow", updatedPermissions, ...(updatedInput ? { updatedInput } : {}) };
  return outcome;
}

function stopLike(event: "Stop" | "SubagentStop", results: readonly HandlerResult[], cap: Cap): StopOutcome {
  const outcome: StopOutcome = { ...base(event, results, cap), additionalContext: contexts(results, cap, false) };
  const reasons: string[] = [];
  for (const result of results) {
    if (exitedTwo(result)) reasons.push(reasonOf(result, `${result.hookName} hook blocked stopping`));
    else if (result.verdict?.ok === false && !result.verdict.impossible) reasons.push(result.verdict.reason ?? `${result.hookName} hook asked to continue`);
    else if (result.output?.decision === "block") {
      if (result.output.reason) reasons.push(result.output.reason);
      else outcome.errors.push(`${result.hookName} hook error: decision "block" needs a "reason" telling the model what to do; ignored`);
    }
  }
  if (reasons.length > 0) outcome.block = { reason: cap(reasons.join("\n")) };
  return outcome;
}

function blockReasons(results: readonly HandlerResult[], fallback: string): string[] {
  const reasons: string[] = [];
  for (const result of results) {
    if (exitedTwo(result) || result.output?.decision === "block") reasons.push(reasonOf(result, fallback));
  }
  return reasons;
}

type Combiner<E extends FiredHookEvent> = (results: readonly HandlerResult[], cap: Cap) => Omit<HookOutcomes[E], "env" | "envProblems">;

const COMBINERS: { [E in FiredHookEvent]: Combiner<E> } = {
  SessionStart: (results, cap) => {
    const specifics = results.flatMap((result) => (result.output?.specific ? [result.output.specific] : []));
    const last = <K extends "initialUserMessage" | "sessionTitle">(key: K): string | undefined =>
      specifics.map((specific) => specific[key]).filter((value): value is string => typeof value === "string").at(-1);
    const initialUserMessage = last("initialUserMessage");
    const sessionTitle = last("sessionTitle");
    return {
      ...base("SessionStart", results, cap),
      additionalContext: contexts(results, cap, true),
      ...(initialUserMessage !== undefined ? { initialUserMessage } : {}),
      ...(sessionTitle !== undefined ? { sessionTitle } : {}),
      watchPaths: [...new Set(specifics.flatMap((specific) => specific.watchPaths ?? []))],
      reloadSkills: specifics.some((specific) => specific.reloadSkills === true),
    };
  },
  UserPromptSubmit: (results, cap) => {
    const outcome = { ...base("UserPromptSubmit", results, cap), additionalContext: contexts(results, cap, true) };
    const reasons = [
      ...blockReasons(results, "Prompt blocked by a UserPromptSubmit hook"),
      ...results.filter((result) => result.verdict?.ok === false).map((result) => result.verdict?.reason ?? "Prompt blocked by a UserPromptSubmit hook"),
    ];
    const title = results.map((result) => result.output?.specific?.sessionTitle).filter((value): value is string => typeof value === "string").at(-1);
    const suppressOriginalPrompt = results.some((result) => result.output?.specific?.suppressOriginalPrompt === true);
    return {
      ...outcome,
      ...(reasons.length > 0 ? { block: { reason: cap(reasons.join("\n")), suppressOriginalPrompt } } : {}),
      ...(title !== undefined ? { sessionTitle: title } : {}),
    };
  },
  PreToolUse: preToolUse,
  PostToolUse: (results, cap) => {
    const outcome = { ...base("PostToolUse", results, cap), additionalContext: contexts(results, cap, false), feedback: [] as string[] };
    for (const result of results) {
      if (exitedTwo(result) || result.output?.decision === "block") outcome.feedback.push(cap(reasonOf(result, `${result.hookName} hook flagged this result`)));
      else if (result.verdict?.ok === false) {
        const reason = result.verdict.reason ?? `${result.hookName} hook flagged this result`;
        if (!promptStops(result, outcome, reason)) outcome.feedback.push(cap(reason));
      }
    }
    const updated = results.map((result) => result.output?.specific?.updatedToolOutput ?? result.output?.specific?.updatedMCPToolOutput).filter((value) => value !== undefined).at(-1);
    return updated === undefined ? outcome : { ...outcome, updatedToolOutput: updated };
  },
  PostToolUseFailure: (results, cap) => {
    const feedback = [
      ...blockReasons(results, "PostToolUseFailure hook feedback"),
      ...results.filter((result) => result.verdict?.ok === false).map((result) => result.verdict?.reason ?? `${result.hookName} hook feedback`),
    ].map(cap);
    return { ...base("PostToolUseFailure", results, cap), additionalContext: contexts(results, cap, false), feedback };
  },
  PermissionRequest: permissionRequest,
  PermissionDenied: (results, cap) => ({
    ...base("PermissionDenied", results, cap),
    retry: results.some((result) => result.output?.specific?.retry === true),
  }),
  Notification: (results, cap) => ({ ...base("Notification", results, cap), additionalContext: contexts(results, cap, false) }),
  Stop: (results, cap) => stopLike("Stop", results, cap),
  SubagentStart: (results, cap) => ({ ...base("SubagentStart", results, cap), additionalContext: contexts(results, cap, false) }),
  Setup: (results, cap) => ({ ...base("Setup", results, cap), additionalContext: contexts(results, cap, true) }),
  SubagentStop: (results, cap) => stopLike("SubagentStop", results, cap),
  PreCompact: (results, cap) => {
    const reasons = blockReasons(results, "Compaction blocked by a PreCompact hook");
    return { ...base("PreCompact", results, cap), ...(reasons.length > 0 ? { block: { reason: cap(reasons.join("\n")) } } : {}) };
  },
  PostCompact: (results, cap) => base("PostCompact", results, cap),
  SessionEnd: (results, cap) => base("SessionEnd", results, cap),
};

export function combine<E extends FiredHookEvent>(event: E, results: readonly HandlerResult[], cap: Cap): Omit<HookOutcomes[E], "env" | "envProblems"> {
  return COMBINERS[event](results, cap);
}
