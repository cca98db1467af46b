/**
 * What firing an event returns: every matching hook's result combined (hooks.md §6.6) into one
 * typed outcome per event. The engine never decides permissions or edits the conversation itself;
 * the caller applies each field (see the field comments for where each one goes).
 */
import type { FiredHookEvent } from "./events.ts";
import type { HookCommonInput, HookEventFields, PermissionUpdate } from "./inputs.ts";

export interface HookOutcomeBase {
  /**
   * A hook returned `continue: false` (or a prompt hook blocked with its default effect): stop the
   * agent after this step. `reason` (`stopReason`) is shown to the user, not to the model.
   */
  stop?: { reason: string; hookName: string };
  /** `systemMessage` values and prompt-hook warnings, for the user. */
  systemMessages: string[];
  /** Non-blocking failures, each `<hook> hook error: …`, for the user (or the debug log). */
  errors: string[];
  /** Allow-listed OSC/BEL sequences the interactive UI may write; ignore elsewhere. */
  terminalSequences: string[];
  /** Handlers that ran to an answer (synchronous) and that were started in the background. */
  ran: number;
  asyncStarted: number;
}

/** Strings to add to the model's context, each as a system reminder, in configuration order. */
interface WithContext {
  additionalContext: string[];
}

export interface SessionStartOutcome extends HookOutcomeBase, WithContext {
  /** `-p` only: the first user turn when the user gave none. */
  initialUserMessage?: string;
  sessionTitle?: string;
  watchPaths: string[];
  reloadSkills: boolean;
  /** Variables the hooks exported through CLAUDE_ENV_FILE: add them to the Bash tool's environment. */
  env: Record<string, string>;
  /** Lines of the env file that could not be used, with their line numbers. */
  envProblems: string[];
}

/** `--init`, `--init-only`, `--maintenance`: context for the start of the conversation, and CLAUDE_ENV_FILE's variables. */
export interface SetupOutcome extends HookOutcomeBase, WithContext {
  env: Record<string, string>;
  envProblems: string[];
}

export interface UserPromptSubmitOutcome extends HookOutcomeBase, WithContext {
  /** The prompt is blocked and erased; `reason` goes to the user, never the model. */
  block?: { reason: string; suppressOriginalPrompt: boolean };
  sessionTitle?: string;
}

export type PreToolDecision = "allow" | "deny" | "ask" | "defer";

export interface PreToolUseOutcome extends HookOutcomeBase, WithContext {
  /** Most restrictive wins: deny > defer > ask > allow. Undefined = no hook decided. */
  decision?: PreToolDecision;
  /** deny: for the model (tool error); ask/allow: for the user. Reasons of the winning hooks, joined. */
  reason?: string;
  /** Replaces the whole tool input (allow/ask only); the gate must re-validate it. */
  updatedInput?: Record<string, unknown>;
}

export interface PostToolUseOutcome extends HookOutcomeBase, WithContext {
  /** Text for the model next to the tool result (`decision: "block"` reasons, exit-2 stderr). */
  feedback: string[];
  /** Replacement tool output; must match the tool's output shape (MCP tools: unchecked). */
  updatedToolOutput?: unknown;
}

export interface PostToolUseFailureOutcome extends HookOutcomeBase, WithContext {
  /** Text for the model next to the failed result. */
  feedback: string[];
}

export type PermissionRequestAnswer =
  | { behavior: "allow"; updatedInput?: Record<string, unknown>; updatedPermissions: PermissionUpdate[] }
  | { behavior: "deny"; message?: string; interrupt: boolean };

export interface PermissionRequestOutcome extends HookOutcomeBase {
  /** Answers the prompt instead of the user; any deny wins over allows. Undefined = ask the user. */
  decision?: PermissionRequestAnswer;
}

export interface PermissionDeniedOutcome extends HookOutcomeBase {
  /** Tell the model it may retry the call. */
  retry: boolean;
}

export interface StopOutcome extends HookOutcomeBase, WithContext {
  /** Do not stop: continue the turn with `reason` as the next instruction to the model. */
  block?: { reason: string };
}

export interface PreCompactOutcome extends HookOutcomeBase {
  /** Compaction does not happen; for a manual /compact, show `reason` to the user. */
  block?: { reason: string };
}

export type NotificationOutcome = HookOutcomeBase & WithContext;
export type SubagentStartOutcome = HookOutcomeBase & WithContext;
export type PostCompactOutcome = HookOutcomeBase;
export type SessionEndOutcome = HookOutcomeBase;

export interface HookOutcomes {
  SessionStart: SessionStartOutcome;
  Setup: SetupOutcome;
  SessionEnd: SessionEndOutcome;
  UserPromptSubmit: UserPromptSubmitOutcome;
  PreToolUse: PreToolUseOutcome;
  PostToolUse: PostToolUseOutcome;
  PostToolUseFailure: PostToolUseFailureOutcome;
  PermissionRequest: PermissionRequestOutcome;
  PermissionDenied: PermissionDeniedOutcome;
  Notification: NotificationOutcome;
  Stop: StopOutcome;
  SubagentStart: SubagentStartOutcome;
  SubagentStop: StopOutcome;
  PreCompact: PreCompactOutcome;
  PostCompact: PostCompactOutcome;
}

/** What an async hook delivers when it finishes (hooks.md §8): for the model, on the next turn. */
export interface AsyncHookResult {
  runId: string;
  hookId: string;
  event: FiredHookEvent;
  hookName: string;
  additionalContext: string[];
  /** Async systemMessages go to the model, not the user. */
  systemMessages: string[];
  errors: string[];
  /** `asyncRewake` and exit 2: wake the model with this text as a system reminder. */
  rewake?: { message: string; summary?: string };
}

export interface FireOptions {
  /** Aborting kills the running (synchronous) hooks; their results count as cancelled. */
  signal?: AbortSignal;
  /** Overrides of the common fields: `agent_id`/`agent_type` inside a subagent, `permission_mode`, … */
  common?: Partial<HookCommonInput>;
}

/** What the loop sees of the engine (the loop may import hooks types only). */
export interface HookRunner {
  fire<E extends FiredHookEvent>(event: E, fields: HookEventFields[E], options?: FireOptions): Promise<HookOutcomes[E]>;
  /** Cheap check, so callers can skip building an input nobody reads. */
  hasHooks(event: FiredHookEvent): boolean;
  /** For tool events: whether any hook's matcher accepts this tool (undefined: ask `hasHooks`). */
  hasHooksFor?(event: FiredHookEvent, toolName: string): boolean;
  /** How many hook handlers the session has started so far, of any event (undefined: unknown). */
  started?(): number;
}
