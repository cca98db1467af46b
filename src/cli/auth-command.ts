/**
 * `clew auth status [--json|--text]`: whether a session here would have a credential, and which —
 * the check scripts and CI run before a headless job (exit 0 when there is one, 1 when not), with
 * Claude Code's JSON fields. clew has no login of its own: `auth login`, `auth logout` and
 * `setup-token` say what to set instead, and exit 1.
 */
import { withSettingsEnv } from "../settings/env-block.ts";
import { loadSettings } from "../settings/load.ts";
import type { Environment } from "../settings/paths.ts";
import type { CommandIO } from "./config-command.ts";

const SET_A_KEY =
  "clew has no login of its own: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN for a bearer token; ANTHROPIC_BASE_URL for another endpoint) in the shell or in a settings file's `env` block, or an `apiKeyHelper` command in settings.";

interface AuthStatus {
  loggedIn: boolean;
  authMethod: "api_key" | "auth_token" | "api_key_helper" | "none";
  apiProvider: "firstParty";
  apiKeySource: "ANTHROPIC_AUTH_TOKEN" | "ANTHROPIC_API_KEY" | "apiKeyHelper" | "none";
  /** Where an apiKeyHelper comes from (it is not run here). */
  apiKeyHelperFile?: string;
  baseUrl?: string;
}

/** The credential a session would use, in the session's order (credentials.ts), without running a helper. */
function statusOf(env: Environment, helper: string | undefined, helperFile: string | undefined): AuthStatus {
  const base = { apiProvider: "firstParty" as const, ...(env.baseURL ? { baseUrl: env.baseURL } : {}) };
  if (env.authToken) return { loggedIn: true, authMethod: "auth_token", apiKeySource: "ANTHROPIC_AUTH_TOKEN", ...base };
  if (env.apiKey) return { loggedIn: true, authMethod: "api_key", apiKeySource: "ANTHROPIC_API_KEY", ...base };
  if (helper) return { loggedIn: true, authMethod: "api_key_helper", apiKeySource: "apiKeyHelper", ...(helperFile ? { apiKeyHelperFile: helperFile } : {}), ...base };
  return { loggedIn: false, authMethod: "none", apiKeySource: "none", ...base };
}

function statusText(status: AuthStatus): string {
  if (!status.loggedIn) return `No API credentials found.\n${SET_A_KEY}\n`;
  const how = status.apiKeySource === "apiKeyHelper" ? `an API key from apiKeyHelper${status.apiKeyHelperFile ? ` (${status.apiKeyHelperFile})` : ""}` : status.apiKeySource === "ANTHROPIC_AUTH_TOKEN" ? "a bearer token (ANTHROPIC_AUTH_TOKEN)" : "an API key (ANTHROPIC_API_KEY)";
  return `Credentials: ${how}\nEndpoint: ${status.baseUrl ?? "https://api.anthropic.com"}\n`;
}

export async function runAuthCommand(argv: readonly string[], processEnv: Environment, io: CommandIO): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === "status") {
    const unknown = rest.find((arg) => arg !== "--json" && arg !== "--text");
    if (unknown !== undefined) {
      io.writeErr(`error: unknown option '${unknown}' for auth status (--json, the default, or --text)\n`);
      return 1;
    }
    const loaded = loadSettings({ startDir: processEnv.cwd, configDir: processEnv.configDir, homeDir: processEnv.homeDir, managedDirs: processEnv.managedSettingsDirs, cli: {}, keepDenyOnError: true });
    const env = withSettingsEnv(processEnv, loaded, (line) => io.writeErr(`${line}\n`));
    const status = statusOf(env, loaded.settings.apiKeyHelper, loaded.origins.apiKeyHelper?.file);
    io.writeOut(rest.includes("--text") ? statusText(status) : `${JSON.stringify(status, null, 2)}\n`);
    return status.loggedIn ? 0 : 1;
  }
  if (sub === "login" || sub === "logout") {
    io.writeErr(`clew: auth ${sub} is not needed: ${SET_A_KEY}\n`);
    return 1;
  }
  io.writeErr(`error: ${sub === undefined ? "auth needs a subcommand" : `unknown auth subcommand '${sub}'`}: status [--json|--text] (clew has no login; login and logout say what to set)\n`);
  return 1;
}

/** `setup-token`: Claude Code makes a subscription token for CI; clew runs on API keys. */
export function setupTokenRefusal(io: CommandIO): number {
  io.writeErr(`clew: setup-token makes a Claude subscription token, which clew does not use. ${SET_A_KEY}\n`);
  return 1;
}
