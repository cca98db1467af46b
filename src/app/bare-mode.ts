/**
 * `--bare`, Claude Code's minimal mode for scripts and CI: what the command line names is loaded,
 * and nothing found by looking around — no installed plugins or team rollout, no skills, commands
 * or agents from folders, no hooks from settings files, no MCP servers but `--mcp-config`'s, no
 * CLAUDE.md or auto memory, and the tools are Bash, Read and Edit unless `--tools` says otherwise.
 * `--settings`, `--mcp-config`, `--agents`, `--plugin-dir` and `--append-system-prompt` still
 * work. Settings files still load, so their permission rules keep applying (a `deny` is never
 * dropped); managed hooks and the `--settings` layer's hooks still run, and an `apiKeyHelper` is
 * taken only from those two.
 */
import type { LoadedSettings } from "../settings/types.ts";
import type { StartupInstructions } from "./instruction-context.ts";

export const BARE_TOOLS: readonly string[] = ["Bash", "Read", "Edit"];

/** Settings scopes whose hooks run in bare mode: the organisation's and the command line's. */
export const BARE_HOOK_SCOPES: readonly string[] = ["managed", "cli"];

export function bareSettings(loaded: LoadedSettings): LoadedSettings {
  const helperScope = loaded.origins.apiKeyHelper?.scope;
  const { apiKeyHelper, hooks, ...rest } = loaded.settings;
  const keepHelper = apiKeyHelper !== undefined && (helperScope === "cli" || helperScope === "managed");
  const kept = keptHooks(hooks, loaded.origins);
  return {
    ...loaded,
    origins: kept.origins,
    settings: { ...rest, hooks: kept.hooks, ...(keepHelper ? { apiKeyHelper } : {}), enabledPlugins: {}, extraKnownMarketplaces: {} },
  };
}

/**
 * The hook groups of the scopes bare mode keeps, numbered again, with their origins: a group's
 * origin (and every key under it) is recorded by its place in the merged list
 * (`hooks.PreToolUse[2]`), which changes once the groups before it are gone.
 */
function keptHooks(hooks: LoadedSettings["settings"]["hooks"], origins: LoadedSettings["origins"]): { hooks: LoadedSettings["settings"]["hooks"]; origins: LoadedSettings["origins"] } {
  const nextOrigins: Record<string, LoadedSettings["origins"][string]> = {};
  for (const [key, origin] of Object.entries(origins)) if (!key.startsWith("hooks.")) nextOrigins[key] = origin;
  const nextHooks: Record<string, unknown[]> = {};
  for (const [event, groups] of Object.entries(hooks as Record<string, unknown>)) {
    if (!Array.isArray(groups)) continue;
    const keptGroups: unknown[] = [];
    groups.forEach((group, index) => {
      const scope = origins[`hooks.${event}[${index}]`]?.scope;
      if (scope === undefined || !BARE_HOOK_SCOPES.includes(scope)) return;
      const from = `hooks.${event}[${index}]`;
      const to = `hooks.${event}[${keptGroups.length}]`;
      for (const [key, origin] of Object.entries(origins)) if (key === from || key.startsWith(`${from}.`) || key.startsWith(`${from}[`)) nextOrigins[`${to}${key.slice(from.length)}`] = origin;
      keptGroups.push(group);
    });
    if (keptGroups.length > 0) nextHooks[event] = keptGroups;
  }
  return { hooks: nextHooks as LoadedSettings["settings"]["hooks"], origins: nextOrigins };
}

export const BARE_INSTRUCTIONS: StartupInstructions = { text: "", problems: [], files: [] };
