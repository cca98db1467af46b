/**
 * What the tool events say about one call: where its permission decision came from, its
 * parameters (only with OTEL_LOG_TOOL_DETAILS=1), sizes, and whether it made a commit or a pull
 * request. Pure functions of the call's name, input and result.
 */
import type { ContentBlockParam } from "../model/types.ts";
import type { Attributes } from "./attributes.ts";

export type DecisionSource = "config" | "hook" | "user_permanent" | "user_temporary" | "user_abort" | "user_reject";

/**
 * The source of a denial, told from the reason the model was given. The event stream carries no
 * source field, so only the wordings clew itself writes for a user's "no" and a PermissionRequest
 * hook are recognised; everything else (rules, modes, PreToolUse hooks with their own words)
 * counts as `config`.
 */
export function denialSource(reason: string): DecisionSource {
  if (reason.startsWith("The user rejected")) return "user_reject";
  if (reason.startsWith("A PermissionRequest hook denied") || reason.startsWith("A PreToolUse hook blocked")) return "hook";
  return "config";
}

/**
 * A call the executor turned away before the permission gate (a tool that does not exist, input
 * that does not match its schema): it was neither decided on nor run. The executor's messages for
 * these are the same as Claude Code's, so the model can tell them apart too.
 */
export function turnedAwayBeforeGate(content: string | ContentBlockParam[]): boolean {
  return typeof content === "string" && (content.startsWith("Error: No such tool available:") || content.startsWith("InputValidationError:"));
}

const encoder = new TextEncoder();

export function byteSize(value: unknown): number {
  if (value === undefined) return 0;
  return encoder.encode(typeof value === "string" ? value : JSON.stringify(value)).length;
}

export function resultSize(content: string | ContentBlockParam[]): number {
  return byteSize(content);
}

function record(input: unknown): Record<string, unknown> {
  return typeof input === "object" && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
}

/** `tool_parameters`: the fields Claude Code lists per tool (Bash, Skill, Agent, MCP tools). */
export function toolParameters(name: string, input: unknown): string | undefined {
  const args = record(input);
  if (name === "Bash") {
    const command = typeof args.command === "string" ? args.command : "";
    const parameters: Record<string, unknown> = { bash_command: command.trim().split(/\s+/)[0] ?? "", full_command: command };
    for (const key of ["timeout", "description", "dangerouslyDisableSandbox"]) if (args[key] !== undefined) parameters[key] = args[key];
    return JSON.stringify(parameters);
  }
  if (name === "Skill") return JSON.stringify({ skill_name: args.skill ?? args.name });
  if (name === "Agent" || name === "Task") return JSON.stringify({ subagent_type: args.subagent_type });
  const mcp = /^mcp__(.+?)__(.+)$/.exec(name);
  if (mcp) return JSON.stringify({ mcp_server_name: mcp[1], mcp_tool_name: mcp[2] });
  return undefined;
}

const VALUE_CAP = 512;
const INPUT_CAP = 4096;

/** `tool_input`: the arguments as JSON, long values cut at 512 characters and the whole at about 4 K. */
export function toolInput(input: unknown): string {
  const cut = (value: unknown): unknown => {
    if (typeof value === "string") return value.length > VALUE_CAP ? `${value.slice(0, VALUE_CAP)}…[truncated]` : value;
    if (Array.isArray(value)) return value.map(cut);
    if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, cut(inner)]));
    return value;
  };
  const text = JSON.stringify(cut(input)) ?? "null";
  return text.length > INPUT_CAP ? `${text.slice(0, INPUT_CAP)}…[truncated]` : text;
}

/** Gated attributes of tool events, present only with OTEL_LOG_TOOL_DETAILS=1. */
export function detailAttributes(name: string, input: unknown, withInput: boolean): Attributes {
  const out: Attributes = {};
  const parameters = toolParameters(name, input);
  if (parameters !== undefined) out.tool_parameters = parameters;
  if (withInput) out.tool_input = toolInput(input);
  return out;
}

/** A Bash call that made a commit or opened a pull request (`claude_code.commit.count`, `.pull_request.count`). */
export function gitOutcome(name: string, input: unknown): "commit" | "pull_request" | undefined {
  if (name !== "Bash") return undefined;
  const command = record(input).command;
  if (typeof command !== "string") return undefined;
  if (/\bgit\s+(?:-\S+\s+)*commit\b/.test(command)) return "commit";
  if (/\b(?:gh\s+pr\s+create|glab\s+mr\s+create)\b/.test(command)) return "pull_request";
  return undefined;
}
