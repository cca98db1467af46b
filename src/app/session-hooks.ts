/**
 * The hooks of one session: the engine wired to the permission rules (`if`), a small-model call
 * (prompt hooks), the session's files (CLAUDE_ENV_FILE, spills) and its event stream (transcript
 * records, stream-json frames); SessionStart fired once it exists. Nothing here runs for a
 * session without hooks.
 */
import { join } from "node:path";
import type { HookEngine } from "../hooks/engine.ts";
import { hookResponseFrame, hookStartedFrame } from "../hooks/frames.ts";
import type { SessionStartOutcome, SetupOutcome } from "../hooks/outcomes.ts";
import type { Emit } from "../loop/events.ts";
import type { StreamFn } from "../model/types.ts";
import { ruleCovers } from "../permissions/evaluate.ts";
import type { PermissionContext, PermissionMode } from "../permissions/types.ts";
import type { LoadedSettings } from "../settings/types.ts";
import type { AnyTool, ToolSession } from "../tools/types.ts";
import { setUpHooks, type DeferredHooks, type HookApprovalPort } from "./hooks-setup.ts";

/** Where hook events go: the running turn's stream when there is one, else the transcript alone. */
export interface HookSink {
  emit: Emit | undefined;
}

export interface SessionHooksInput {
  loaded: LoadedSettings;
  toolSession: ToolSession;
  sessionId: string;
  transcriptPath: string;
  /** The session's own folder in clew's state dir (env file, spilled hook output). */
  sessionDir: string | undefined;
  mode: () => PermissionMode;
  permissionContext: () => PermissionContext;
  tool: (name: string) => AnyTool | undefined;
  stream: StreamFn;
  /** The model id a prompt hook's `model` (or the default, haiku) resolves to. */
  resolveModel: (nameOrAlias: string) => string;
  report: (line: string) => void;
  sink: HookSink;
  sessionEndBudgetMs?: number;
  configDir: string;
  approve?: HookApprovalPort;
  /** Enabled plugins' hooks (hooks/hooks.json, manifest hooks), compiled once one of their events matters. */
  pluginHooks?: DeferredHooks;
  admitPlugin?: (root: string) => boolean;
  /** Settles once the first request is on its way: a headless start collects its hooks then, if nothing needs them sooner (HooksSetupInput.startAfter). */
  startAfter?: Promise<unknown>;
}

const JUDGE_SYSTEM =
  "You evaluate a hook condition for a coding agent. Answer with one JSON object only: " +
  '{"ok": true} when the condition is met, or {"ok": false, "reason": "…"} when it is not.';

function promptPort(input: SessionHooksInput) {
  return async (prompt: string, model: string | undefined, signal: AbortSignal): Promise<string> => {
    const request = {
      model: input.resolveModel(model ?? "haiku"),
      maxTokens: 1024,
      system: [{ type: "text" as const, text: JUDGE_SYSTEM }],
      tools: [],
      messages: [{ role: "user" as const, content: prompt }],
    };
    for await (const event of input.stream(request, signal)) {
      if (event.type !== "message") continue;
      return event.message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
    }
    throw new Error("the model sent no reply");
  };
}

export interface SessionHookEngine {
  engine: HookEngine;
  /** Registers an invoked skill's frontmatter `hooks` (skills-commands-agents.md A.2). */
  addSkill(skill: { name: string; file: string; hooks?: Record<string, unknown>; shared: boolean }): void;
  /** Registers an agent type's frontmatter `hooks`: they run only while a helper of that type runs (C.3). */
  addAgent(agent: { name: string; file: string; hooks?: Record<string, unknown>; shared: boolean }): void;
}

/** `force`: start the engine even without settings hooks (a skill with frontmatter hooks may be invoked). */
export async function startSessionHooks(input: SessionHooksInput, force = false): Promise<SessionHookEngine | undefined> {
  const { toolSession } = input;
  const setup = await setUpHooks({
    loaded: input.loaded,
    projectDir: toolSession.projectDir,
    env: toolSession.env,
    common: () => ({ session_id: input.sessionId, transcript_path: input.transcriptPath, cwd: toolSession.cwd, permission_mode: input.mode() }),
    matchesRule: async (rule, toolName, toolInput) => {
      const tool = input.tool(toolName);
      const subject = tool ? tool.subject(toolInput, toolSession) : "";
      return ruleCovers(rule, { toolName, access: tool?.access ?? "exec", input: toolInput, subject }, input.permissionContext());
    },
    prompt: promptPort(input),
    ...(input.sessionDir ? { envFile: join(input.sessionDir, "session-env.sh") } : {}),
    report: input.report,
    configDir: input.configDir,
    ...(input.pluginHooks && input.pluginHooks.sources.length > 0 ? { deferred: input.pluginHooks } : {}),
    ...(input.admitPlugin ? { admitPlugin: input.admitPlugin } : {}),
    ...(input.approve ? { approve: input.approve } : {}),
    ...(input.startAfter ? { startAfter: input.startAfter } : {}),
    ...(input.sessionEndBudgetMs !== undefined ? { sessionEndBudgetMs: input.sessionEndBudgetMs } : {}),
    onHookStarted: (info) => input.sink.emit?.({ type: "hook_started", frame: { ...hookStartedFrame(info) } }),
    onHookFinished: (record) => {
      const summary = {
        event: record.event,
        hookName: record.hookName,
        ...(record.matcher !== undefined ? { matcher: record.matcher } : {}),
        command: record.command,
        durationMs: Math.round(record.durationMs),
        ...(record.exitCode !== undefined ? { exitCode: record.exitCode } : {}),
        outcome: record.outcome,
        stderr: record.stderr.slice(0, 2000),
      };
      input.sink.emit?.({ type: "hook_response", frame: { ...hookResponseFrame(record) }, record: summary });
    },
  }, force);
  if (!setup) return undefined;
  return {
    engine: setup.engine,
    addSkill: (skill) => {
      if (!skill.hooks) return;
      setup.addSource({ origin: { kind: "skill", name: skill.name, file: skill.file, sharedProject: skill.shared }, hooks: skill.hooks, keyPath: "hooks" });
    },
    addAgent: (agent) => {
      if (!agent.hooks) return;
      setup.addSource({ origin: { kind: "agent", name: agent.name, file: agent.file, sharedProject: agent.shared }, hooks: agent.hooks, keyPath: "hooks" });
    },
  };
}

/** Setup (`--init`, `--init-only`, `--maintenance`): fired before SessionStart, its context placed alike. */
export async function fireSetup(engine: HookEngine, trigger: "init" | "maintenance"): Promise<SetupOutcome | undefined> {
  if (!engine.hasHooks("Setup")) return undefined;
  return engine.fire("Setup", { trigger });
}

/** SessionStart: its context reaches the model with the next request, after the cached prefix. */
export async function fireSessionStart(engine: HookEngine, source: "startup" | "resume", model: string): Promise<SessionStartOutcome | undefined> {
  if (!engine.hasHooks("SessionStart")) return undefined;
  return engine.fire("SessionStart", { source, model });
}

/**
 * Async hooks that finished since the last request: their context and messages reach the model
 * with the next request, as reminders (hooks.md §8).
 */
export function deliverAsyncResults(engine: HookEngine, queue: (text: string) => void): void {
  for (const result of engine.takeAsyncResults()) {
    for (const text of [...result.additionalContext, ...result.systemMessages]) queue(text);
    if (result.rewake) queue(result.rewake.message);
  }
}
