/**
 * Settings, paths and trust turned into the input of `loadMcpConfig`, for the session and for
 * `clew mcp …` (cli/ may not import mcp/ directly; this is its way in). Also the health check of
 * configured servers, whose runtime loads only when a probe runs.
 */
import { resolve } from "node:path";
import { findRepoRoot } from "../context/instructions.ts";
import { loadMcpConfig, type ConfiguredServer, type McpConfig, type McpConfigInput } from "../mcp/config/load.ts";
import type { McpServerStatus } from "../mcp/types.ts";
import type { Environment } from "../settings/paths.ts";
import type { LoadedSettings } from "../settings/types.ts";

export { EDIT_SCOPES, addServerDefinition, findDefinitions, removeServerDefinition, scopeFile, type EditPlace, type EditScope } from "../mcp/config/edit.ts";
export { RESERVED_NAMES, definitionHash, isValidServerName, parseEntry } from "../mcp/config/entry.ts";
export { parseJsonText } from "../mcp/config/json-file.ts";
export { isStartable, MANAGED_EXCLUSIVE_MESSAGE, type ConfiguredServer, type McpConfig, type McpConfigInput } from "../mcp/config/load.ts";
export { formatMcpProblem, mcpServerInitErrors, untrustedProjectNotice, type McpServerInitError } from "../mcp/config/problems.ts";
export { rememberProjectChoice, resetProjectChoices } from "../mcp/config/approvals.ts";
export type { McpProblem, McpServerConfig } from "../mcp/types.ts";

export interface McpFlags {
  /** `--mcp-config` values. */
  cliConfigs: readonly string[];
  strict: boolean;
}

/** The values of a settings key that managed layers set (origins tell which file set each item). */
function managedItems(loaded: LoadedSettings, key: string): unknown {
  const value = loaded.settings[key];
  if (!Array.isArray(value)) return value;
  return value.filter((_, index) =>
    Object.entries(loaded.origins).some(([path, origin]) => origin.scope === "managed" && (path === `${key}[${index}]` || path.startsWith(`${key}[${index}].`) || path.startsWith(`${key}[${index}][`))),
  );
}

/**
 * The key of this project in clew.json's `projects` (local scope): the repository root, else the
 * start directory — the same key workspace trust uses (settings-permissions spec §2.6).
 */
export function mcpProjectDir(env: Environment): string {
  return findRepoRoot(env.cwd) ?? resolve(env.cwd);
}

export function mcpConfigInput(env: Environment, loaded: LoadedSettings, flags: McpFlags): McpConfigInput {
  const settings = loaded.settings;
  const projectRoot = findRepoRoot(env.cwd);
  return {
    cwd: resolve(env.cwd),
    ...(projectRoot ? { projectRoot } : {}),
    projectDir: projectRoot ?? resolve(env.cwd),
    configDir: env.configDir,
    managedDirs: env.managedSettingsDirs,
    cliConfigs: flags.cliConfigs,
    strict: flags.strict,
    env: env.childEnv,
    settings: {
      enableAllProjectMcpServers: settings.enableAllProjectMcpServers,
      enabledMcpjsonServers: settings.enabledMcpjsonServers,
      disabledMcpjsonServers: settings.disabledMcpjsonServers,
      allowedMcpServers: settings.allowedMcpServers,
      deniedMcpServers: settings.deniedMcpServers,
      allowManagedMcpServersOnly: settings.allowManagedMcpServersOnly,
      managedAllowedMcpServers: managedItems(loaded, "allowedMcpServers"),
    },
    trusted: loaded.trusted,
  };
}

/** The servers in force for this run (see mcp/config/load.ts); throws only for managed + --mcp-config. */
export function loadMcpConfigFor(env: Environment, loaded: LoadedSettings, flags: McpFlags): McpConfig {
  return loadMcpConfig(mcpConfigInput(env, loaded, flags));
}

export interface Health {
  status: McpServerStatus;
  detail?: string;
  toolCount?: number;
}

/** Connects to each server at once (each bounded by `timeoutMs`) and reports what it found. */
export async function probeServers(servers: readonly ConfiguredServer[], options: { timeoutMs: number; cwd: string; env: Readonly<Record<string, string>> }): Promise<Health[]> {
  if (servers.length === 0) return [];
  const { probeServer } = await import("../mcp/runtime/probe.ts");
  return await Promise.all(
    servers.map(async (server) => {
      try {
        return await probeServer(server, options);
      } catch (error) {
        return { status: "failed" as const, detail: error instanceof Error ? error.message : String(error) };
      }
    }),
  );
}
