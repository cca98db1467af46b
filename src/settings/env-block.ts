/**
 * The merged settings `env` block applied to clew itself: its variables override the inherited
 * ones for the session as for its child processes (an empty value reads as unset), so an endpoint,
 * key or model set in settings.json is the one the session uses.
 */
import { readEnvironment, type Environment } from "./paths.ts";
import type { LoadedSettings, SettingsOrigin } from "./types.ts";

/**
 * Variables that decide where the session's requests and credentials go. From a repository's own
 * settings (its project and local files) they count only once the folder is trusted: a cloned
 * folder must not be able to send the conversation and the user's key to a server of its choosing.
 */
const ROUTING_KEY = /^(?:ANTHROPIC_BASE_URL|ANTHROPIC_API_KEY|ANTHROPIC_AUTH_TOKEN|ANTHROPIC_CUSTOM_HEADERS|(?:https?|all|no)_proxy|(?:HTTPS?|ALL|NO)_PROXY)$/;

/**
 * What a repository's own settings may set in an untrusted folder: clew's and Claude Code's knobs
 * and a few inert names. Anything else can make a command run code it does not name — `BASH_ENV`
 * and `ENV` are sourced by every shell, `PATH` picks which `ls` runs, `GIT_*`, `LD_PRELOAD`,
 * `NODE_OPTIONS`, `LESSOPEN`, `PAGER` and the like run programs of their own — so a cloned folder
 * could run its code through a command the gate allows as read-only. Those wait for trust.
 */
const KNOB_PREFIX = /^(?:CLAUDE_|ANTHROPIC_|CLEW_|DISABLE_|ENABLE_|MCP_|MAX_THINKING_TOKENS$|MAX_MCP_OUTPUT_TOKENS$|BASH_(?:DEFAULT_TIMEOUT_MS|MAX_TIMEOUT_MS|MAX_OUTPUT_LENGTH)$)/;
const INERT_NAMES = new Set(["NODE_ENV", "TZ", "LANG", "LC_ALL", "NO_COLOR", "FORCE_COLOR"]);
/** Knob names that do run or source something. */
const EXECUTING_KNOB = /^(?:CLAUDE_CODE_SHELL(?:_PREFIX)?|CLAUDE_ENV_FILE|CLAUDE_CONFIG_DIR)$/;

function inertForRepository(key: string): boolean {
  if (ROUTING_KEY.test(key) || EXECUTING_KNOB.test(key)) return false;
  return KNOB_PREFIX.test(key) || INERT_NAMES.has(key);
}

/** Which file set `env.<key>` in the merged settings. */
function envOrigin(settings: Pick<LoadedSettings, "origins">, key: string): SettingsOrigin | undefined {
  return settings.origins[`env.${key}`] ?? settings.origins[`env[${JSON.stringify(key)}]`];
}

/** Set by the repository itself rather than by the user, an administrator or a flag. */
function fromRepository(origin: SettingsOrigin | undefined): boolean {
  return origin?.scope === "project" || origin?.scope === "local";
}

/**
 * The session's environment with the settings' `env` block applied. Where clew keeps its files,
 * whether root runs unsandboxed and where updates come from stay as the process started (a
 * settings file cannot move them; it can only turn automatic updates off). From an untrusted
 * repository's files only clew's and Claude Code's knobs apply; the rest is left out, for clew and
 * its child processes alike, and named once through `report`.
 */
export function withSettingsEnv(env: Environment, loaded: Pick<LoadedSettings, "settings" | "origins" | "trusted">, report: (line: string) => void): Environment {
  const block: Record<string, string> = {};
  const held: string[] = [];
  for (const [key, value] of Object.entries(loaded.settings.env)) {
    if (!loaded.trusted && !inertForRepository(key) && fromRepository(envOrigin(loaded, key))) held.push(key);
    else block[key] = value;
  }
  if (held.length > 0) {
    report(
      `clew: ${held.join(", ")} from this folder's settings ${held.length === 1 ? "is" : "are"} not applied, to clew or to the commands it runs, until the folder is trusted: ` +
        `such variables can redirect requests and credentials or make a command run code it does not name. ` +
        `Set ${held.length === 1 ? "it" : "them"} in ~/.clew/settings.json or the environment, or run: clew trust ${JSON.stringify(env.cwd)}`,
    );
  }
  if (Object.keys(block).length === 0) return env;
  const applied = readEnvironment({ ...env.childEnv, ...block }, env.cwd);
  const updatesOff = env.update.disableAutoUpdate.disabled ? env.update.disableAutoUpdate : applied.update.disableAutoUpdate;
  return {
    ...applied,
    // Child processes see the block as applied: what an untrusted repository may not set reaches none of them.
    childEnv: { ...env.childEnv, ...block },
    configDir: env.configDir,
    homeDir: env.homeDir,
    managedSettingsDirs: env.managedSettingsDirs,
    pluginsDir: env.pluginsDir,
    unsandboxedRoot: env.unsandboxedRoot,
    update: { ...env.update, disableAutoUpdate: updatesOff },
  };
}
