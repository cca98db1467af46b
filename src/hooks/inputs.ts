/**
 * The JSON a hook receives on stdin (or as the HTTP body, or as `$ARGUMENTS`): the common fields of
 * hooks.md §5.1 followed by the event's own fields (§5.2), with snake_case names exactly as Claude
 * Code sends them, so existing hook scripts read them unchanged.
 */
import { truncateMiddle } from "../util/truncate.ts";
import type { FiredHookEvent } from "./events.ts";

export type HookPermissionMode = "default" | "plan" | "acceptEdits" | "auto" | "dontAsk" | "bypassPermissions";

/** Session facts every hook sees; the caller fills what it knows. */
export interface HookCommonInput {
  session_id: string;
  transcript_path: string;
  cwd: string;
  /** Present after the first user input. */
  prompt_id?: string;
  permission_mode?: HookPermissionMode;
  /** Tool-context events only. */
  effort?: { level: string };
  /** Only inside a subagent. */
  agent_id?: string;
  /** Inside a subagent, or with `--agent`. */
  agent_type?: string;
}

/** Permission update entries (hooks.md §6.5): `permission_suggestions` in, `updatedPermissions` out. */
export type PermissionUpdateDestination = "session" | "localSettings" | "projectSettings" | "userSettings";
export type PermissionUpdate =
  | {
      type: "addRules" | "replaceRules" | "removeRules";
      rules: { toolName: string; ruleContent?: string }[];
      behavior: "allow" | "deny" | "ask";
      destination: PermissionUpdateDestination;
    }
  | {
      type: "setMode";
      mode: "default" | "auto" | "acceptEdits" | "dontAsk" | "bypassPermissions" | "plan" | "manual";
      destination: PermissionUpdateDestination;
    }
  | { type: "addDirectories" | "removeDirectories"; directories: string[]; destination: PermissionUpdateDestination };

export interface BackgroundTaskInfo {
  id: string;
  type: string;
  status: string;
  description: string;
  command?: string;
  agent_type?: string;
  server?: string;
  tool?: string;
  name?: string;
}

export interface SessionCronInfo {
  id: string;
  schedule: string;
  recurring: boolean;
  prompt: string;
}

type ToolInput = Record<string, unknown>;

/** The event-specific fields of every event clew fires. */
export interface HookEventFields {
  SessionStart: { source: "startup" | "resume" | "clear" | "compact" | "fork"; model?: string; agent_type?: string; session_title?: string };
  Setup: { trigger: "init" | "maintenance" };
  SessionEnd: { reason: "clear" | "resume" | "logout" | "prompt_input_exit" | "other" };
  UserPromptSubmit: { prompt: string; session_title?: string };
  PreToolUse: { tool_name: string; tool_input: ToolInput; tool_use_id: string };
  PostToolUse: { tool_name: string; tool_input: ToolInput; tool_response: unknown; tool_use_id: string; duration_ms?: number };
  PostToolUseFailure: {
    tool_name: string;
    tool_input: ToolInput;
    tool_use_id: string;
    /** Bash: first line `Exit code N`. Cut in the middle past 10,000 characters. */
    error: string;
    is_interrupt?: boolean;
    duration_ms?: number;
  };
  PermissionRequest: { tool_name: string; tool_input: ToolInput; permission_suggestions?: PermissionUpdate[] };
  PermissionDenied: { tool_name: string; tool_input: ToolInput; tool_use_id: string; reason: string };
  Notification: { message: string; title?: string; notification_type: string };
  Stop: {
    stop_hook_active: boolean;
    last_assistant_message?: string;
    background_tasks?: BackgroundTaskInfo[];
    session_crons?: SessionCronInfo[];
  };
  SubagentStart: { agent_id: string; agent_type: string };
  SubagentStop: {
    stop_hook_active: boolean;
    agent_id: string;
    agent_type: string;
    agent_transcript_path: string;
    last_assistant_message?: string;
    background_tasks?: BackgroundTaskInfo[];
    session_crons?: SessionCronInfo[];
  };
  PreCompact: { trigger: "manual" | "auto"; custom_instructions: string | null };
  PostCompact: { trigger: "manual" | "auto"; compact_summary: string };
}

export type HookInput<E extends FiredHookEvent> = HookCommonInput & { hook_event_name: E } & HookEventFields[E];

const MAX_ERROR_CHARS = 10_000;

/** JSON.stringify drops undefined anyway; dropping it here keeps records and tests exact. */
function withoutUndefined<T extends object>(value: T): T {
  const copy = { ...value };
  for (const key of Object.keys(copy) as (keyof T)[]) if (copy[key] === undefined) delete copy[key];
  return copy;
}

/**
 * Builds the payload for one event. Key order follows Claude Code (common fields, the event name,
 * then the event's fields), which scripts that print their input for debugging rely on to read well.
 */
export function hookInput<E extends FiredHookEvent>(event: E, common: HookCommonInput, fields: HookEventFields[E]): HookInput<E> {
  const { session_id, transcript_path, cwd, prompt_id, permission_mode, effort, agent_id, agent_type } = common;
  const own = { ...fields };
  if ("error" in own && typeof own.error === "string") own.error = truncateMiddle(own.error, MAX_ERROR_CHARS);
  const head: HookCommonInput & { hook_event_name: E } = {
    session_id,
    transcript_path,
    cwd,
    prompt_id,
    permission_mode,
    effort,
    agent_id,
    agent_type,
    hook_event_name: event,
  };
  const payload: HookInput<E> = { ...head, ...own };
  return withoutUndefined(payload);
}

/** The value an event's matcher is tested against (hooks.md §3), if the event has one. */
export function matchValueOf(input: object, field: string | undefined): string | undefined {
  if (field === undefined) return undefined;
  const value = inputField(input, field);
  if (typeof value !== "string") return undefined;
  // FileChanged filters groups by the changed file's basename.
  if (field === "file_path") return value.slice(value.lastIndexOf("/") + 1);
  return value;
}

/** One field of a typed input, by name. */
export function inputField(input: object, key: string): unknown {
  return Object.hasOwn(input, key) ? (input as Record<string, unknown>)[key] : undefined;
}
