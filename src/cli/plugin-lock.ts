// Placeholder until this subcommand lands; replaced by its implementation.
import type { PluginSubcommand } from "./plugin-command.ts";

export const runPluginSync: PluginSubcommand = async (_args, _env, io) => {
  io.writeErr("clew: this plugin command is not available in this build yet.\n");
  return 1;
};

export const runPluginOutdated: PluginSubcommand = async (_args, _env, io) => {
  io.writeErr("clew: this plugin command is not available in this build yet.\n");
  return 1;
};

