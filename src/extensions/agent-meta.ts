/**
 * The frontmatter of an agent file, normalised (spec skills-commands-agents.md C.3). User and
 * project files without a usable `name`/`description` are documentation, not agents, and are
 * skipped (with a note saying so); plugin agents load anyway under their file name (plugins.md §6.3).
 */
import { FieldReader } from "./fields.ts";
import { EFFORTS } from "./skill-meta.ts";
import type { AgentMcpServer, AgentMeta, PermissionMode } from "./types.ts";

export const AGENT_FIELDS: ReadonlySet<string> = new Set([
  "name", "description", "tools", "disallowedTools", "model", "permissionMode", "maxTurns", "skills", "mcpServers",
  "hooks", "memory", "background", "effort", "isolation", "color", "initialPrompt",
]);

const PERMISSION_MODES: readonly PermissionMode[] = ["default", "acceptEdits", "auto", "dontAsk", "bypassPermissions", "plan"];

const MISSPELLINGS: Record<string, string> = {
  "disallowed-tools": "disallowedTools",
  disallowed_tools: "disallowedTools",
  "allowed-tools": "tools",
  "permission-mode": "permissionMode",
  permission_mode: "permissionMode",
  "max-turns": "maxTurns",
  max_turns: "maxTurns",
  "mcp-servers": "mcpServers",
  mcp_servers: "mcpServers",
  "initial-prompt": "initialPrompt",
  initial_prompt: "initialPrompt",
};

/** Plugin agents may not bring these (security; plugins.md §6.3). */
const PLUGIN_IGNORED = ["hooks", "mcpServers", "permissionMode"] as const;

function mcpServers(reader: FieldReader): AgentMcpServer[] {
  const raw = reader.raw("mcpServers");
  if (raw === undefined || raw === null) return [];
  const entries = Array.isArray(raw) ? raw : [raw];
  const servers: AgentMcpServer[] = [];
  for (const entry of entries) {
    if (typeof entry === "string" && entry.trim() !== "") servers.push({ name: entry.trim() });
    else if (typeof entry === "object" && entry !== null && !Array.isArray(entry)) {
      for (const [name, config] of Object.entries(entry)) {
        if (typeof config === "object" && config !== null && !Array.isArray(config)) servers.push({ name, config: config as Record<string, unknown> });
        else reader.report("mcpServers", `mcpServers entry "${name}" must be a server configuration map; it is ignored.`);
      }
    } else reader.report("mcpServers", `mcpServers entries must be server names or { name: config } maps, not ${JSON.stringify(entry)}; it is ignored.`);
  }
  return servers;
}

export interface AgentFile {
  /** The file name without `.md`, the name a plugin agent falls back to. */
  stem: string;
  /** Set for plugin agents. */
  plugin?: string;
}

export type AgentReading = { meta: AgentMeta & { baseName: string } } | { skipped: true };

export function agentMeta(reader: FieldReader, file: AgentFile): AgentReading {
  reader.misspellings(MISSPELLINGS);
  const declared = reader.string("name")?.trim();
  const description = reader.string("description")?.trim();
  const badName = declared !== undefined && (declared === "" || declared.startsWith("-") || declared.includes(":"));
  if (file.plugin === undefined) {
    const why = declared === undefined || declared === ""
      ? `has no "name" field, so it is read as documentation, not an agent`
      : badName
        ? `has the name "${declared}", which may not start with "-" or contain ":"`
        : description === undefined || description === ""
          ? `has no "description" field, which an agent needs (it tells the model when to delegate)`
          : undefined;
    if (why !== undefined) {
      reader.report(declared === undefined || badName ? "name" : "description", `agent file ${why}; it is skipped. Add "name: <lowercase-with-hyphens>" and "description: …" to the frontmatter to use it.`, "warning", "agent-skipped");
      return { skipped: true };
    }
  }
  let baseName = declared ?? file.stem;
  if (file.plugin !== undefined && (declared === undefined || badName)) {
    baseName = file.stem;
    reader.report("name", declared === undefined
      ? `agent has no "name" field; it loads as "${file.stem}" (the file name). Add "name: …" to choose its name.`
      : `agent name "${declared}" may not start with "-" or contain ":"; it loads as "${file.stem}" (the file name).`, "info", "agent-no-name");
  }
  if (file.plugin !== undefined) {
    for (const field of PLUGIN_IGNORED) {
      if (reader.has(field)) reader.report(field, `"${field}" is ignored for plugin agents (a plugin may not grant itself ${field === "hooks" ? "hooks" : field === "mcpServers" ? "MCP servers" : "a permission mode"}); copy the agent to .clew/agents/ to use it.`, "info", "ignored-field");
    }
  }
  const model = reader.string("model")?.trim();
  const tools = reader.tools("tools");
  const maxTurns = reader.positiveInt("maxTurns");
  const memory = reader.oneOf("memory", ["user", "project", "local"] as const);
  const effort = reader.oneOf("effort", EFFORTS);
  const isolation = reader.oneOf("isolation", ["worktree"] as const);
  const color = reader.string("color")?.trim();
  const initialPrompt = reader.string("initialPrompt")?.trim();
  const plugin = file.plugin !== undefined;
  const permissionMode = plugin ? undefined : reader.oneOf("permissionMode", PERMISSION_MODES, { manual: "default" });
  const hooks = plugin ? undefined : reader.map("hooks");
  return {
    meta: {
      baseName,
      ...(declared ? { declaredName: declared } : {}),
      description: description || `Agent from ${file.plugin} plugin`,
      ...(tools ? { tools } : {}),
      disallowedTools: reader.tools("disallowedTools") ?? [],
      ...(model && model !== "inherit" ? { model } : {}),
      ...(permissionMode ? { permissionMode } : {}),
      ...(maxTurns ? { maxTurns } : {}),
      skills: reader.list("skills") ?? [],
      mcpServers: plugin ? [] : mcpServers(reader),
      ...(hooks ? { hooks } : {}),
      ...(memory ? { memory } : {}),
      background: reader.boolean("background", false),
      ...(effort ? { effort } : {}),
      ...(isolation ? { isolation } : {}),
      ...(color ? { color } : {}),
      ...(initialPrompt ? { initialPrompt } : {}),
    },
  };
}
