/**
 * Reads what a hook printed (hooks.md §6.1, §6.3, §6.4). Stdout is JSON only when its first
 * non-whitespace character is `{`; if it then fails to parse it is plain text (with a note saying
 * so). JSON with a field of the wrong type is rejected whole for a synchronous hook (a non-blocking
 * error naming the field) and loses only the bad fields for an async hook (v2.1.202 behaviour).
 */
import type { HookEventName } from "./events.ts";
import type { PermissionUpdate } from "./inputs.ts";

export type PermissionRequestDecision =
  | { behavior: "allow"; updatedInput?: Record<string, unknown>; updatedPermissions?: PermissionUpdate[] }
  | { behavior: "deny"; message?: string; interrupt?: boolean };

export interface SpecificOutput {
  additionalContext?: string;
  permissionDecision?: "allow" | "deny" | "ask" | "defer";
  permissionDecisionReason?: string;
  updatedInput?: Record<string, unknown>;
  decision?: PermissionRequestDecision;
  retry?: boolean;
  sessionTitle?: string;
  initialUserMessage?: string;
  watchPaths?: string[];
  reloadSkills?: boolean;
  suppressOriginalPrompt?: boolean;
  updatedToolOutput?: unknown;
  updatedMCPToolOutput?: unknown;
}

export interface HookOutput {
  continue?: boolean;
  stopReason?: string;
  suppressOutput?: boolean;
  systemMessage?: string;
  terminalSequence?: string;
  decision?: "block" | "approve";
  reason?: string;
  specific?: SpecificOutput;
}

export type ParsedStdout =
  | { kind: "empty" }
  | { kind: "text"; text: string; note?: string }
  /** `notes`: fields dropped from a lenient (async) parse, an ignored terminalSequence. */
  | { kind: "json"; output: HookOutput; notes: string[] }
  /** Schema-invalid JSON from a synchronous hook: nothing of it is used. */
  | { kind: "invalid"; issues: string[] };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value === "string" ? JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value) : typeof value;
}

type Check = (value: unknown) => string | undefined;

const isString: Check = (value) => (typeof value === "string" ? undefined : "a string");
const isBoolean: Check = (value) => (typeof value === "boolean" ? undefined : "true or false");
const isObject: Check = (value) => (isPlainObject(value) ? undefined : "an object");
const isStringList: Check = (value) => (Array.isArray(value) && value.every((item) => typeof item === "string") ? undefined : "an array of strings");
const anything: Check = () => undefined;
const oneOf = (...values: string[]): Check => (value) =>
  typeof value === "string" && values.includes(value) ? undefined : `one of ${values.map((v) => JSON.stringify(v)).join(", ")}`;

const UPDATE_TYPES = ["addRules", "replaceRules", "removeRules", "setMode", "addDirectories", "removeDirectories"];
const DESTINATIONS = ["session", "localSettings", "projectSettings", "userSettings"];

const isPermissionUpdates: Check = (value) => {
  if (!Array.isArray(value)) return "an array of permission updates";
  for (const entry of value) {
    if (!isPlainObject(entry) || typeof entry.type !== "string" || !UPDATE_TYPES.includes(entry.type)) {
      return `an array of permission updates, each with "type" one of ${UPDATE_TYPES.join(", ")}`;
    }
    if (typeof entry.destination !== "string" || !DESTINATIONS.includes(entry.destination)) {
      return `an array of permission updates, each with "destination" one of ${DESTINATIONS.join(", ")}`;
    }
  }
  return undefined;
};

const isPermissionDecision: Check = (value) => {
  if (!isPlainObject(value)) return 'an object {"behavior": "allow" | "deny", …}';
  if (value.behavior !== "allow" && value.behavior !== "deny") return 'an object whose "behavior" is "allow" or "deny"';
  const fields: Record<string, Check> = { updatedInput: isObject, updatedPermissions: isPermissionUpdates, message: isString, interrupt: isBoolean };
  for (const [key, check] of Object.entries(fields)) {
    if (value[key] === undefined) continue;
    const expected = check(value[key]);
    if (expected) return `an object whose "${key}" is ${expected}`;
  }
  return undefined;
};

const TOP_LEVEL: Record<string, Check> = {
  continue: isBoolean,
  stopReason: isString,
  suppressOutput: isBoolean,
  systemMessage: isString,
  terminalSequence: isString,
  decision: oneOf("block", "approve"),
  reason: isString,
};

const SPECIFIC_COMMON: Record<string, Check> = { additionalContext: isString };

const SPECIFIC: Partial<Record<HookEventName, Record<string, Check>>> = {
  PreToolUse: {
    permissionDecision: oneOf("allow", "deny", "ask", "defer"),
    permissionDecisionReason: isString,
    updatedInput: isObject,
  },
  PermissionRequest: { decision: isPermissionDecision },
  PermissionDenied: { retry: isBoolean },
  SessionStart: { initialUserMessage: isString, sessionTitle: isString, watchPaths: isStringList, reloadSkills: isBoolean },
  UserPromptSubmit: { sessionTitle: isString, suppressOriginalPrompt: isBoolean },
  PostToolUse: { updatedToolOutput: anything, updatedMCPToolOutput: anything },
};

/** OSC 0/1/2/9/99/777 sequences and BEL only (hooks.md §6.3); anything else voids the field. */
const SAFE_SEQUENCE = /^(?:\x1b\](?:0|1|2|9|99|777);[^\x07\x1b]*(?:\x07|\x1b\\)|\x07)+$/;

function pick(source: Record<string, unknown>, checks: Record<string, Check>, prefix: string, issues: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, check] of Object.entries(checks)) {
    const value = source[key];
    if (value === undefined) continue;
    const expected = check(value);
    if (expected) issues.push(`${prefix}${key} must be ${expected} (got ${typeName(value)})`);
    else out[key] = value;
  }
  return out;
}

/** Validates a parsed JSON object; `issues` lists every field of the wrong type. */
function validateOutput(json: Record<string, unknown>, event: HookEventName): { output: HookOutput; issues: string[]; notes: string[] } {
  const issues: string[] = [];
  const notes: string[] = [];
  const output = pick(json, TOP_LEVEL, "", issues) as HookOutput;
  if (output.terminalSequence !== undefined && !SAFE_SEQUENCE.test(output.terminalSequence)) {
    notes.push("terminalSequence ignored: only OSC 0/1/2/9/99/777 sequences and BEL are allowed");
    delete output.terminalSequence;
  }
  const specific = json.hookSpecificOutput;
  if (specific !== undefined) {
    if (!isPlainObject(specific)) issues.push(`hookSpecificOutput must be an object (got ${typeName(specific)})`);
    else if (specific.hookEventName !== event) {
      issues.push(`hookSpecificOutput.hookEventName must be "${event}" (got ${typeName(specific.hookEventName)})`);
    } else {
      const checks = { ...SPECIFIC_COMMON, ...(SPECIFIC[event] ?? {}) };
      output.specific = pick(specific, checks, "hookSpecificOutput.", issues) as SpecificOutput;
    }
  }
  return { output, issues, notes };
}

/**
 * `lenient` (async hooks): fields of the wrong type are dropped and the rest is used; otherwise
 * the whole output is rejected when any field is wrong.
 */
export function parseStdout(stdout: string, event: HookEventName, lenient = false): ParsedStdout {
  const trimmed = stdout.trim();
  if (trimmed === "") return { kind: "empty" };
  if (!trimmed.startsWith("{")) return { kind: "text", text: trimmed };
  let json: unknown;
  try {
    json = JSON.parse(trimmed);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { kind: "text", text: trimmed, note: `stdout starts with "{" but is not valid JSON (${reason}); it was treated as plain text` };
  }
  if (!isPlainObject(json)) return { kind: "text", text: trimmed };
  const { output, issues, notes } = validateOutput(json, event);
  if (issues.length > 0 && !lenient) return { kind: "invalid", issues };
  return { kind: "json", output, notes: [...issues.map((issue) => `${issue}; the field was dropped`), ...notes] };
}
