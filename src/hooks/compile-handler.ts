/**
 * Validates one handler object and turns it into a CompiledHook. A handler that cannot be
 * understood at all (not an object, unknown type, no command) is reported and left out; one that
 * is understood but can never run (wrong event for its type, `if` outside tool events, agent and
 * mcp_tool types) is kept with an `inactive` reason, so `/hooks` still shows it.
 */
import { defaultTimeoutSeconds, EVENT_TRAITS, type HandlerType, type HookEventName } from "./events.ts";
import { hasUserConfigPlaceholder, placeholderValues, substituteForCheck } from "./placeholders.ts";
import { checkScript, describeScriptIssue } from "./script-check.ts";
import type { CommandSpec, CompiledHook, HandlerSpec, HookOrigin, HookProblemSeverity, HttpSpec, MatcherRule, PromptSpec } from "./types.ts";

const HANDLER_TYPES: readonly HandlerType[] = ["command", "http", "mcp_tool", "prompt", "agent"];

export interface HandlerContext {
  sourceId: string;
  origin: HookOrigin;
  projectDir: string;
  report(severity: HookProblemSeverity, keyPath: string, message: string): void;
}

export interface HandlerSlot {
  /** The event the hook fires on (SubagentStop for an agent's `Stop`). */
  event: HookEventName;
  matcher?: string;
  rule: MatcherRule;
  /** Why the whole group never runs (a broken matcher). */
  groupInactive?: string;
  keyPath: string;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "string" ? JSON.stringify(value) : typeof value;
}

/** Reads optional typed fields, reporting (and ignoring) a value of the wrong type. */
class Fields {
  constructor(
    private readonly raw: Record<string, unknown>,
    private readonly keyPath: string,
    private readonly context: HandlerContext,
  ) {}

  private wrong(key: string, expected: string): undefined {
    this.context.report("warning", `${this.keyPath}.${key}`, `${this.keyPath}.${key} must be ${expected} (got ${describe(this.raw[key])}); ignoring it`);
    return undefined;
  }

  string(key: string): string | undefined {
    const value = this.raw[key];
    if (value === undefined || typeof value === "string") return value;
    return this.wrong(key, "a string");
  }

  boolean(key: string): boolean | undefined {
    const value = this.raw[key];
    if (value === undefined || typeof value === "boolean") return value;
    return this.wrong(key, "true or false");
  }

  positiveNumber(key: string): number | undefined {
    const value = this.raw[key];
    if (value === undefined) return undefined;
    if (typeof value === "number" && Number.isFinite(value) && value > 0) return value;
    return this.wrong(key, "a positive number of seconds; the default applies");
  }

  stringList(key: string): string[] | undefined {
    const value = this.raw[key];
    if (value === undefined) return undefined;
    if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value;
    return this.wrong(key, "an array of strings");
  }

  stringRecord(key: string): Record<string, string> | undefined {
    const value = this.raw[key];
    if (value === undefined) return undefined;
    if (isPlainObject(value) && Object.values(value).every((item) => typeof item === "string")) return value as Record<string, string>;
    return this.wrong(key, "an object of string values");
  }
}

function required(raw: Record<string, unknown>, key: string, keyPath: string, context: HandlerContext, what: string): string | undefined {
  const value = raw[key];
  if (typeof value === "string" && value.trim() !== "") return value;
  const got = value === undefined ? "it is missing" : `got ${describe(value)}`;
  context.report("error", `${keyPath}.${key}`, `${keyPath}.${key} is required for a ${String(raw.type)} hook (${what}; ${got}); this hook is ignored until it is set`);
  return undefined;
}

function commandSpec(raw: Record<string, unknown>, fields: Fields, slot: HandlerSlot, context: HandlerContext): { spec: CommandSpec; inactive?: string } | undefined {
  const command = required(raw, "command", slot.keyPath, context, "the script or shell command to run");
  if (command === undefined) return undefined;
  const args = fields.stringList("args");
  let shell: CommandSpec["shell"] = "sh";
  const shellField = fields.string("shell");
  if (shellField === "bash" || shellField === "powershell") shell = shellField;
  else if (shellField !== undefined) context.report("warning", `${slot.keyPath}.shell`, `${slot.keyPath}.shell must be "bash" or "powershell" (got ${JSON.stringify(shellField)}); using sh`);
  const async = fields.boolean("async") ?? false;
  const asyncRewake = fields.boolean("asyncRewake") ?? false;
  const rewakeMessage = fields.string("rewakeMessage");
  const rewakeSummary = fields.string("rewakeSummary");
  const spec: CommandSpec = {
    type: "command",
    command,
    ...(args ? { args } : {}),
    shell,
    async: async || asyncRewake,
    asyncRewake,
    ...(rewakeMessage !== undefined ? { rewakeMessage } : {}),
    ...(rewakeSummary !== undefined ? { rewakeSummary } : {}),
  };
  if (context.origin.kind === "plugin" && !args && hasUserConfigPlaceholder(command)) {
    const inactive = "a shell-form command cannot use ${user_config.…}";
    context.report("error", `${slot.keyPath}.command`, `${slot.keyPath}.command uses \${user_config.…} in shell form, which could run option values as shell code; move the command to exec form ("command" = the executable, "args" = its arguments) so the value is passed as one argument. This hook does not run`);
    return { spec, inactive };
  }
  const values = placeholderValues(context.origin, context.projectDir);
  const issue = checkScript(substituteForCheck(command, values), context.projectDir, args !== undefined);
  if (issue) context.report("warning", `${slot.keyPath}.command`, `${slot.keyPath}.command ${describeScriptIssue(issue)}`);
  return { spec };
}

function httpSpec(raw: Record<string, unknown>, fields: Fields, slot: HandlerSlot, context: HandlerContext): HttpSpec | undefined {
  const url = required(raw, "url", slot.keyPath, context, "the http:// or https:// address to POST to");
  if (url === undefined) return undefined;
  if (!/^https?:\/\//i.test(url)) {
    context.report("error", `${slot.keyPath}.url`, `${slot.keyPath}.url must start with http:// or https:// (got ${JSON.stringify(url)}); this hook is ignored until it is fixed`);
    return undefined;
  }
  return { type: "http", url, headers: fields.stringRecord("headers") ?? {}, allowedEnvVars: fields.stringList("allowedEnvVars") ?? [] };
}

function promptSpec(raw: Record<string, unknown>, fields: Fields, slot: HandlerSlot, context: HandlerContext): PromptSpec | undefined {
  const prompt = required(raw, "prompt", slot.keyPath, context, "the question the model answers with {\"ok\": …}");
  if (prompt === undefined) return undefined;
  const model = fields.string("model");
  return { type: "prompt", prompt, ...(model !== undefined ? { model } : {}), continueOnBlock: fields.boolean("continueOnBlock") ?? false };
}

/** Why a well-formed handler can still never run on this event; reported once here. */
function eventMismatch(type: HandlerType, hasIf: boolean, slot: HandlerSlot, context: HandlerContext): string | undefined {
  const traits = EVENT_TRAITS[slot.event];
  if (!traits.handlerTypes.includes(type)) {
    const allowed = traits.handlerTypes.join(", ");
    context.report("error", `${slot.keyPath}.type`, `${slot.keyPath}.type "${type}" cannot be used on ${slot.event} (allowed there: ${allowed}); this hook never runs. Use a command hook instead`);
    return `${type} hooks cannot run on ${slot.event}`;
  }
  if (hasIf && !traits.toolEvent) {
    context.report("warning", `${slot.keyPath}.if`, `${slot.keyPath}.if only applies to tool events (PreToolUse, PostToolUse, PostToolUseFailure, PermissionRequest, PermissionDenied); on ${slot.event} a hook with "if" never runs. Remove "if" or move the hook`);
    return `"if" is only evaluated on tool events`;
  }
  return undefined;
}

export function compileHandler(raw: unknown, slot: HandlerSlot, context: HandlerContext): CompiledHook | undefined {
  const { keyPath } = slot;
  if (!isPlainObject(raw)) {
    context.report("error", keyPath, `${keyPath} must be an object such as {"type": "command", "command": "…"} (got ${describe(raw)}); ignoring it`);
    return undefined;
  }
  const type = raw.type;
  if (typeof type !== "string" || !(HANDLER_TYPES as readonly string[]).includes(type)) {
    const got = type === undefined ? "it is missing" : `got ${describe(type)}`;
    context.report("error", `${keyPath}.type`, `${keyPath}.type must be one of "command", "http", "prompt", "agent", "mcp_tool" (${got}); ignoring this hook`);
    return undefined;
  }
  const handlerType = type as HandlerType;
  const fields = new Fields(raw, keyPath, context);
  const ifRule = fields.string("if");
  const timeout = fields.positiveNumber("timeout");
  const statusMessage = fields.string("statusMessage");
  const once = fields.boolean("once") ?? false;
  if (once && context.origin.kind !== "skill") {
    context.report("notice", `${keyPath}.once`, `${keyPath}.once is honoured only in skill frontmatter; here the hook runs every time`);
  }

  let spec: HandlerSpec | undefined;
  let inactive: string | undefined = slot.groupInactive;
  if (handlerType === "command") {
    const compiled = commandSpec(raw, fields, slot, context);
    spec = compiled?.spec;
    inactive ??= compiled?.inactive;
  } else if (handlerType === "http") spec = httpSpec(raw, fields, slot, context);
  else if (handlerType === "prompt") spec = promptSpec(raw, fields, slot, context);
  else {
    const summary = handlerType === "agent" ? String(raw.prompt ?? "") : `${String(raw.server ?? "?")}/${String(raw.tool ?? "?")}`;
    spec = { type: handlerType, summary };
    context.report("notice", `${keyPath}.type`, `${keyPath}.type "${handlerType}" hooks are not supported by clew yet; this hook does not run (use a command or prompt hook for now)`);
    inactive ??= `${handlerType} hooks are not supported yet`;
  }
  if (spec === undefined) return undefined;
  const mismatch = eventMismatch(handlerType, ifRule !== undefined, slot, context);
  inactive ??= mismatch;

  return {
    id: `${context.sourceId}#${keyPath}`,
    event: slot.event,
    ...(slot.matcher !== undefined ? { matcher: slot.matcher } : {}),
    rule: slot.rule,
    keyPath,
    sourceId: context.sourceId,
    spec,
    ...(ifRule !== undefined ? { if: ifRule } : {}),
    timeoutMs: Math.round((timeout ?? defaultTimeoutSeconds(handlerType, slot.event)) * 1000),
    ...(statusMessage !== undefined ? { statusMessage } : {}),
    once: once && context.origin.kind === "skill",
    ...(inactive !== undefined ? { inactive } : {}),
  };
}
