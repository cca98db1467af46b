/**
 * The `initialize` control request: what the host asks of the session before it opens (system
 * prompt fields, agents, its in-process MCP servers) and the answer it reads back (commands,
 * agents, models, account). Fields clew cannot honour are refused by name, never ignored.
 */
import type { ControlRequestBody } from "./input.ts";

export interface InitConfig {
  /** `systemPrompt`: replaces clew's built-in prompt (blank: keep it). */
  systemPrompt?: string;
  appendSystemPrompt?: string;
  /** `agents`: definitions in `--agents` form, merged over any given on the command line. */
  agents?: Record<string, unknown>;
  /** `sdkMcpServers`: names of servers living in the host, reached through `mcp_message`. */
  sdkMcpServers: string[];
  /** `hooks`: event → matchers with the host's callback ids (run through the hook relay). */
  hooks?: Record<string, unknown>;
  /** `jsonSchema` (the SDK's `outputFormat`): each turn answers through StructuredOutput. */
  jsonSchema?: Record<string, unknown>;
}

export type InitParse = { ok: true; config: InitConfig; notices: string[] } | { ok: false; error: string };

/** Fields whose effect clew does not have; a set one ends initialize with an error naming it. */
const REFUSED: Record<string, string> = {
  sdkMcpServerConfigs: "per-server settings of in-process MCP servers are not supported by clew yet",
  plugins: "plugins sent in initialize are not supported; pass them as --plugin-dir (the SDK's `plugins` option without pluginsViaInitialize)",
  managedSettings: "managed settings sent in initialize are not supported by clew",
};

/** Fields read as hints only: clew has no such feature, and a session without it behaves the same. */
const IGNORED = new Set([
  "subtype", "sdkMcpServerManifests", "promptSuggestions", "agentProgressSummaries", "supportedDialogKinds", "perTaskStopAffordance",
  "rapidFollowupPreempt", "offersBypassSwitchBack", "keepsBypassHeld", "title", "forwardSubagentText", "forwardNestedSubagentToolCalls",
  "workspaceTrust", "allowedControlRequests",
]);

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === "object") return Object.keys(value).length === 0;
  return false;
}

function textOf(value: unknown, field: string): string | { error: string } | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value;
  if (Array.isArray(value) && value.every((part) => typeof part === "string")) return value.join("\n\n");
  return { error: `initialize.${field} must be a string or an array of strings` };
}

export function parseInitialize(request: ControlRequestBody): InitParse {
  const refused = Object.keys(REFUSED).filter((field) => !isEmpty(request[field]));
  if (refused.length > 0) return { ok: false, error: refused.map((field) => `initialize.${field}: ${REFUSED[field]}`).join("; ") };
  const system = textOf(request.systemPrompt, "systemPrompt");
  const append = textOf(request.appendSystemPrompt, "appendSystemPrompt");
  if (typeof system === "object") return { ok: false, error: system.error };
  if (typeof append === "object") return { ok: false, error: append.error };
  const agents = request.agents;
  if (agents !== undefined && (typeof agents !== "object" || agents === null || Array.isArray(agents))) {
    return { ok: false, error: "initialize.agents must be an object of agent name to definition" };
  }
  const servers = request.sdkMcpServers ?? [];
  if (!Array.isArray(servers) || !servers.every((name) => typeof name === "string")) {
    return { ok: false, error: "initialize.sdkMcpServers must be an array of server names" };
  }
  const schema = request.jsonSchema;
  if (!isEmpty(schema) && (typeof schema !== "object" || Array.isArray(schema))) return { ok: false, error: "initialize.jsonSchema must be a JSON Schema object" };
  const known = new Set([...IGNORED, ...Object.keys(REFUSED), "systemPrompt", "appendSystemPrompt", "agents", "sdkMcpServers", "hooks", "jsonSchema"]);
  const notices = Object.keys(request)
    .filter((field) => !known.has(field) && !isEmpty(request[field]))
    .map((field) => `initialize.${field} is not supported by clew and has no effect`);
  return {
    ok: true,
    config: {
      ...(system !== undefined && system.trim() !== "" ? { systemPrompt: system } : {}),
      ...(append !== undefined && append.trim() !== "" ? { appendSystemPrompt: append } : {}),
      ...(agents !== undefined ? { agents: agents as Record<string, unknown> } : {}),
      sdkMcpServers: servers as string[],
      ...(!isEmpty(request.hooks) ? { hooks: request.hooks as Record<string, unknown> } : {}),
      ...(!isEmpty(schema) ? { jsonSchema: schema as Record<string, unknown> } : {}),
    },
    notices,
  };
}

export interface InitFacts {
  commands: Array<{ name: string; description: string; argumentHint?: string }>;
  agents: Array<{ name: string; description: string }>;
  models: Array<{ alias: string; description: string }>;
  apiKeySource: string;
  outputStyle: string;
  outputStyles: readonly string[];
  /** Whether the request's hook callbacks were registered (absent when it had none). */
  hooksApplied?: boolean;
}

/** The answer to initialize, in the shape the Agent SDK reads (`SDKControlInitializeResponse`). */
export function initializeResponse(facts: InitFacts): Record<string, unknown> {
  return {
    commands: facts.commands.map((command) => ({ name: command.name, description: command.description, argumentHint: command.argumentHint ?? "" })),
    agents: facts.agents.map((agent) => ({ name: agent.name, description: agent.description })),
    output_style: facts.outputStyle,
    available_output_styles: [...facts.outputStyles],
    models: facts.models.map((model) => ({ value: model.alias, displayName: model.alias, description: model.description })),
    account: { apiKeySource: facts.apiKeySource, apiProvider: "firstParty" },
    pid: process.pid,
    ...(facts.hooksApplied !== undefined ? { hooks_applied: facts.hooksApplied } : {}),
  };
}
