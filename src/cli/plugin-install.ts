/**
 * `clew plugin install|uninstall|enable|disable|update` with Claude Code's options (plugins.md
 * §13): `-s/--scope user|project|local` (install defaults to user; the others find the scope the
 * plugin is installed at), `--keep-data`, `-a/--all`; `-y/--yes` is accepted (nothing here asks).
 */
import { runDisable, runEnable, runInstall, runUninstall, runUpdate, type InstallOutcome } from "../app/plugin-install.ts";
import type { PluginSubcommand } from "./plugin-command.ts";
import type { CommandIO } from "./config-command.ts";

type Scope = "user" | "project" | "local";
const SCOPES: readonly string[] = ["user", "project", "local"];

interface Parsed {
  positional: string[];
  scope?: Scope;
  keepData: boolean;
  all: boolean;
  error?: string;
}

export function parsePluginArgs(args: readonly string[], flags: readonly string[]): Parsed {
  const parsed: Parsed = { positional: [], keepData: false, all: false };
  for (let i = 0; i < args.length; i++) {
    const raw = args[i] as string;
    const [arg, inline] = raw.startsWith("--") && raw.includes("=") ? [raw.slice(0, raw.indexOf("=")), raw.slice(raw.indexOf("=") + 1)] : [raw, undefined];
    if (arg === "-s" || arg === "--scope") {
      const value = inline ?? args[++i];
      if (value === undefined || !SCOPES.includes(value)) return { ...parsed, error: `Invalid scope: ${value ?? ""}. Must be one of: ${SCOPES.join(", ")}` };
      parsed.scope = value as Scope;
    } else if (arg === "--keep-data" && flags.includes(arg)) parsed.keepData = true;
    else if ((arg === "-a" || arg === "--all") && flags.includes("--all")) parsed.all = true;
    else if (arg === "-y" || arg === "--yes") continue;
    else if (arg.startsWith("-")) return { ...parsed, error: `unknown option '${arg}'` };
    else parsed.positional.push(arg);
  }
  return parsed;
}

function usageError(io: CommandIO, message: string, usage: string): number {
  io.writeErr(`error: ${message}\nUsage: clew plugin ${usage}\n`);
  return 1;
}

function reportInstall(io: CommandIO, outcome: InstallOutcome & { runs?: Record<string, string[]> }, verb: "installed" | "updated"): number {
  if (!outcome.ok) {
    io.writeErr(`✘ Failed to ${verb === "installed" ? "install" : "update"}: ${outcome.error}\n`);
    return 1;
  }
  for (const item of outcome.items) {
    const commit = item.commit ? `, commit ${item.commit.slice(0, 12)}` : "";
    if (verb === "updated" && !item.changed) io.writeOut(`✔ ${item.id} is already at the latest version (${item.version}${commit}).\n`);
    else if (item.dependencyOf) io.writeOut(`✔ Installed dependency ${item.id} ${item.version} (needed by ${item.dependencyOf}${commit}).\n`);
    else io.writeOut(`✔ Successfully ${verb} plugin: ${item.id} ${item.version} (scope: ${item.scope}${commit})\n`);
    const runs = outcome.runs?.[item.id];
    if (runs && runs.length > 0) io.writeOut(`  It can run: ${runs.join("; ")}\n`);
    for (const note of item.notes) io.writeErr(`  note: ${note}\n`);
  }
  if (outcome.settingsFile) io.writeOut(`Enabled in ${outcome.settingsFile}\n`);
  for (const warning of outcome.warnings) io.writeErr(`warning: ${warning}\n`);
  return 0;
}

function reportState(io: CommandIO, outcome: { ok: true; messages: string[] } | { ok: false; error: string }): number {
  if (!outcome.ok) {
    io.writeErr(`✘ ${outcome.error}\n`);
    return 1;
  }
  for (const message of outcome.messages) io.writeOut(`${message}\n`);
  return 0;
}

export const runPluginInstall: PluginSubcommand = async (args, env, io) => {
  const parsed = parsePluginArgs(args, []);
  const usage = "install <plugin>[@marketplace] [-s user|project|local]";
  if (parsed.error) return usageError(io, parsed.error, usage);
  const [spec] = parsed.positional;
  if (spec === undefined || parsed.positional.length > 1) return usageError(io, "name one plugin to install", usage);
  return reportInstall(io, await runInstall({ env, projectDir: env.cwd }, spec, parsed.scope ?? "user"), "installed");
};

export const runPluginUninstall: PluginSubcommand = async (args, env, io) => {
  const parsed = parsePluginArgs(args, ["--keep-data"]);
  const usage = "uninstall <plugin> [-s user|project|local] [--keep-data]";
  if (parsed.error) return usageError(io, parsed.error, usage);
  const [spec] = parsed.positional;
  if (spec === undefined) return usageError(io, "name the plugin to uninstall", usage);
  return reportState(io, await runUninstall({ env, projectDir: env.cwd }, spec, { ...(parsed.scope ? { scope: parsed.scope } : {}), keepData: parsed.keepData }));
};

export const runPluginEnable: PluginSubcommand = async (args, env, io) => {
  const parsed = parsePluginArgs(args, []);
  const usage = "enable <plugin> [-s user|project|local]";
  if (parsed.error) return usageError(io, parsed.error, usage);
  const [spec] = parsed.positional;
  if (spec === undefined) return usageError(io, "name the plugin to enable", usage);
  return reportState(io, await runEnable({ env, projectDir: env.cwd }, spec, parsed.scope));
};

export const runPluginDisable: PluginSubcommand = async (args, env, io) => {
  const parsed = parsePluginArgs(args, ["--all"]);
  const usage = "disable [plugin] [-a|--all] [-s user|project|local]";
  if (parsed.error) return usageError(io, parsed.error, usage);
  const [spec] = parsed.positional;
  if (spec === undefined && !parsed.all) return usageError(io, "name the plugin to disable, or use --all", usage);
  return reportState(io, await runDisable({ env, projectDir: env.cwd }, spec, { ...(parsed.scope ? { scope: parsed.scope } : {}), all: parsed.all }));
};

export const runPluginUpdate: PluginSubcommand = async (args, env, io) => {
  const parsed = parsePluginArgs(args, []);
  const usage = "update <plugin> [-s user|project|local]";
  if (parsed.error) return usageError(io, parsed.error, usage);
  const [spec] = parsed.positional;
  if (spec === undefined) return usageError(io, "name the plugin to update", usage);
  const outcome = await runUpdate({ env, projectDir: env.cwd }, spec, parsed.scope);
  if ("refreshNote" in outcome && outcome.refreshNote) io.writeErr(`warning: ${outcome.refreshNote}\n`);
  return reportInstall(io, outcome, "updated");
};
