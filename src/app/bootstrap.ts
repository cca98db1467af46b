/**
 * The composition root: resolves model, tools, permissions, transcript and prompt once, then
 * hands the loop everything it needs. Nothing below this file reads the environment.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { buildSystem } from "../context/system-prompt.ts";
import { withMessageBreakpoints } from "../context/cache-points.ts";
import { ToolExecutor } from "../loop/execute.ts";
import type { LoopDeps } from "../loop/loop.ts";
import { createStreamFn, preloadSdk } from "../model/client.ts";
import { DEFAULT_MODEL_ALIAS, modelInfo, resolveModelId } from "../model/models.ts";
import type { MessageParam } from "../model/types.ts";
import { createModeGate } from "../permissions/mode-gate.ts";
import type { PermissionMode } from "../permissions/types.ts";
import { projectStateDir, type Environment } from "../settings/paths.ts";
import { transcriptPath } from "../store/sessions.ts";
import { TranscriptWriter } from "../store/transcript.ts";
import { FileTracker } from "../tools/shared/file-tracker.ts";
import { ShellJobRegistry } from "../tools/shared/shell-jobs.ts";
import { defaultToolLimits, type ToolLimits, type ToolSession } from "../tools/types.ts";
import { FatalError } from "../util/errors.ts";
import { ContextManager } from "./context-manager.ts";
import { loadStartupInstructions } from "./instruction-context.ts";
import { createRecorder } from "./recorder.ts";
import { loadResumed, type ResumeRequest } from "./resume.ts";
import { Session, type SessionInfo } from "./session.ts";
import { builtinTools, selectTools, toApiTool } from "./tool-set.ts";

export interface SessionOptions {
  env: Environment;
  version: string;
  model?: string;
  maxTurns?: number;
  permissionMode: PermissionMode;
  systemPrompt?: string;
  appendSystemPrompt?: string;
  /** `--tools`: restrict the built-in set. */
  tools?: string[];
  /** Bare tool names from `--disallowedTools`: removed from what the model sees. */
  removedTools: string[];
  resume?: ResumeRequest;
  sessionId?: string;
  persist: boolean;
  now?: () => Date;
}

/** Hard ceiling for any one tool call: above Bash's own maximum so Bash reports its timeout itself. */
const TOOL_CEILING_MARGIN_MS = 60_000;
const MAX_RESULT_CHARS = 100_000;
const IDLE_TIMEOUT_MS = 90_000;

function isGitRepo(dir: string): boolean {
  for (let current = dir; ; current = dirname(current)) {
    if (existsSync(join(current, ".git"))) return true;
    if (dirname(current) === current) return false;
  }
}

function toolLimits(env: Environment): ToolLimits {
  return {
    ...defaultToolLimits,
    bashDefaultTimeoutMs: env.bashDefaultTimeoutMs ?? defaultToolLimits.bashDefaultTimeoutMs,
    bashMaxTimeoutMs: env.bashMaxTimeoutMs ?? defaultToolLimits.bashMaxTimeoutMs,
    bashMaxOutputChars: Math.min(env.bashMaxOutputChars ?? defaultToolLimits.bashMaxOutputChars, 150_000),
  };
}

export async function openSession(options: SessionOptions): Promise<Session> {
  const { env } = options;
  if (!env.apiKey && !env.authToken) {
    throw new FatalError(
      "auth",
      "No API credentials found.",
      "Set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN for a bearer token; ANTHROPIC_BASE_URL for another endpoint).",
    );
  }
  preloadSdk();
  const now = options.now ?? (() => new Date());
  const stateDir = projectStateDir(env.configDir, env.cwd);
  const resumed = options.resume ? loadResumed(env, stateDir, options.resume) : undefined;
  const model = resolveModelId(options.model ?? env.model ?? resumed?.model ?? DEFAULT_MODEL_ALIAS, env.aliasOverrides);
  const info = modelInfo(model);
  const sessionId = resumed?.sessionId ?? options.sessionId ?? crypto.randomUUID();

  const selected = selectTools(builtinTools, options.tools, options.removedTools);
  if (selected.unknown.length > 0) {
    throw new FatalError("usage", `Unknown tool name(s): ${selected.unknown.join(", ")}`, `Built-in tools are: ${builtinTools.map((t) => t.name).join(", ")}.`);
  }
  const limits = toolLimits(env);
  const toolSession: ToolSession = {
    projectDir: env.cwd,
    cwd: env.cwd,
    files: new FileTracker(),
    shells: new ShellJobRegistry(),
    todos: [],
    env: { ...env.childEnv, CLAUDECODE: "1", CLEW: "1" },
    limits,
  };
  const sessionDir = join(stateDir, sessionId);
  const executor = new ToolExecutor({
    tools: selected.tools,
    gate: createModeGate(options.permissionMode),
    session: toolSession,
    toolTimeoutMs: limits.bashMaxTimeoutMs + TOOL_CEILING_MARGIN_MS,
    maxResultChars: MAX_RESULT_CHARS,
    spill: options.persist
      ? (toolUseId, text) => {
          const path = join(sessionDir, "tool-results", `${toolUseId}.txt`);
          mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
          writeFileSync(path, text, { mode: 0o600 });
          return path;
        }
      : undefined,
  });

  const path = resumed?.path ?? transcriptPath(stateDir, sessionId);
  const instructions = await loadStartupInstructions(env, [], true);
  const context = new ContextManager(
    {
      windowTokens: env.contextWindow ?? info.contextWindow,
      compactPercent: 80,
      autoCompact: true,
      files: toolSession.files,
      transcriptPath: () => (options.persist ? path : undefined),
      now,
      nested: instructions.watcher,
    },
    () => loopDeps,
  );
  const loopDeps: LoopDeps = {
    stream: createStreamFn({
      apiKey: env.apiKey,
      authToken: env.authToken,
      baseURL: env.baseURL,
      maxRetries: Math.min(env.maxRetries ?? 10, 15),
      idleTimeoutMs: env.streamIdleTimeoutMs ?? IDLE_TIMEOUT_MS,
      requestTimeoutMs: env.requestTimeoutMs ?? 600_000,
      headers: { "user-agent": `clew/${options.version}`, ...env.customHeaders },
    }),
    tools: {
      isReadOnly: (name) => executor.tool(name)?.access === "read",
      execute: (call, signal, emit) => executor.execute(call, signal, emit),
    },
    request: {
      model,
      maxTokens: Math.min(env.maxOutputTokens ?? info.maxOutputTokens, info.maxOutputTokens),
      system: buildSystem(
        { cwd: env.cwd, platform: process.platform, shell: env.childEnv.SHELL ?? "bash", isGitRepo: isGitRepo(env.cwd), model },
        { replace: options.systemPrompt, append: options.appendSystemPrompt, instructions: instructions.text },
      ),
      tools: selected.tools.map(toApiTool),
      ...(env.maxThinkingTokens ? { thinking: { type: "enabled" as const, budget_tokens: env.maxThinkingTokens } } : {}),
    },
    prepare: withMessageBreakpoints,
    beforeRequest: context.beforeRequest,
    limits: { maxTurns: options.maxTurns ?? env.maxTurns, maxOutputRecoveries: 3 },
    now: () => performance.now(),
  };

  const identity = { sessionId, cwd: env.cwd, version: options.version, gitBranch: "" };
  let writer: TranscriptWriter | undefined;
  if (options.persist) {
    writer = resumed ? TranscriptWriter.append(path, identity, resumed.leafUuid) : TranscriptWriter.create(path, identity, model, now());
  }
  const recorder = writer ? createRecorder(writer, now) : undefined;
  const messages: MessageParam[] = resumed?.messages ?? [];
  context.restoreFrom(messages);
  if (resumed && recorder && resumed.repairs) recorder(resumed.repairs);

  const sessionInfo: SessionInfo = {
    sessionId,
    model,
    cwd: env.cwd,
    tools: selected.tools.map((tool) => tool.name),
    permissionMode: options.permissionMode,
    transcriptPath: writer ? path : undefined,
    apiKeySource: env.authToken ? "ANTHROPIC_AUTH_TOKEN" : "ANTHROPIC_API_KEY",
    version: options.version,
  };
  return new Session(sessionInfo, loopDeps, toolSession, context, messages, recorder, writer);
}
