/**
 * `clew plugin marketplace add|list|update|remove` (alias `market`; `rm` for remove), with Claude
 * Code's wording (marketplaces.md §6). `list --json` prints the array documented in the README.
 */
import {
  addMarketplaceFrom,
  type ListedMarketplace,
  listKnownMarketplaces,
  removeKnownMarketplace,
  updateKnownMarketplaces,
} from "../app/plugin-marketplaces.ts";
import type { PluginSubcommand } from "./plugin-command.ts";
import type { CommandIO } from "./config-command.ts";

const USAGE = `Usage: clew plugin marketplace <command>
  add <source> [--json]    Add a marketplace: owner/repo[#ref], a git URL (https, ssh, git@host:path, #ref or @ref),
                           ./folder, ./marketplace.json, or an https URL of a marketplace.json
  list [--json]            Show the added marketplaces
  update [name]            Refresh one marketplace, or all of them
  remove <name>            Remove a marketplace (alias: rm)
`;

function splitFlags(args: readonly string[]): { positional: string[]; json: boolean; scope?: string; unknown: string[] } {
  const positional: string[] = [];
  const unknown: string[] = [];
  let json = false;
  let scope: string | undefined;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? "";
    if (arg === "--json") json = true;
    else if (arg === "--scope" || arg === "-s") scope = args[++index];
    else if (arg.startsWith("--scope=")) scope = arg.slice("--scope=".length);
    else if (arg.startsWith("-") && arg.length > 1) unknown.push(arg);
    else positional.push(arg);
  }
  return { positional, json, ...(scope !== undefined ? { scope } : {}), unknown };
}

function printNotes(io: CommandIO, notes: readonly string[]): void {
  for (const note of notes) io.writeErr(`${note}\n`);
}

function sourceLine(entry: ListedMarketplace): string {
  const ref = entry.ref ? `#${entry.ref}` : "";
  switch (entry.source) {
    case "github":
      return `GitHub (${entry.repo}${ref})`;
    case "git":
      return `Git (${entry.url}${ref})`;
    case "url":
      return `URL (${entry.url})`;
    case "file":
      return `File (${entry.path})`;
    case "directory":
      return `Directory (${entry.path})`;
  }
}

export const runPluginMarketplace: PluginSubcommand = async (args, env, io) => {
  const [command, ...rest] = args;
  if (command === undefined || command === "--help" || command === "-h" || command === "help") {
    io.writeOut(USAGE);
    return command === undefined ? 1 : 0;
  }
  const { positional, json, scope, unknown } = splitFlags(rest);
  if (unknown.length > 0) {
    io.writeErr(`error: unknown option ${unknown.join(", ")} for 'marketplace ${command}'.\n${USAGE}`);
    return 1;
  }
  if (scope !== undefined && scope !== "user") {
    io.writeErr(`error: --scope ${scope} is not supported for marketplaces yet; they are added for this user. A project can list marketplaces under extraKnownMarketplaces in .clew/settings.json.\n`);
    return 1;
  }
  switch (command) {
    case "add": {
      const [source, ...extra] = positional;
      if (source === undefined || extra.length > 0) {
        io.writeErr(`error: give exactly one source to add.\n${USAGE}`);
        return 1;
      }
      if (!json) io.writeErr(`Adding marketplace…\n`);
      const outcome = await addMarketplaceFrom(env, source);
      if (!outcome.ok) {
        io.writeErr(`✘ Failed to add marketplace: ${outcome.error}\n`);
        return 1;
      }
      printNotes(io, outcome.notes);
      if (json) io.writeOut(`${JSON.stringify({ name: outcome.value.name, pluginCount: outcome.value.pluginCount, ...outcome.value.record }, null, 2)}\n`);
      else io.writeOut(`✔ Successfully added marketplace: ${outcome.value.name} (${outcome.value.pluginCount} ${outcome.value.pluginCount === 1 ? "plugin" : "plugins"})\n`);
      return 0;
    }
    case "list": {
      const outcome = await listKnownMarketplaces(env);
      if (!outcome.ok) {
        io.writeErr(`✘ ${outcome.error}\n`);
        return 1;
      }
      printNotes(io, outcome.notes);
      if (json) {
        io.writeOut(`${JSON.stringify(outcome.value, null, 2)}\n`);
        return 0;
      }
      if (outcome.value.length === 0) {
        io.writeOut("No marketplaces configured. Add one with `clew plugin marketplace add <source>`.\n");
        return 0;
      }
      const lines = ["Configured marketplaces:", ""];
      for (const entry of outcome.value) {
        lines.push(`  ❯ ${entry.name}`, `    Source: ${sourceLine(entry)}`);
        lines.push(entry.pluginCount === null ? `    Error: ${entry.error ?? "catalog unreadable"}` : `    Plugins: ${entry.pluginCount}${entry.autoUpdate ? " · auto-update on" : ""}`);
        lines.push("");
      }
      io.writeOut(`${lines.join("\n")}`);
      return 0;
    }
    case "update": {
      if (positional.length > 1) {
        io.writeErr(`error: update takes at most one marketplace name.\n${USAGE}`);
        return 1;
      }
      const outcome = await updateKnownMarketplaces(env, positional[0]);
      if (!outcome.ok) {
        io.writeErr(`✘ ${outcome.error}\n`);
        return 1;
      }
      printNotes(io, outcome.notes);
      if (outcome.value.length === 0) {
        io.writeOut("No marketplaces configured.\n");
        return 0;
      }
      let failed = 0;
      for (const result of outcome.value) {
        if (result.ok) {
          printNotes(io, result.notes);
          const at = result.commit ? ` (${result.changed ? "now at" : "already at"} ${result.commit.slice(0, 12)})` : "";
          io.writeOut(`✔ Successfully updated marketplace: ${result.name}${at}\n`);
        } else {
          failed += 1;
          io.writeErr(`✘ Failed to update marketplace '${result.name}': ${result.error}\n`);
        }
      }
      return failed > 0 ? 1 : 0;
    }
    case "remove":
    case "rm": {
      const [name, ...extra] = positional;
      if (name === undefined || extra.length > 0) {
        io.writeErr(`error: give the name of one marketplace to remove (see \`clew plugin marketplace list\`).\n`);
        return 1;
      }
      const outcome = await removeKnownMarketplace(env, name);
      if (!outcome.ok) {
        io.writeErr(`✘ ${outcome.error}\n`);
        return 1;
      }
      printNotes(io, outcome.notes);
      io.writeOut(`✔ Successfully removed marketplace: ${name}\n`);
      return 0;
    }
    default:
      io.writeErr(`error: unknown marketplace command '${command}'.\n${USAGE}`);
      return 1;
  }
};
