/**
 * What a plugin can run on the user's machine — hooks and the events they fire on, MCP servers,
 * programs in `bin/` — said before it runs: on the team-rollout consent screen and after
 * `clew plugin install`, so nobody enables code they have not been told about.
 */
import type { LoadedPlugin } from "../plugins/types.ts";

export function pluginRuns(plugin: LoadedPlugin): string[] {
  const events = [...new Set(plugin.hooks.flatMap((hooks) => Object.keys((hooks.hooks as { hooks?: Record<string, unknown> }).hooks ?? hooks.hooks)))];
  return [
    ...(events.length > 0 ? [`hooks on ${events.join(", ")}`] : []),
    ...(Object.keys(plugin.mcpServers).length > 0 ? [`MCP servers ${Object.keys(plugin.mcpServers).join(", ")}`] : []),
    ...(plugin.binDir ? ["programs in bin/ on the Bash tool's PATH"] : []),
  ];
}

/** The same for an installed tree (the install record's folder). */
export async function installedRuns(installPath: string, id: string): Promise<string[]> {
  const { loadPlugin } = await import("../plugins/load.ts");
  const at = id.lastIndexOf("@");
  return pluginRuns(loadPlugin({ root: installPath, name: id.slice(0, at), marketplace: id.slice(at + 1) }));
}
