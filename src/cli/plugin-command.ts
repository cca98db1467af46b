/**
 * `clew plugin …` (alias `clew plugins`): routes each subcommand to the module that owns it, each
 * loaded only when used. Subcommands and flags follow Claude Code's (plugins.md §13).
 */
import type { Environment } from "../settings/paths.ts";
import type { CommandIO } from "./config-command.ts";

export type PluginSubcommand = (args: readonly string[], env: Environment, io: CommandIO) => Promise<number>;

const ROUTES: Record<string, () => Promise<PluginSubcommand>> = {
  validate: async () => (await import("./plugin-validate.ts")).runPluginValidate,
  marketplace: async () => (await import("./plugin-marketplace.ts")).runPluginMarketplace,
  market: async () => (await import("./plugin-marketplace.ts")).runPluginMarketplace,
  install: async () => (await import("./plugin-install.ts")).runPluginInstall,
  i: async () => (await import("./plugin-install.ts")).runPluginInstall,
  uninstall: async () => (await import("./plugin-install.ts")).runPluginUninstall,
  remove: async () => (await import("./plugin-install.ts")).runPluginUninstall,
  rm: async () => (await import("./plugin-install.ts")).runPluginUninstall,
  enable: async () => (await import("./plugin-install.ts")).runPluginEnable,
  disable: async () => (await import("./plugin-install.ts")).runPluginDisable,
  update: async () => (await import("./plugin-install.ts")).runPluginUpdate,
  list: async () => (await import("./plugin-list.ts")).runPluginList,
  details: async () => (await import("./plugin-list.ts")).runPluginDetails,
  sync: async () => (await import("./plugin-lock.ts")).runPluginSync,
  outdated: async () => (await import("./plugin-lock.ts")).runPluginOutdated,
};

const USAGE = `Usage: clew plugin <command>
  validate <path> [--json] [--strict]     Check a plugin or marketplace folder, offline
  marketplace add|list|update|remove      Manage marketplaces
  install <plugin>[@marketplace] [-s user|project|local]
  uninstall|enable|disable|update <plugin> [-s scope]
  list [--json] [--available]             Installed plugins (and what marketplaces offer)
  details <plugin>                        Components and their prompt cost
  sync [--frozen]                         Install what the project asks for; write or verify clew.lock
  outdated                                Compare installed plugins with their remotes
`;

export async function runPluginCommand(args: readonly string[], env: Environment, io: CommandIO): Promise<number> {
  const [name, ...rest] = args;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.writeOut(USAGE);
    return name === undefined ? 1 : 0;
  }
  const route = ROUTES[name];
  if (!route) {
    io.writeErr(`error: unknown plugin command '${name}'.\n${USAGE}`);
    return 1;
  }
  return (await route())(rest, env, io);
}
