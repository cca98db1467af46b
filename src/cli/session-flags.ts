/**
 * The part of opening a session that both modes (headless and interactive) take from the
 * command line, so the two cannot drift apart.
 */
import { readFileSync } from "node:fs";
import type { SessionOptions } from "../app/session-options.ts";
import type { Environment } from "../settings/paths.ts";
import { FatalError } from "../util/errors.ts";
import type { CliOptions } from "./args.ts";

/** `--x` or `--x-file`, never both. */
export function readTextOption(inline: string | undefined, file: string | undefined, flag: string): string | undefined {
  if (inline !== undefined && file !== undefined) {
    throw new FatalError("usage", `error: ${flag} and ${flag}-file cannot be used together.`);
  }
  if (file === undefined) return inline;
  try {
    return readFileSync(file, "utf8");
  } catch {
    throw new FatalError("usage", `error: cannot read ${flag}-file ${file}.`, "Check that the file exists and is readable.");
  }
}

export function sessionFlags(
  options: CliOptions,
  env: Environment,
  version: string,
): Pick<SessionOptions, "env" | "version" | "cli" | "permissionMode" | "maxTurns" | "systemPrompt" | "appendSystemPrompt" | "tools" | "persist" | "agentsJson" | "maxBudgetUsd" | "mcpConfigs" | "strictMcpConfig" | "agent" | "pluginDirs" | "fallbackModel" | "autoCompactWindow" | "appendSubagentSystemPrompt" | "excludeDynamicSections" | "bare" | "disableSlashCommands" | "safeMode" | "name"> {
  return {
    ...(options.name !== undefined && options.name.trim() !== "" ? { name: options.name.trim() } : {}),
    ...(options.safeMode ? { safeMode: true } : {}),
    ...(options.bare ? { bare: true } : {}),
    ...(options.disableSlashCommands ? { disableSlashCommands: true } : {}),
    ...(options.autoCompactWindow !== undefined ? { autoCompactWindow: options.autoCompactWindow } : {}),
    ...(options.appendSubagentSystemPrompt !== undefined ? { appendSubagentSystemPrompt: options.appendSubagentSystemPrompt } : {}),
    ...(options.excludeDynamicSections ? { excludeDynamicSections: true } : {}),
    ...(options.fallbackModel !== undefined ? { fallbackModel: options.fallbackModel } : {}),
    pluginDirs: options.pluginDirs,
    ...(options.agent !== undefined ? { agent: options.agent } : {}),
    mcpConfigs: options.mcpConfigs,
    strictMcpConfig: options.strictMcpConfig,
    ...(options.agentsJson !== undefined ? { agentsJson: parseAgentsJson(options.agentsJson) } : {}),
    ...(options.maxBudgetUsd !== undefined ? { maxBudgetUsd: options.maxBudgetUsd } : {}),
    env,
    version,
    cli: options,
    permissionMode: options.permissionMode,
    maxTurns: options.maxTurns,
    systemPrompt: readTextOption(options.systemPrompt, options.systemPromptFile, "--system-prompt"),
    appendSystemPrompt: readTextOption(options.appendSystemPrompt, options.appendSystemPromptFile, "--append-system-prompt"),
    tools: options.tools,
    // CLAUDE_CODE_SKIP_PROMPT_HISTORY: as --no-session-persistence.
    persist: options.persistSession && !env.skipPromptHistory,
  };
}

/**
 * `--agents '{"name": {…}}'`, or a path to a file holding that JSON (Claude Code 2.1.332): the JSON
 * must parse; what each definition holds is checked by the loader.
 */
function parseAgentsJson(value: string): unknown {
  const inline = value.trimStart().startsWith("{");
  let text = value;
  if (!inline) {
    try {
      text = readFileSync(value, "utf8");
    } catch (error) {
      const code = typeof error === "object" && error !== null && "code" in error ? String((error as { code: unknown }).code) : String(error);
      throw new FatalError("usage", `error: --agents ${value}: not a JSON object and not a readable file (${code}).`, `Pass the agents as JSON, e.g. --agents '{"reviewer": {"description": "Reviews code", "prompt": "You review code."}}', or the path of a file holding it.`);
    }
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new FatalError("usage", `error: --agents${inline ? "" : ` ${value}`} is not valid JSON (${error instanceof Error ? error.message : String(error)}).`, `Pass an object of agent name to definition, e.g. --agents '{"reviewer": {"description": "Reviews code", "prompt": "You review code."}}'.`);
  }
}
