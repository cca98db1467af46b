/**
 * `clew plugin list [--json] [--available]` and `clew plugin details <plugin>`. `--available`
 * needs `--json` (as in Claude Code). The JSON shapes are documented in the README.
 */
import { listPlugins, pluginDetails } from "../app/plugin-install.ts";
import type { PluginSubcommand } from "./plugin-command.ts";

export const runPluginList: PluginSubcommand = async (args, env, io) => {
  const json = args.includes("--json");
  const available = args.includes("--available");
  const unknown = args.find((arg) => arg !== "--json" && arg !== "--available");
  if (unknown !== undefined) {
    io.writeErr(`error: unknown option '${unknown}'\nUsage: clew plugin list [--json] [--available]\n`);
    return 1;
  }
  if (available && !json) {
    io.writeErr("error: --available requires --json\n");
    return 1;
  }
  const listing = await listPlugins({ env, projectDir: env.cwd }, { available });
  if (json) {
    io.writeOut(`${JSON.stringify(available ? listing : { installed: listing.installed, problems: listing.problems }, null, 2)}\n`);
    return 0;
  }
  if (listing.installed.length === 0) io.writeOut("No plugins installed. Find some with `clew plugin list --json --available`.\n");
  else io.writeOut("Installed plugins:\n\n");
  for (const plugin of listing.installed) {
    const state = plugin.errors.length > 0 ? "✘ failed to load" : plugin.enabled ? "✔ enabled" : "✘ disabled";
    io.writeOut(`  ❯ ${plugin.id}\n    Version: ${plugin.version}\n    Scope: ${plugin.scope}\n    Status: ${state}\n`);
    for (const error of plugin.errors) io.writeOut(`    Error: ${error}\n`);
    io.writeOut("\n");
  }
  for (const problem of listing.problems) io.writeErr(`warning: ${problem}\n`);
  return 0;
};

export const runPluginDetails: PluginSubcommand = async (args, env, io) => {
  const json = args.includes("--json");
  const [spec] = args.filter((arg) => !arg.startsWith("-"));
  if (spec === undefined) {
    io.writeErr("error: name the plugin\nUsage: clew plugin details <plugin> [--json]\n");
    return 1;
  }
  let details: Awaited<ReturnType<typeof pluginDetails>>;
  try {
    details = await pluginDetails(env, env.cwd, spec);
  } catch (error) {
    io.writeErr(`✘ ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  if (json) {
    io.writeOut(`${JSON.stringify(details, null, 2)}\n`);
    return 0;
  }
  const lines = [`${details.id} ${details.version} (scope: ${details.scope})`, `  ${details.installPath}${details.verified ? "" : `  ✘ ${details.problem}`}`, ""];
  for (const kind of ["skill", "command", "agent"] as const) {
    const items = details.components.filter((item) => item.kind === kind);
    if (items.length === 0) continue;
    lines.push(`  ${kind}s (${items.length}):`);
    for (const item of items) lines.push(`    ${item.name}  ~${item.tokens} tokens`);
  }
  const events = Object.entries(details.hooks);
  if (events.length > 0) lines.push(`  hooks: ${events.map(([event, count]) => `${event} (${count})`).join(", ")}`);
  if (details.mcpServers.length > 0) lines.push(`  MCP servers: ${details.mcpServers.join(", ")} — their tools' cost is unknown until they start`);
  if (details.lspServers.length > 0) lines.push(`  LSP servers: ${details.lspServers.join(", ")} (recorded; clew does not run them yet)`);
  if (details.binDir) lines.push(`  bin/: on the Bash tool's PATH while enabled`);
  lines.push("", `  Prompt cost: ~${details.catalogTokens} tokens per request for the catalogue lines${details.mcpServers.length > 0 ? ", plus the MCP tools (unknown offline)" : ""}.`);
  io.writeOut(`${lines.join("\n")}\n`);
  return 0;
};
