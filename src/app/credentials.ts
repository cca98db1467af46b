/**
 * How the session's requests reach the API: the credential they carry — ANTHROPIC_AUTH_TOKEN (a
 * bearer token), else ANTHROPIC_API_KEY, else the settings' `apiKeyHelper` command, the order
 * Claude Code uses — and the proxy they go through.
 */
import { ApiKeyHelper } from "../model/key-helper.ts";
import { proxyFor } from "../tools/shared/web-proxy.ts";
import type { Environment } from "../settings/paths.ts";
import type { LoadedSettings } from "../settings/types.ts";
import { FatalError } from "../util/errors.ts";

export interface SessionCredentials {
  source: "ANTHROPIC_AUTH_TOKEN" | "ANTHROPIC_API_KEY" | "apiKeyHelper";
  keyHelper?: ApiKeyHelper;
}

export function sessionCredentials(env: Environment, loaded: LoadedSettings): SessionCredentials {
  if (env.authToken) return { source: "ANTHROPIC_AUTH_TOKEN" };
  if (env.apiKey) return { source: "ANTHROPIC_API_KEY" };
  const command = loaded.settings.apiKeyHelper;
  if (command) {
    const file = loaded.origins.apiKeyHelper?.file;
    return { source: "apiKeyHelper", keyHelper: new ApiKeyHelper({ command, file, cwd: env.cwd, env: env.childEnv, ttlMs: env.apiKeyHelperTtlMs }) };
  }
  throw new FatalError(
    "auth",
    "No API credentials found.",
    "Set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN for a bearer token; ANTHROPIC_BASE_URL for another endpoint) in the shell or in the `env` block of a settings file, or an `apiKeyHelper` command in settings.",
  );
}

/** The proxy for the API endpoint, from the session's environment (settings `env` included), as curl reads it. */
export function apiProxy(env: Environment): string | undefined {
  try {
    return proxyFor(new URL(env.baseURL ?? "https://api.anthropic.com"), env.childEnv);
  } catch {
    return undefined;
  }
}
