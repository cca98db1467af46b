/**
 * What each hook event allows (hooks.md §2, §3, §6.2): which input field its matcher filters on,
 * which handler types it accepts, what exit code 2 does, and whether clew fires it yet. One table,
 * so the collector, the runner and the combiner never disagree about an event.
 */

/** Every event Claude Code defines (hooks.md §2), in its order. */
export const HOOK_EVENT_NAMES = [
  "SessionStart", "Setup", "UserPromptSubmit", "UserPromptExpansion", "PreToolUse", "PermissionRequest",
  "PermissionDenied", "PostToolUse", "PostToolUseFailure", "PostToolBatch", "Notification", "MessageDisplay",
  "SubagentStart", "SubagentStop", "TaskCreated", "TaskCompleted", "Stop", "StopFailure", "TeammateIdle",
  "InstructionsLoaded", "ConfigChange", "CwdChanged", "DirectoryAdded", "FileChanged", "WorktreeCreate",
  "WorktreeRemove", "PreCompact", "PostCompact", "Elicitation", "ElicitationResult", "SessionEnd",
] as const;

export type HookEventName = (typeof HOOK_EVENT_NAMES)[number];

/** The events clew fires today; hooks on the others are listed with a notice and never run. */
export const FIRED_EVENTS = [
  "SessionStart", "Setup", "SessionEnd", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure",
  "PermissionRequest", "PermissionDenied", "Notification", "Stop", "SubagentStart", "SubagentStop",
  "PreCompact", "PostCompact",
] as const satisfies readonly HookEventName[];

export type FiredHookEvent = (typeof FIRED_EVENTS)[number];

export type HandlerType = "command" | "http" | "mcp_tool" | "prompt" | "agent";

/** Where the stderr of an exit-2 hook goes, or what exit 2 does at all (hooks.md §6.2). */
export type ExitTwoEffect =
  /** The action is blocked or reversed; stderr is the reason. */
  | "block"
  /** Cannot undo; stderr is fed back to the model. */
  | "feedback"
  /** Cannot block; stderr is shown to the user as a `<hook> hook error` notice. */
  | "notice"
  /** Exit 2 means nothing here (stderr goes to the debug log only). */
  | "ignored";

export interface EventTraits {
  /** The input field the matcher is tested against; undefined = matchers are ignored. */
  matcherField?: string;
  /** FileChanged and StopFailure treat only `[A-Za-z0-9_|]` as an exact list. */
  narrowExact?: boolean;
  handlerTypes: readonly HandlerType[];
  exitTwo: ExitTwoEffect;
  /** Plain (non-JSON) stdout becomes model context. */
  plainStdoutIsContext?: boolean;
  /** `CLAUDE_ENV_FILE` is set for these hooks. */
  envFile?: boolean;
  /** `continue: false` is documented as ignored here. */
  ignoresContinue?: boolean;
  /** `if` conditions are evaluated (tool events); elsewhere a handler with `if` never runs. */
  toolEvent?: boolean;
}

const ALL: readonly HandlerType[] = ["command", "http", "mcp_tool", "prompt", "agent"];
const NO_LLM: readonly HandlerType[] = ["command", "http", "mcp_tool"];
const NO_HTTP: readonly HandlerType[] = ["command", "mcp_tool"];

export const EVENT_TRAITS: Readonly<Record<HookEventName, EventTraits>> = {
  SessionStart: { matcherField: "source", handlerTypes: NO_HTTP, exitTwo: "notice", plainStdoutIsContext: true, envFile: true },
  Setup: { matcherField: "trigger", handlerTypes: NO_HTTP, exitTwo: "notice", envFile: true },
  UserPromptSubmit: { handlerTypes: ALL, exitTwo: "block", plainStdoutIsContext: true },
  UserPromptExpansion: { matcherField: "command_name", handlerTypes: ALL, exitTwo: "block", plainStdoutIsContext: true },
  PreToolUse: { matcherField: "tool_name", handlerTypes: ALL, exitTwo: "block", toolEvent: true },
  PermissionRequest: { matcherField: "tool_name", handlerTypes: ALL, exitTwo: "ignored", toolEvent: true },
  PermissionDenied: { matcherField: "tool_name", handlerTypes: ALL, exitTwo: "ignored", toolEvent: true },
  PostToolUse: { matcherField: "tool_name", handlerTypes: ALL, exitTwo: "feedback", toolEvent: true },
  PostToolUseFailure: { matcherField: "tool_name", handlerTypes: ALL, exitTwo: "feedback", toolEvent: true },
  PostToolBatch: { handlerTypes: ALL, exitTwo: "block" },
  Notification: { matcherField: "notification_type", handlerTypes: NO_LLM, exitTwo: "ignored", ignoresContinue: true },
  MessageDisplay: { handlerTypes: NO_LLM, exitTwo: "ignored", ignoresContinue: true },
  SubagentStart: { matcherField: "agent_type", handlerTypes: NO_LLM, exitTwo: "notice" },
  SubagentStop: { matcherField: "agent_type", handlerTypes: ALL, exitTwo: "block" },
  TaskCreated: { handlerTypes: ALL, exitTwo: "block", ignoresContinue: true },
  TaskCompleted: { handlerTypes: ALL, exitTwo: "block" },
  Stop: { handlerTypes: ALL, exitTwo: "block" },
  StopFailure: { matcherField: "error", narrowExact: true, handlerTypes: NO_LLM, exitTwo: "ignored", ignoresContinue: true },
  TeammateIdle: { handlerTypes: ALL, exitTwo: "block" },
  InstructionsLoaded: { matcherField: "load_reason", handlerTypes: NO_LLM, exitTwo: "ignored", ignoresContinue: true },
  ConfigChange: { matcherField: "source", handlerTypes: NO_LLM, exitTwo: "block", ignoresContinue: true },
  CwdChanged: { handlerTypes: NO_LLM, exitTwo: "notice", envFile: true, ignoresContinue: true },
  DirectoryAdded: { matcherField: "source", handlerTypes: NO_LLM, exitTwo: "ignored", ignoresContinue: true },
  FileChanged: { matcherField: "file_path", narrowExact: true, handlerTypes: NO_LLM, exitTwo: "notice", envFile: true, ignoresContinue: true },
  WorktreeCreate: { handlerTypes: NO_LLM, exitTwo: "block", ignoresContinue: true },
  WorktreeRemove: { handlerTypes: NO_LLM, exitTwo: "ignored", ignoresContinue: true },
  PreCompact: { matcherField: "trigger", handlerTypes: NO_LLM, exitTwo: "block", ignoresContinue: true },
  PostCompact: { matcherField: "trigger", handlerTypes: NO_LLM, exitTwo: "notice", ignoresContinue: true },
  Elicitation: { matcherField: "mcp_server_name", handlerTypes: NO_LLM, exitTwo: "block", ignoresContinue: true },
  ElicitationResult: { matcherField: "mcp_server_name", handlerTypes: NO_LLM, exitTwo: "block", ignoresContinue: true },
  SessionEnd: { matcherField: "reason", handlerTypes: NO_LLM, exitTwo: "notice", ignoresContinue: true },
};

export function isHookEvent(name: string): name is HookEventName {
  return Object.hasOwn(EVENT_TRAITS, name);
}

export function isFiredEvent(name: HookEventName): name is FiredHookEvent {
  return (FIRED_EVENTS as readonly string[]).includes(name);
}

/** Default timeouts in seconds (hooks.md §4): LLM hooks are short, the rest get ten minutes. */
export function defaultTimeoutSeconds(type: HandlerType, event: HookEventName): number {
  if (type === "prompt") return 30;
  if (type === "agent") return 60;
  if (event === "UserPromptSubmit") return 30;
  if (event === "MessageDisplay") return 10;
  return 600;
}

/** SessionEnd hooks share one budget (hooks.md §7). */
export const SESSION_END_BUDGET_MS = 1500;
export const SESSION_END_BUDGET_CAP_MS = 60_000;

/**
 * Stop loop protection (hooks.md §6.6): after this many consecutive Stop/SubagentStop blocks the
 * caller stops anyway (`CLAUDE_CODE_STOP_HOOK_BLOCK_CAP` overrides it) and sets `stop_hook_active`
 * while continuing because of a block.
 */
export const STOP_HOOK_BLOCK_CAP = 8;
