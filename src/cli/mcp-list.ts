/**
 * What `clew mcp list` and `clew mcp get` print (distribution-mcp spec §2.5): one line per server
 * with its health, the details of one server, and the diagnostics block for configuration
 * problems grouped by file. Header values never appear; only servers that may run are probed.
 */
import type { ConfiguredServer, Health, McpProblem } from "../app/mcp-config.ts";

export interface StatusContext {
  /** Names in `disabledMcpjsonServers`: a rejection from settings, not from a remembered answer. */
  disabled: ReadonlySet<string>;
}

const TYPE_LABEL: Record<string, string> = { stdio: "stdio", http: "HTTP", sse: "SSE", ws: "WebSocket" };

/** Servers whose health is worth checking: allowed, approved, and configured. */
export function shouldProbe(server: ConfiguredServer): boolean {
  if (server.blocked !== undefined || server.approval !== "approved") return false;
  return server.config.type === "stdio" || server.config.url !== "";
}

export function serverTarget(server: ConfiguredServer): string {
  const config = server.config;
  if (config.type === "stdio") return [config.command, ...config.args].join(" ");
  return `${config.url === "" ? "(no url yet)" : config.url} (${TYPE_LABEL[config.type] ?? config.type})`;
}

function healthText(health: Health): string {
  switch (health.status) {
    case "connected":
      return "✔ Connected";
    case "needs-auth":
      return "! Needs authentication";
    case "failed":
      return `✘ Failed to connect${health.detail ? ` — ${health.detail}` : ""}`;
    case "disabled":
      return `○ Disabled${health.detail ? ` — ${health.detail}` : ""}`;
    default:
      return "… Still connecting";
  }
}

export function statusText(server: ConfiguredServer, health: Health | undefined, context: StatusContext): string {
  if (server.blocked !== undefined) return `⊘ Blocked (${server.blocked})`;
  if (server.approval === "rejected") {
    return context.disabled.has(server.name) ? "✘ Rejected (see disabledMcpjsonServers in settings)" : "✘ Rejected (run `clew mcp reset-project-choices` to be asked again)";
  }
  if (server.approval === "pending") return "⏸ Pending approval (run `clew` to approve)";
  if (server.approval === "untrusted") return "⏸ Waiting for trust (run `clew trust` in this folder, then `clew` to approve)";
  if (server.config.type !== "stdio" && server.config.url === "") return '○ Not configured (empty "url")';
  return health ? healthText(health) : "… Not checked";
}

const SCOPE_LABEL: Record<string, string> = {
  local: "Local config (private to you in this project)",
  project: "Project config (shared via .mcp.json)",
  user: "User config (available in all your projects)",
  managed: "Managed config (set by your organisation)",
  cli: "Command-line config (--mcp-config)",
  plugin: "Plugin config",
  agent: "Agent config",
};

export function scopeLabel(scope: string): string {
  return SCOPE_LABEL[scope] ?? scope;
}

function displayPath(file: string, homeDir: string): string {
  return homeDir !== "/" && file.startsWith(`${homeDir}/`) ? `~${file.slice(homeDir.length)}` : file;
}

function groupLabel(problem: McpProblem, stateFile: string): string {
  if (problem.file === stateFile) return problem.keyPath?.startsWith("projects[") ? scopeLabel("local") : scopeLabel("user");
  if (problem.file.endsWith("/.mcp.json")) return scopeLabel("project");
  if (problem.file.endsWith("/managed-mcp.json")) return scopeLabel("managed");
  if (problem.type === "policy") return "Settings (allowedMcpServers / deniedMcpServers)";
  return scopeLabel("cli");
}

/** The "MCP config diagnostics" block, or "" when there is nothing to say. */
export function renderDiagnostics(problems: readonly McpProblem[], homeDir: string, stateFile: string): string {
  if (problems.length === 0) return "";
  const groups = new Map<string, McpProblem[]>();
  for (const problem of problems) {
    const key = `${groupLabel(problem, stateFile)}\u0000${problem.file}`;
    groups.set(key, [...(groups.get(key) ?? []), problem]);
  }
  const lines = ["MCP config diagnostics ⚠"];
  for (const [key, items] of groups) {
    const [label, file] = key.split("\u0000") as [string, string];
    lines.push(`[${items.some((item) => item.severity === "error") ? "Has errors" : "Has warnings"}] ${label}`, `Location: ${displayPath(file, homeDir)}`);
    for (const item of items) {
      const at = item.line === undefined ? "" : `line ${item.line}:${item.column ?? 1}: `;
      const who = item.server === undefined ? "" : `[${item.server}] `;
      const key = item.keyPath === undefined ? "" : `${item.keyPath}: `;
      lines.push(` └ [${item.severity === "error" ? "Error" : "Warning"}] ${who}${key}${at}${item.message}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

export function renderList(servers: readonly ConfiguredServer[], health: ReadonlyMap<string, Health>, context: StatusContext): string {
  return servers.map((server) => `${server.name}: ${serverTarget(server)} - ${statusText(server, health.get(server.name), context)}\n`).join("");
}

function quoteName(name: string): string {
  return /^[A-Za-z0-9_-]+$/.test(name) ? name : JSON.stringify(name);
}

export function renderGet(server: ConfiguredServer, health: Health | undefined, context: StatusContext, issues: readonly McpProblem[]): string {
  const lines = [`${server.name}:`, `  Scope: ${scopeLabel(server.scope)}`, `  Status: ${statusText(server, health, context)}`];
  for (const issue of issues) lines.push(`  Issue: ${issue.message}`);
  const config = server.config;
  lines.push(`  Type: ${config.type}`);
  if (config.type === "stdio") {
    lines.push(`  Command: ${config.command}`, `  Args: ${config.args.join(" ")}`, "  Environment:");
    for (const [key, value] of Object.entries(config.env)) lines.push(`    ${key}=${value}`);
  } else {
    lines.push(`  URL: ${config.url}`);
    if (Object.keys(config.headers).length > 0) {
      lines.push("  Headers:");
      for (const key of Object.keys(config.headers)) lines.push(`    ${key}: [REDACTED]`);
    }
    if (config.headersHelper !== undefined) lines.push(`  Headers helper: ${config.headersHelper}`);
    if (config.oauth !== undefined) lines.push(`  OAuth: configured${config.oauth.clientId ? ` (client id ${config.oauth.clientId})` : ""}`);
  }
  lines.push("");
  if (server.scope === "local" || server.scope === "project" || server.scope === "user") {
    lines.push(`To remove this server, run: clew mcp remove ${quoteName(server.name)} -s ${server.scope}`);
  }
  return `${lines.join("\n")}\n`;
}
