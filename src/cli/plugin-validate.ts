// Placeholder until this subcommand lands; replaced by its implementation.
import type { PluginSubcommand } from "./plugin-command.ts";

export const runPluginValidate: PluginSubcommand = async (_args, _env, io) => {
  io.writeErr("clew: this plugin command is not available in this build yet.\n");
  return 1;
};

