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
 * settings file cannot move them; it can only turn automatic updates off). Routing variables from
 * an untrusted repository's files are left out, each named once through `report`.
 */
export function withSettingsEnv(env: Environment, loaded: Pick<LoadedSettings, "settings" | "origins" | "trusted">, report: (line: string) => void): Environment {
  const block: Record<string, string> = {};
  const held: string[] = [];
  for (const [key, value] of Object.entries(loaded.settings.env)) {
    if (!loaded.trusted && ROUTING_KEY.test(key) && fromRepository(envOrigin(loaded, key))) held.push(key);
    else block[key] = value;
  }
  if (held.length > 0) {
    report(
      `clew: ${held.join(", ")} from this folder's settings ${held.length === 1 ? "is" : "are"} not used for clew's own requests: the folder is not trusted. ` +
        `Set ${held.length === 1 ? "it" : "them"} in ~/.clew/settings.json or the environment, or run: clew trust ${JSON.stringify(env.cwd)}`,
    );
  }
  if (Object.keys(block).length === 0) return env;
  const applied = readEnvironment({ ...env.childEnv, ...block }, env.cwd);
  const updatesOff = env.update.disableAutoUpdate.disabled ? env.update.disableAutoUpdate : applied.update.disableAutoUpdate;
  return {
    ...applied,
    // Child processes see the whole block, as they always did; only clew's own use is gated.
    childEnv: { ...env.childEnv, ...loaded.settings.env },
    configDir: env.configDir,
    homeDir: env.homeDir,
    managedSettingsDirs: env.managedSettingsDirs,
    pluginsDir: env.pluginsDir,
    unsandboxedRoot: env.unsandboxedRoot,
    update: { ...env.update, disableAutoUpdate: updatesOff },
  };
}
