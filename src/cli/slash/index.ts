/** The built-in slash commands, in /help order, and how a typed line finds one. */
import { clearCommand } from "./clear.ts";
import { compactCommand } from "./compact.ts";
import { configCommand } from "./config.ts";
import { contextCommand } from "./context.ts";
import { costCommand } from "./cost.ts";
import { doctorCommand } from "./doctor.ts";
import { effortCommand } from "./effort.ts";
import { exitCommand } from "./exit.ts";
import { helpCommand } from "./help.ts";
import { hooksCommand } from "./hooks.ts";
import { addDirCommand } from "./add-dir.ts";
import { agentsCommand } from "./agents.ts";
import { pluginCommand } from "./plugin.ts";
import { mcpCommand } from "./mcp.ts";
import { skillsCommand } from "./skills.ts";
import { initCommand } from "./init.ts";
import { memoryCommand } from "./memory.ts";
import { modelCommand } from "./model.ts";
import { permissionsCommand } from "./permissions.ts";
import { resumeCommand } from "./resume.ts";
import { rewindCommand } from "./rewind.ts";
import { sandboxCommand } from "./sandbox.ts";
import { statusCommand } from "./status.ts";
import type { SlashCommand } from "./types.ts";

export type { SlashCommand, SlashContext } from "./types.ts";

export const COMMANDS: readonly SlashCommand[] = [
  helpCommand,
  clearCommand,
  compactCommand,
  modelCommand,
  effortCommand,
  statusCommand,
  costCommand,
  contextCommand,
  permissionsCommand,
  addDirCommand,
  sandboxCommand,
  hooksCommand,
  mcpCommand,
  agentsCommand,
  pluginCommand,
  skillsCommand,
  configCommand,
  resumeCommand,
  rewindCommand,
  initCommand,
  memoryCommand,
  doctorCommand,
  exitCommand,
];

/** Names offered by Tab completion (aliases included). */
export function commandNames(): string[] {
  return COMMANDS.flatMap((command) => [command.name, ...(command.aliases ?? [])]).sort();
}

export interface ParsedCommand {
  name: string;
  args: string;
  command: SlashCommand | undefined;
}

/** "/compact keep the API notes" → compact + its arguments; undefined when the line is not a command. */
export function parseCommand(line: string): ParsedCommand | undefined {
  const match = /^\/([A-Za-z][\w:-]*)(?:\s+([\s\S]*))?$/.exec(line.trim());
  if (!match) return undefined;
  const name = (match[1] ?? "").toLowerCase();
  const command = COMMANDS.find((candidate) => candidate.name === name || candidate.aliases?.includes(name));
  return { name, args: match[2] ?? "", command };
}
