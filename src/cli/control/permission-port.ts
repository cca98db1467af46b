/**
 * `--permission-prompt-tool stdio`: a call that needs approval is put to the host as a
 * `can_use_tool` control request (the Agent SDK's `canUseTool` callback) and its answer becomes
 * the gate's answer. A host that cannot answer (stdin ended, an error reply) denies the call.
 */
import type { ApprovalAnswer, ApprovalPort, PermissionEvaluation, PermissionRequest } from "../../permissions/types.ts";
import { lazySchema } from "../../util/lazy-schema.ts";
import type { ControlChannel } from "./channel.ts";

export interface PermissionPortHooks {
  /** A question is out (session state `requires_action`) and, after it, answered. */
  asking(): void;
  answered(): void;
  /** The host denied with `interrupt: true`: the running turn stops. */
  interrupt(): void;
  /** Something of the answer clew keeps differently from what was asked (a rule kept for the session only). */
  notice(message: string): void;
}

const answerSchema = lazySchema((z) =>
  z.union([
    z.looseObject({
      behavior: z.literal("allow"),
      updatedInput: z.record(z.string(), z.unknown()).optional(),
      updatedPermissions: z.array(z.looseObject({ type: z.string() })).optional(),
    }),
    z.looseObject({ behavior: z.literal("deny"), message: z.string().optional(), interrupt: z.boolean().optional() }),
  ]),
);

const ruleValueSchema = lazySchema((z) => z.looseObject({ toolName: z.string(), ruleContent: z.string().optional() }));

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** `Bash(npm test:*)` → Claude Code's `{toolName, ruleContent}`. */
export function ruleValue(rule: string): { toolName: string; ruleContent?: string } {
  const match = /^([^(]+)\((.*)\)$/s.exec(rule);
  return match?.[1] && match[2] !== undefined ? { toolName: match[1], ruleContent: match[2] } : { toolName: rule };
}

function ruleText(value: { toolName: string; ruleContent?: string }): string {
  return value.ruleContent === undefined || value.ruleContent === "" ? value.toolName : `${value.toolName}(${value.ruleContent})`;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The `can_use_tool` request for one call, with the fields the Agent SDK hands its callback. */
export function canUseToolRequest(request: PermissionRequest, evaluation: PermissionEvaluation): Record<string, unknown> & { subtype: string } {
  const suggestions = evaluation.suggestions ?? [];
  const pathLike = (request.access === "read" || request.access === "write") && request.subject.startsWith("/");
  return {
    subtype: "can_use_tool",
    tool_name: request.toolName,
    display_name: request.agent ? `${request.agent}: ${request.toolName}` : request.toolName,
    input: asRecord(request.input),
    tool_use_id: request.toolUseId,
    description: evaluation.reason,
    decision_reason: evaluation.reason,
    decision_reason_type: evaluation.rule ? "rule" : "mode",
    permission_suggestions: suggestions.length === 0 ? [] : [{ type: "addRules", rules: suggestions.map(ruleValue), behavior: "allow", destination: "session" }],
    ...(pathLike ? { blocked_path: request.subject } : {}),
    ...(request.agent ? { agent_id: request.agent } : {}),
    ...(request.requiresUserInteraction ? { requires_user_interaction: true } : {}),
  };
}

/** The allow rules an answer's `updatedPermissions` adds; other kinds of update are named in a notice. */
function rulesToKeep(updates: ReadonlyArray<Record<string, unknown>>, hooks: PermissionPortHooks): string[] {
  const keep: string[] = [];
  for (const update of updates) {
    if (update.type !== "addRules" || update.behavior !== "allow") {
      hooks.notice(`the host's permission update ${JSON.stringify(update.type)}${update.behavior ? ` (${String(update.behavior)})` : ""} is not supported by clew and was not applied`);
      continue;
    }
    const rules = Array.isArray(update.rules) ? update.rules.flatMap((raw) => {
      const parsed = ruleValueSchema().safeParse(raw);
      return parsed.success ? [ruleText(parsed.data)] : [];
    }) : [];
    if (update.destination !== "session" && update.destination !== "cliArg") {
      hooks.notice(`allow rule(s) ${rules.join(", ")} are kept for this session only (clew does not write ${String(update.destination)} from a permission answer)`);
    }
    keep.push(...rules);
  }
  return keep;
}

export function controlApprovalPort(channel: ControlChannel, hooks: PermissionPortHooks): ApprovalPort {
  return async (request, evaluation): Promise<ApprovalAnswer> => {
    const body = canUseToolRequest(request, evaluation);
    hooks.asking();
    let raw: Record<string, unknown>;
    try {
      raw = await channel.request(body);
    } catch (error) {
      return { allow: false, reason: `The host was asked for permission and did not answer (${error instanceof Error ? error.message : String(error)}).` };
    } finally {
      hooks.answered();
    }
    const parsed = answerSchema().safeParse(raw);
    if (!parsed.success) {
      return { allow: false, reason: `The host's answer to the permission request was not {"behavior": "allow" | "deny", …}: ${JSON.stringify(raw).slice(0, 200)}` };
    }
    const answer = parsed.data;
    if (answer.behavior === "deny") {
      if (answer.interrupt === true) hooks.interrupt();
      return { allow: false, ...(answer.message ? { reason: answer.message } : {}) };
    }
    // The gate runs the call as the model wrote it: a changed input cannot be applied, so it is refused, never run unchanged.
    if (answer.updatedInput !== undefined && !sameJson(answer.updatedInput, body.input)) {
      return { allow: false, reason: "The host allowed this call with a changed input, which clew cannot apply yet; the call was not run. Ask the user how to proceed." };
    }
    const remember = rulesToKeep((answer.updatedPermissions ?? []) as Array<Record<string, unknown>>, hooks);
    return { allow: true, ...(remember.length > 0 ? { remember } : {}) };
  };
}
