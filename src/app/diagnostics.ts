/**
 * What `clew doctor` and `/doctor` report of the extension stack: every configured hook with its
 * source file (and why one does not run), every skill and command with its file, and every
 * problem found loading them — built from settings and folders alone, no session or key needed.
 */
import { join } from "node:path";
import { findRepoRoot } from "../context/instructions.ts";
import type { ExtensionRegistry } from "../extensions/index.ts";
import type { HookConfig } from "../hooks/types.ts";
import type { Environment } from "../settings/paths.ts";
import type { LoadedSettings } from "../settings/types.ts";
import { loadSessionExtensions, type LazyRegistry } from "./extensions-setup.ts";
import { resolveModelId } from "../model/models.ts";

/** The registry a session in `env.cwd` would load, built now. */
export async function registryFor(env: Environment, loaded: LoadedSettings): Promise<ExtensionRegistry | undefined> {
  const extensions = await loadSessionExtensions({
    cwd: env.cwd,
    projectRoot: findRepoRoot(env.cwd),
    userDir: env.configDir,
    managedDirs: env.managedSettingsDirs,
    addDirs: loaded.settings.permissions.additionalDirectories,
    cacheDir: join(env.configDir, "cache", "extensions"),
    budgetChars: 8_000,
    ...(loaded.settings.skillOverrides ? { skillOverrides: loaded.settings.skillOverrides } : {}),
  });
  return extensions.registry?.get();
}

/**
 * Skills and commands the user can type (`/name`), for completion and `/help`. Until the registry
 * is built (a warm start skips it) there are none: it is built now, for the next Tab or /help.
 */
export function typedInvocables(lazy: LazyRegistry | undefined): Array<{ name: string; description: string; argumentHint?: string }> {
  const registry = lazy?.peek();
  if (lazy && !registry) void lazy.get();
  if (!registry) return [];
  return registry.invocables
    .filter((item) => item.userInvocable)
    .map((item) => ({ name: item.name, description: item.description, ...(item.argumentHint ? { argumentHint: item.argumentHint } : {}) }));
}

export async function hookLines(config: HookConfig | undefined, homeDir: string): Promise<string[]> {
  if (!config || config.hooks.length + config.problems.length === 0) {
    return ["No hooks are configured (settings `hooks`, plugins' hooks/hooks.json, skill and agent frontmatter)."];
  }
  const { formatHookListing, listHooks } = await import("../hooks/listing.ts");
  return formatHookListing(listHooks(config), homeDir);
}

/** The hook configuration of these settings, compiled but not started. */
export async function hookConfigOf(loaded: LoadedSettings, projectDir: string): Promise<HookConfig | undefined> {
  const hooks: unknown = loaded.settings.hooks;
  if (typeof hooks !== "object" || hooks === null || Object.keys(hooks).length === 0) return undefined;
  const [{ collectHooks }, { hookPolicyFromSettings, hookSourcesFromSettings }] = await Promise.all([import("../hooks/collect.ts"), import("../hooks/settings-sources.ts")]);
  return collectHooks(hookSourcesFromSettings(loaded), { projectDir, policy: hookPolicyFromSettings(loaded) });
}

/**
 * Skills whose description the model's listing leaves out to fit its budget (their names stay),
 * said where the user looks — /skills, clew doctor — rather than silently, with the two ways out.
 */
async function listingLines(registry: ExtensionRegistry, budgetChars: number): Promise<string[]> {
  const { listingDescription, skillCatalogue } = await import("../extensions/catalogue.ts");
  const listed = registry.invocables.filter((item) => item.modelInvocable);
  if (listed.length === 0) return [];
  const bare = new Set(skillCatalogue(listed, { budgetChars }).split("\n"));
  const dropped = listed.filter((item) => item.override !== "name-only" && listingDescription(item) !== "" && bare.has(`- ${item.name}`)).map((item) => item.name);
  if (dropped.length === 0) return [];
  const shown = dropped.slice(0, 10).join(", ");
  return [
    "",
    `The model's skill listing has room for ${budgetChars} characters: ${dropped.length} of ${listed.length} descriptions are left out (the names stay listed): ${shown}${dropped.length > 10 ? `, and ${dropped.length - 10} more` : ""}.`,
    "Raise SLASH_COMMAND_TOOL_CHAR_BUDGET, or set skillOverrides \"name-only\" (or \"off\") for skills the model need not see described.",
  ];
}

export async function extensionLines(registry: ExtensionRegistry | undefined, homeDir: string, budgetChars: number = 8_000): Promise<string[]> {
  if (!registry) return ["No skills or commands are loaded."];
  const { formatExtensionProblem } = await import("../extensions/index.ts");
  const home = (path: string) => (path.startsWith(`${homeDir}/`) ? `~${path.slice(homeDir.length)}` : path);
  const rows = registry.invocables.map((item) => {
    const flags = item.override ? `skillOverrides: ${item.override}` : [item.modelInvocable ? "" : "user only", item.userInvocable ? "" : "model only"].filter(Boolean).join(", ");
    return `${item.kind === "skill" ? "skill  " : "command"} /${item.name}${item.argumentHint ? ` ${item.argumentHint}` : ""}${flags ? ` (${flags})` : ""}  ${home(item.file)}`;
  });
  const problems = registry.problems.filter((problem) => problem.severity !== "info").map((problem) => formatExtensionProblem(problem, homeDir));
  const listing = await listingLines(registry, budgetChars);
  return [...(rows.length > 0 ? rows : ["No skills or commands found (.clew/ and .claude/ skills/ and commands/, ~/.clew/)."]), ...listing, ...(problems.length > 0 ? ["", "Problems:", ...problems] : [])];
}

/**
 * `clew doctor` / `/doctor`: every MCP server definition in force and its approval, then the
 * problems of the config files — without connecting to anything.
 */
export async function mcpLines(env: Environment, loaded: LoadedSettings): Promise<string[]> {
  const { formatMcpProblem, loadMcpConfigFor } = await import("./mcp-config.ts");
  let config: ReturnType<typeof loadMcpConfigFor>;
  try {
    config = loadMcpConfigFor(env, loaded, { cliConfigs: [], strict: false });
  } catch (error) {
    return [error instanceof Error ? error.message : String(error)];
  }
  const lines = config.servers.map((server) => {
    const state = server.blocked ? `blocked: ${server.blocked}` : server.approval === "approved" ? "will start" : server.approval === "pending" ? "pending approval (clew asks; -p starts it)" : server.approval === "untrusted" ? "waiting for trust (run clew trust)" : "rejected";
    return `${server.name} (${server.scope}, ${server.origin.replace(env.homeDir, "~")}) — ${state}${server.missingVars.length > 0 ? `; unset: ${server.missingVars.join(", ")}` : ""}`;
  });
  if (lines.length === 0) lines.push("none configured");
  return [...lines, ...config.problems.map((problem) => formatMcpProblem(problem, env.homeDir).replace(/^clew: /, ""))];
}

/** `clew doctor` / `/doctor`: where clew runs from, its update channel, pin and key, and the last background check. */
export async function updateLines(env: Environment, settings: LoadedSettings["settings"], version: string): Promise<string[]> {
  const { lastBackgroundCheck, updateContext } = await import("./self-update.ts");
  const context = updateContext(env, settings, version);
  const { policy } = context;
  const last = lastBackgroundCheck(env);
  return [
    `Running: ${version} (${context.fromSource ? "from source under bun" : context.binaryPath})`,
    `Platform: ${context.platform ?? "no release build for this machine"}`,
    `Auto-updates: ${policy.autoUpdate.enabled ? "enabled" : `disabled (by ${policy.autoUpdate.by})`}; channel ${policy.channel}; from ${policy.base}`,
    ...(policy.pin ? [`Pinned to ${policy.pin.version} (by ${policy.pin.by}): never replaced`] : []),
    `Release key: ${policy.trustedKey.label}${policy.trustedKey.problem ? ` — ${policy.trustedKey.problem}` : ""}`,
    `Last update check: ${last ? `${last.checkedAt}: ${last.result}` : "none recorded"}`,
  ];
}

/** The small fast model side requests go to (WebFetch's prompt, WebSearch's search). */
export function sideModelId(env: Environment): string {
  return resolveModelId("haiku", env.aliasOverrides);
}
