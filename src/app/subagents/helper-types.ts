/**
 * The kinds of helper the Agent tool can start: the built-in types, then every agent definition
 * the extension registry holds (files, `--agents`, plugins). A type is data — a system prompt,
 * a tool selection, a model, limits — and every helper of one type gets the same system prompt
 * and tool list, so helpers of a type share one cached prefix within and across sessions.
 */
import type { AgentDefinition, AgentMcpServer } from "../../extensions/types.ts";
import type { PermissionMode } from "../../permissions/types.ts";
import explorePrompt from "./prompts/explore.md" with { type: "text" };
import generalPrompt from "./prompts/general-purpose.md" with { type: "text" };
import planPrompt from "./prompts/plan.md" with { type: "text" };

export interface HelperType {
  name: string;
  description: string;
  /** Where it is defined: `built-in`, or the agent file / `--agents` entry. */
  origin: string;
  /** The helper's whole system prompt (file agents read their body on first use). */
  systemPrompt: () => Promise<{ ok: true; text: string } | { ok: false; message: string }>;
  /** Allowlist as written (undefined: every tool helpers may have). */
  tools?: readonly string[];
  disallowedTools: readonly string[];
  /** An alias or model id; undefined or `inherit`: the parent's model. */
  model?: string;
  permissionMode?: PermissionMode;
  maxTurns?: number;
  skills: readonly string[];
  background: boolean;
  isolation?: "worktree";
  color?: string;
  /** Read-only types run in plan mode whatever the session's mode, so "read-only" holds. */
  readOnly: boolean;
  /** Whether the helper starts with the project's instruction files (Explore and Plan skip them). */
  withInstructions: boolean;
  /** Frontmatter hooks, active while a helper of this type runs. */
  hooks?: Record<string, unknown>;
  /** Whether this definition comes from the repository (its hooks need folder trust). */
  shared: boolean;
  /** Servers by name (the session's) or inline definitions started for the helper's lifetime. */
  mcpServers: readonly AgentMcpServer[];
}

const READ_ONLY_TOOLS = ["Bash", "BashOutput", "KillShell", "Glob", "Grep", "Read", "Skill"];

const fixed = (text: string) => async () => ({ ok: true as const, text: text.trim() });

export function builtinHelperTypes(options: { withExplorePlan: boolean }): HelperType[] {
  const general: HelperType = {
    name: "general-purpose",
    description: "Research and multi-step tasks, with every tool.",
    origin: "built-in",
    systemPrompt: fixed(generalPrompt),
    disallowedTools: [],
    skills: [],
    background: false,
    readOnly: false,
    withInstructions: true,
    shared: false,
    mcpServers: [],
  };
  if (!options.withExplorePlan) return [general];
  const readOnly = (name: string, description: string, prompt: string, model?: string): HelperType => ({
    ...general,
    name,
    description,
    systemPrompt: fixed(prompt),
    tools: READ_ONLY_TOOLS,
    ...(model ? { model } : {}),
    readOnly: true,
    withInstructions: false,
  });
  // Explore gets a fast model: searching needs breadth, not depth.
  const explore = readOnly("Explore", "Fast read-only code search: finds files and code, explains how things work. Say how thorough: quick, medium or very thorough.", explorePrompt, "haiku");
  const plan = readOnly("Plan", "Read-only: studies the code and returns an implementation plan with the critical files.", planPrompt);
  return [general, explore, plan];
}

/** An agent definition from the registry as a helper type (its body is read on first use). */
export function definedHelperType(definition: AgentDefinition, loadBody: (definition: AgentDefinition) => Promise<{ ok: true; body: string } | { ok: false; problem: { message: string } }>): HelperType {
  return {
    name: definition.name,
    description: definition.description,
    origin: definition.file,
    systemPrompt: async () => {
      const body = await loadBody(definition);
      return body.ok ? { ok: true, text: body.body.trim() } : { ok: false, message: `${definition.file}: ${body.problem.message}` };
    },
    ...(definition.tools ? { tools: definition.tools } : {}),
    disallowedTools: definition.disallowedTools,
    ...(definition.model ? { model: definition.model } : {}),
    ...(definition.permissionMode && definition.permissionMode !== "auto" ? { permissionMode: definition.permissionMode } : {}),
    ...(definition.maxTurns !== undefined ? { maxTurns: definition.maxTurns } : {}),
    skills: definition.skills,
    background: definition.background,
    ...(definition.isolation ? { isolation: definition.isolation } : {}),
    ...(definition.color ? { color: definition.color } : {}),
    readOnly: false,
    withInstructions: true,
    ...(definition.hooks ? { hooks: definition.hooks } : {}),
    shared: definition.source.scope === "project",
    mcpServers: definition.mcpServers,
  };
}
