/**
 * `clew plugin details <plugin>`: what an installed plugin contributes and what it costs in the
 * prompt. Skills, commands and agents each put one catalogue line (name and description) in
 * every request — estimated at characters / 4 tokens. MCP servers add their tools' schemas,
 * which cannot be known without starting them: reported as unknown, not guessed.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { readInstalled, recordsFor } from "../plugins/install/records.ts";
import { resolveInstalledId } from "../plugins/install/state-ops.ts";
import { verifyInstall } from "../plugins/install/verify.ts";
import type { InstallScope } from "../plugins/types.ts";
import type { Environment } from "../settings/paths.ts";

export interface DetailsComponent {
  kind: "skill" | "command" | "agent";
  name: string;
  description: string;
  file: string;
  /** Tokens its catalogue line adds to every request (≈ characters / 4). */
  tokens: number;
}

export interface PluginDetails {
  id: string;
  version: string;
  scope: InstallScope;
  installPath: string;
  verified: boolean;
  problem?: string;
  components: DetailsComponent[];
  hooks: Record<string, number>;
  mcpServers: string[];
  lspServers: string[];
  binDir?: string;
  /** Sum over components; MCP tools are not included (see `mcpTokens`). */
  catalogTokens: number;
  mcpTokens: "unknown (tools are listed by the servers when they start)" | 0;
}

function frontmatterField(text: string, key: string): string | undefined {
  const block = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1];
  const line = block?.split(/\r?\n/).find((row) => row.startsWith(`${key}:`));
  return line?.slice(key.length + 1).trim().replace(/^["']|["']$/g, "");
}

function mdFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return mdFiles(full);
    return name.endsWith(".md") ? [full] : [];
  });
}

function component(kind: DetailsComponent["kind"], file: string, fallbackName: string, plugin: string): DetailsComponent {
  const text = readFileSync(file, "utf8");
  const name = `${plugin}:${frontmatterField(text, "name") ?? fallbackName}`;
  const description = frontmatterField(text, "description") ?? "";
  return { kind, name, description, file, tokens: Math.ceil(`- ${name}: ${description}`.length / 4) };
}

function jsonKeys(file: string, unwrap?: string): string[] {
  try {
    const value = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    const inner = unwrap !== undefined && typeof value[unwrap] === "object" && value[unwrap] !== null ? (value[unwrap] as Record<string, unknown>) : value;
    return Object.keys(inner);
  } catch {
    return [];
  }
}

function hookCounts(file: string): Record<string, number> {
  try {
    const value = JSON.parse(readFileSync(file, "utf8")) as { hooks?: Record<string, unknown> };
    const counts: Record<string, number> = {};
    for (const [event, groups] of Object.entries(value.hooks ?? {})) {
      counts[event] = Array.isArray(groups) ? groups.reduce((sum: number, group: { hooks?: unknown[] }) => sum + (Array.isArray(group?.hooks) ? group.hooks.length : 0), 0) : 0;
    }
    return counts;
  } catch {
    return {};
  }
}

export function pluginDetails(env: Environment, projectDir: string, spec: string): PluginDetails {
  const { data } = readInstalled(env.pluginsDir);
  const id = resolveInstalledId(data, spec, projectDir);
  const record = recordsFor(data, id, projectDir)[0];
  if (!record) throw new Error(`Plugin ${spec} is not installed here.`);
  const root = record.installPath;
  const plugin = id.slice(0, id.lastIndexOf("@"));
  const verdict = verifyInstall(record);
  const skills = existsSync(join(root, "skills"))
    ? readdirSync(join(root, "skills")).filter((name) => existsSync(join(root, "skills", name, "SKILL.md"))).map((name) => component("skill", join(root, "skills", name, "SKILL.md"), name, plugin))
    : [];
  const commands = mdFiles(join(root, "commands")).map((file) => component("command", file, basename(file, ".md"), plugin));
  const agents = mdFiles(join(root, "agents")).map((file) => component("agent", file, basename(file, ".md"), plugin));
  const components = [...skills, ...commands, ...agents];
  const mcpServers = jsonKeys(join(root, ".mcp.json"), "mcpServers");
  return {
    id, version: record.version, scope: record.scope, installPath: root, verified: verdict.ok,
    ...(verdict.ok ? {} : { problem: verdict.reason }),
    components,
    hooks: hookCounts(join(root, "hooks", "hooks.json")),
    mcpServers,
    lspServers: jsonKeys(join(root, ".lsp.json")),
    ...(existsSync(join(root, "bin")) ? { binDir: join(root, "bin") } : {}),
    catalogTokens: components.reduce((sum, item) => sum + item.tokens, 0),
    mcpTokens: mcpServers.length > 0 ? "unknown (tools are listed by the servers when they start)" : 0,
  };
}
