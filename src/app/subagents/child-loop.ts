/**
 * One helper's conversation: its own messages, tools, transcript and ToolSession, run by the same
 * `runLoop` as the main conversation with another LoopDeps. Every call it makes passes the
 * session's permission gate (tagged with the helper's name, in the helper's mode) and hooks
 * (with `agent_id`/`agent_type`; its Stop hooks fire as SubagentStop).
 */
import { join } from "node:path";
import { buildSystem } from "../../context/system-prompt.ts";
import { withMessageBreakpoints } from "../../context/cache-points.ts";
import type { HookRunner } from "../../hooks/outcomes.ts";
import type { AgentEvent, Emit, LoopOutcome } from "../../loop/events.ts";
import { ToolExecutor } from "../../loop/execute.ts";
import { runLoop, type LoopDeps, type LoopState } from "../../loop/loop.ts";
import type { ContentBlockParam, MessageParam, StreamFn } from "../../model/types.ts";
import type { ScopedGate } from "../../permissions/gate.ts";
import type { Gate, PermissionMode } from "../../permissions/types.ts";
import { TranscriptWriter } from "../../store/transcript.ts";
import { FileTracker } from "../../tools/shared/file-tracker.ts";
import { ShellJobRegistry } from "../../tools/shared/shell-jobs.ts";
import type { AgentPort, AnyTool, SandboxPort, ToolSession } from "../../tools/types.ts";
import { createRecorder } from "../recorder.ts";
import { toApiTool } from "../tool-set.ts";
import { untilHelpersReport } from "../helpers-wait.ts";

export interface ChildSetup {
  agentId: string;
  agentType: string;
  description: string;
  parentToolUseId: string;
  background: boolean;
  systemPrompt: string;
  model: string;
  maxTokens: number;
  tools: readonly AnyTool[];
  /** The helper's working directory: the session's, or its worktree. */
  cwd: string;
  /** Set when `cwd` is the helper's own git worktree: its Bash commands may write there instead of the project. */
  worktree?: string;
  mode: PermissionMode | undefined;
  maxTurns: number | undefined;
  firstMessage: ContentBlockParam[];
  /** The helper's own Agent port (one layer deeper), when nesting is allowed. */
  agents: AgentPort | undefined;
  /**
   * Reports of the helper's own background helpers: delivered to it as reminders, and waited for
   * before it finishes, so they reach its report rather than the main conversation.
   */
  helpersInBackground?: { notices: string[]; running(): number; next(): Promise<void> };
}

export interface ChildServices {
  stream: StreamFn;
  gate: ScopedGate;
  hooks: HookRunner | undefined;
  parentSession: ToolSession;
  facts: { platform: string; shell: string; isGitRepo: boolean };
  toolTimeoutMs: number;
  maxResultChars: number;
  spill?: (toolUseId: string, text: string) => string | undefined;
  transcriptDir: string | undefined;
  /** `--append-subagent-system-prompt`: added to every helper's system prompt. */
  appendSystemPrompt?: string;
  identity: { sessionId: string; version: string };
  now: () => Date;
  budgetExceeded: () => boolean;
  /** Every event of the helper, after its transcript has it. */
  emit: Emit;
}

export interface Child {
  state: LoopState;
  transcriptPath: string | undefined;
  /** Runs the helper until it stops; a new message first when resuming. */
  run(signal: AbortSignal, message?: ContentBlockParam[]): Promise<LoopOutcome>;
  close(): Promise<void>;
}

/** The session's hooks as a helper fires them: tagged with the helper, its Stop as SubagentStop. */
function helperHooks(hooks: HookRunner, ids: { agent_id: string; agent_type: string }, transcriptPath: string): HookRunner {
  const fire = ((event, fields, options) => {
    const common = { ...options?.common, ...ids };
    if (event === "Stop") {
      const stop = fields as { stop_hook_active: boolean; last_assistant_message?: string };
      return hooks.fire("SubagentStop", { ...stop, ...ids, agent_transcript_path: transcriptPath }, { ...options, common });
    }
    return hooks.fire(event, fields, { ...options, common });
  }) as HookRunner["fire"];
  return {
    fire,
    hasHooks: (event) => hooks.hasHooks(event === "Stop" ? "SubagentStop" : event),
    ...(hooks.hasHooksFor ? { hasHooksFor: (event, tool) => hooks.hasHooksFor?.(event, tool) ?? hooks.hasHooks(event) } : {}),
  };
}

/**
 * The session's sandbox, for the helper's Bash: as it is, or narrowed to the helper's worktree
 * (writable there, not in the project). Never none where the session has one — the gate
 * auto-allows a helper's sandboxed commands just as the main conversation's.
 */
function helperSandbox(parent: ToolSession, worktree: string | undefined): SandboxPort | undefined {
  if (!parent.sandbox) return undefined;
  return worktree === undefined ? parent.sandbox : parent.sandbox.forWorktree(worktree);
}

export function createChild(setup: ChildSetup, services: ChildServices): Child {
  const parent = services.parentSession;
  const sandbox = helperSandbox(parent, setup.worktree);
  const toolSession: ToolSession = {
    projectDir: setup.cwd,
    cwd: setup.cwd,
    // Its own view of which files it has read: an edit needs the helper's own Read first.
    files: new FileTracker(),
    shells: new ShellJobRegistry(),
    todos: [],
    env: parent.env,
    limits: parent.limits,
    ...(parent.spillDir ? { spillDir: parent.spillDir } : {}),
    ...(parent.readDenied ? { readDenied: parent.readDenied } : {}),
    ...(parent.skills ? { skills: parent.skills } : {}),
    ...(setup.agents ? { agents: setup.agents } : {}),
    ...(parent.sideModel ? { sideModel: parent.sideModel } : {}),
    ...(sandbox ? { sandbox } : {}),
  };
  const label = `${setup.agentType}: ${setup.description}`;
  const gate: Gate = { check: (request) => services.gate.check({ ...request, agent: label, ...(setup.mode ? { mode: setup.mode } : {}), shellCwd: toolSession.cwd }) };
  const transcriptPath = services.transcriptDir ? join(services.transcriptDir, `agent-${setup.agentId}.jsonl`) : undefined;
  const hooks = services.hooks ? helperHooks(services.hooks, { agent_id: setup.agentId, agent_type: setup.agentType }, transcriptPath ?? "") : undefined;
  const executor = new ToolExecutor({
    tools: setup.tools,
    gate,
    session: toolSession,
    toolTimeoutMs: services.toolTimeoutMs,
    maxResultChars: services.maxResultChars,
    ...(services.spill ? { spill: services.spill } : {}),
    ...(hooks ? { hooks } : {}),
  });
  let writer: TranscriptWriter | undefined;
  if (transcriptPath) {
    writer = TranscriptWriter.create(transcriptPath, { sessionId: services.identity.sessionId, cwd: setup.cwd, version: services.identity.version, gitBranch: "" }, setup.model, services.now());
    writer.appendMeta({ type: "agent-link", agentId: setup.agentId, agentType: setup.agentType, description: setup.description, parentToolUseId: setup.parentToolUseId });
  }
  const record = writer ? createRecorder(writer, services.now) : undefined;
  const emit: Emit = (event: AgentEvent) => {
    record?.(event);
    services.emit(event);
  };
  const deps: LoopDeps = {
    stream: services.stream,
    tools: {
      isReadOnly: (name) => executor.tool(name)?.access === "read",
      execute: (call, signal, onEvent) => executor.execute(call, signal, onEvent),
    },
    request: {
      model: setup.model,
      maxTokens: setup.maxTokens,
      system: buildSystem({ cwd: setup.cwd, model: setup.model, ...services.facts }, { replace: setup.systemPrompt, append: services.appendSystemPrompt }),
      tools: setup.tools.map(toApiTool),
    },
    prepare: withMessageBreakpoints,
    limits: { maxTurns: setup.maxTurns, maxOutputRecoveries: 3, budgetExceeded: services.budgetExceeded },
    now: () => performance.now(),
    ...(hooks ? { hooks } : {}),
  };
  const state: LoopState = { messages: [] };
  let pending: ContentBlockParam[] | undefined = setup.firstMessage;
  return {
    state,
    transcriptPath,
    async run(signal, message) {
      const blocks = message ?? pending;
      pending = undefined;
      if (blocks) {
        const user: MessageParam = { role: "user", content: blocks };
        state.messages.push(user);
        emit({ type: "turn_start", message: user });
      }
      const outcome = await runLoop(state, deps, emit, signal);
      const background = setup.helpersInBackground;
      return background ? await untilHelpersReport(outcome, background, { state, deps, emit, signal }) : outcome;
    },
    async close() {
      await toolSession.shells.killAll();
      writer?.close();
    },
  };
}
