/**
 * `clew plugin details <plugin>`: what an installed plugin contributes and what it costs in the
 * prompt. Skills, commands and agents each put one catalogue line (name and description) in
 * every request — estimated at characters / 4 tokens. MCP servers add their tools' schemas,
 * which cannot be known without starting them: reported as unknown, not guessed.
 */
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

/**
 * The plugin as a session loads it: its manifest and component paths (the plugin loader, with a
 * `strict: false` entry as the manifest), and each skill, command and agent as the extensions
 * layer names it — so custom manifest paths and single-skill folders count, as they do at run time.
 */
export async function pluginDetails(env: Environment, projectDir: string, spec: string): Promise<PluginDetails> {
  const { data } = readInstalled(env.pluginsDir);
  const id = resolveInstalledId(data, spec, projectDir);
  const record = recordsFor(data, id, projectDir)[0];
  if (!record) throw new Error(`Plugin ${spec} is not installed here.`);
  const root = record.installPath;
  const name = id.slice(0, id.lastIndexOf("@"));
  const verdict = verifyInstall(record);
  const [{ loadPlugin }, { scanComponents }] = await Promise.all([import("../plugins/load.ts"), import("./plugin-components.ts")]);
  const plugin = loadPlugin({ root, name, marketplace: record.marketplace });
  const { loaded } = await scanComponents(plugin);
  const line = (kind: DetailsComponent["kind"], itemName: string, description: string, file: string): DetailsComponent => {
    const qualified = itemName.includes(":") ? itemName : `${name}:${itemName}`;
    return { kind, name: qualified, description, file, tokens: Math.ceil(`- ${qualified}: ${description}`.length / 4) };
  };
  const components: DetailsComponent[] = [
    ...loaded.invocables.map((item) => line(item.kind, item.name, item.description, item.file)),
    ...loaded.agents.map((agent) => line("agent", agent.name, agent.description, agent.file)),
  ];
  const hooks: Record<string, number> = {};
  for (const block of plugin.hooks) {
    const events = (block.hooks as { hooks?: unknown }).hooks ?? block.hooks;
    for (const [event, groups] of Object.entries(events as Record<string, unknown>)) {
      const count = Array.isArray(groups) ? groups.reduce((sum: number, group: { hooks?: unknown[] }) => sum + (Array.isArray(group?.hooks) ? group.hooks.length : 0), 0) : 0;
      hooks[event] = (hooks[event] ?? 0) + count;
    }
  }
  const mcpServers = Object.keys(plugin.mcpServers);
  return {
    id, version: record.version, scope: record.scope, installPath: root, verified: verdict.ok,
    ...(verdict.ok ? {} : { problem: verdict.reason }),
    components,
    hooks,
    mcpServers,
    lspServers: Object.keys(plugin.lspServers),
    ...(plugin.binDir ? { binDir: plugin.binDir } : {}),
    catalogTokens: components.reduce((sum, item) => sum + item.tokens, 0),
    mcpTokens: mcpServers.length > 0 ? "unknown (tools are listed by the servers when they start)" : 0,
  };
}
