/** What a session is and what it holds besides the conversation (session.ts runs it; bootstrap.ts builds it). */
import type { Emit } from "../loop/events.ts";
import type { LoopDeps } from "../loop/loop.ts";
import type { PermissionMode } from "../permissions/types.ts";
import type { LoadedSettings } from "../settings/types.ts";
import type { TranscriptWriter } from "../store/transcript.ts";
import type { ToolSession } from "../tools/types.ts";
import type { HookEngine } from "../hooks/engine.ts";
import type { ContextManager } from "./context-manager.ts";
import type { PermissionSetup } from "./permission-setup.ts";
import type { InvocationDeps } from "./invocations.ts";
import type { HookSink } from "./session-hooks.ts";
import type { SessionMcp } from "./mcp-setup.ts";
import type { McpServerInitError } from "./mcp-config.ts";
import type { SessionHelpers } from "./helpers-wait.ts";
import type { SessionReasoning } from "./thinking-setup.ts";
import type { CheckpointPort } from "./checkpoints-setup.ts";

export interface SessionInfo {
  sessionId: string;
  model: string;
  cwd: string;
  tools: string[];
  permissionMode: PermissionMode;
  transcriptPath: string | undefined;
  apiKeySource: "ANTHROPIC_API_KEY" | "ANTHROPIC_AUTH_TOKEN" | "apiKeyHelper" | "none";
  baseURL: string | undefined;
  version: string;
  /** Instruction files (AGENTS.md, CLAUDE.md, rules, memory) loaded into the system prompt, for `/memory`. */
  instructionFiles: string[];
  /** stream-json `system/init.mcp_servers` and `mcp_server_errors`. */
  mcpServers: Array<{ name: string; status: string }>;
  mcpServerErrors: McpServerInitError[];
  /** Helper types the Agent tool offers (stream-json `system/init.agents`). */
  agents: string[];
  /** The output style in force and the ones there are (stream-json `system/init.output_style`, initialize). */
  outputStyle: string;
  outputStyles: readonly string[];
  /** Skills and commands the user may type as `/name`, and the skills (stream-json `system/init.slash_commands`, `skills`). */
  commands: readonly string[];
  skills: readonly string[];
  /** Plugins that loaded (stream-json `system/init.plugins`). */
  plugins: Array<{ name: string; path: string }>;
}

/** Everything a session holds besides the conversation; built once by bootstrap.ts. */
export interface SessionServices {
  loopDeps: LoopDeps;
  toolSession: ToolSession;
  context: ContextManager;
  permissions: PermissionSetup;
  settings: LoadedSettings;
  aliasOverrides: Record<string, string>;
  recorder: Emit | undefined;
  writer: TranscriptWriter | undefined;
  /** Thinking and effort of the requests, resolved again when the model or the effort changes. */
  reasoning?: SessionReasoning;
  /** The wall clock, for the times of mid-session switches. */
  now?: () => Date;
  hooks?: HookEngine;
  /** Where hook events go; pointed at the running turn's stream while one runs. */
  hookSink?: HookSink;
  /** Skills and custom commands, when the session has any. */
  invocations?: InvocationDeps;
  helpers?: SessionHelpers;
  /** Runs once, after the first turn ends: background work that must never delay the first prompt. */
  afterFirstTurn?: () => void;
  /** A new turn starts: a fallback model the last one moved to gives the session's model another try. */
  newTurn?: () => void;
  /** MCP servers of the session, and the refresh of its tools between turns. */
  mcp?: { session: SessionMcp; beforeTurn: () => void };
  /** A checkpoint of the files before each prompt (absent with fileCheckpointingEnabled: false). */
  checkpoints?: CheckpointPort;
  /** Characters the model's skill listing may take (for /skills to say what it left out). */
  skillListingBudget?: number;
  /** The model as named on the command line, in settings or the environment (`opusplan` follows the mode). */
  modelChoice?: string;
  /** Background upkeep the session's end waits for (the cleanupPeriodDays sweep, session-retention.ts). */
  housekeeping?: () => Promise<unknown>;
}
