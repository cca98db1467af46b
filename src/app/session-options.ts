/** What the CLI (or a test) passes to open a session. */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { ApprovalPort, PermissionMode } from "../permissions/types.ts";
import type { Environment } from "../settings/paths.ts";
import type { CliSettingsInput } from "../settings/sources.ts";
import type { HookApprovalPort } from "./hooks-setup.ts";
import type { ResumeRequest } from "./resume.ts";
import type { McpApprovalPort } from "./mcp-setup.ts";
import type { RolloutConsentPort } from "./team-rollout.ts";

export interface SessionOptions {
  env: Environment;
  version: string;
  /** Flags that form the command-line settings layer (--settings, --model, --allowedTools, …). */
  cli: CliSettingsInput;
  /** `--permission-mode` / `--dangerously-skip-permissions`, checked against settings. */
  permissionMode?: PermissionMode;
  /** `--fallback-model`, as given (comma-separated); the `fallbackModel` setting otherwise. */
  fallbackModel?: string;
  /** false: no `raw_stream` events (a consumer that shows no partial replies). Default true. */
  streamEvents?: boolean;
  maxTurns?: number;
  systemPrompt?: string;
  /** `--autocompact <tokens>`: the auto-compact window, over CLEW_CONTEXT_WINDOW and the setting. */
  autoCompactWindow?: number;
  /** `--append-subagent-system-prompt`: added to every helper agent's system prompt. */
  appendSubagentSystemPrompt?: string;
  /** `--exclude-dynamic-system-prompt-sections`: the environment block and instruction files go in the first user message. */
  excludeDynamicSections?: boolean;
  /** `--bare`: no discovery of plugins, skills, commands, agents, settings hooks, MCP servers or instruction files (app/bare-mode.ts). */
  bare?: boolean;
  /** `--disable-slash-commands`: no skill or custom command is offered, listed or expanded. */
  disableSlashCommands?: boolean;
  /** `--safe-mode`: as `--bare` in what is not discovered, with every tool (troubleshooting a setup). */
  safeMode?: boolean;
  /** `-n` / `--name`: the session's display name, which `--resume NAME` finds. */
  name?: string;
  /** `--init` / `--init-only` (init) or `--maintenance`: Setup hooks run before SessionStart. */
  setupTrigger?: "init" | "maintenance";
  /** `--json-schema` (JSON text) or initialize's `jsonSchema` (parsed): the turn's answer goes through StructuredOutput. */
  jsonSchema?: unknown;
  appendSystemPrompt?: string;
  /** `--tools`: restrict the built-in set. */
  tools?: string[];
  resume?: ResumeRequest;
  /** With `resume`: copy the history into a new session instead of appending to the old one. */
  fork?: boolean;
  sessionId?: string;
  persist: boolean;
  /** Asks a human (or the host driving clew, over its control channel) about calls that need approval; absent in headless runs. */
  ask?: ApprovalPort;
  /** A person is at a terminal (default: whenever `ask` is set); a host answering `ask` over stdio is not one. */
  interactive?: boolean;
  /** MCP servers living in the host process (the Agent SDK's in-process servers), by name: their transport. */
  hostMcpServers?: ReadonlyMap<string, () => Transport>;
  /** Asks whether an untrusted folder's project hooks may run; absent in headless runs (they do not). */
  approveHooks?: HookApprovalPort;
  /** Team rollout: asks whether to install the plugins a trusted project's settings ask for; absent headless. */
  consentRollout?: RolloutConsentPort;
  /** Asks whether a project `.mcp.json` server may start; absent headless. */
  approveMcp?: McpApprovalPort;
  /** Keep running when a settings file is broken (its deny/ask rules stay in force). */
  keepDenyOnError?: boolean;
  /** `--agents` JSON, parsed: agent definitions for this session. */
  agentsJson?: unknown;
  /** `--agent <name>`: the main conversation runs as this agent. */
  agent?: string;
  /** `--max-budget-usd`: no request starts once the session (helpers included) has spent this. */
  maxBudgetUsd?: number;
  /** `--plugin-dir` folders: plugins used in place for this session. */
  pluginDirs?: readonly string[];
  /** `--mcp-config` values and `--strict-mcp-config`. */
  mcpConfigs?: readonly string[];
  strictMcpConfig?: boolean;
  /** Headless: a turn ends only after its background helpers have reported. */
  waitForBackground?: boolean;
  /** One line for the user from background work (a new clew version installed), interactive only. */
  notify?: (line: string) => void;
  /** Where settings notices, rule warnings and other start-up diagnostics go. */
  report: (line: string) => void;
  now?: () => Date;
}
