// Placeholder until this subcommand lands; replaced by its implementation.
import type { PluginSubcommand } from "./plugin-command.ts";

export const runPluginInstall: PluginSubcommand = async (_args, _env, io) => {
  io.writeErr("clew: this plugin command is not available in this build yet.\n");
  return 1;
};

export const runPluginUninstall: PluginSubcommand = async (_args, _env, io) => {
  io.writeErr("clew: this plugin command is not available in this build yet.\n");
  return 1;
};

export const runPluginEnable: PluginSubcommand = async (_args, _env, io) => {
  io.writeErr("clew: this plugin command is not available in this build yet.\n");
  return 1;
};

export const runPluginDisable: PluginSubcommand = async (_args, _env, io) => {
  io.writeErr("clew: this plugin command is not available in this build yet.\n");
  return 1;
};

export const runPluginUpdate: PluginSubcommand = async (_args, _env, io) => {
  io.writeErr("clew: this plugin command is not available in this build yet.\n");
  return 1;
};

