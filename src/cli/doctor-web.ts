/**
 * The doctor's web search check. WebSearch runs the API's server-side `web_search` tool in a
 * small request of its own; Anthropic's API offers it, but gateways and local models behind
 * ANTHROPIC_BASE_URL often refuse any tool that is not a plain client tool. The check asks the
 * endpoint to count the tokens of a request offering that tool — free, and validated like a real
 * request — so a refusal shows here, with its message and the fix, before a search fails.
 */
import type { Environment } from "../settings/paths.ts";
import type { SettingsRule } from "../settings/types.ts";
import type { Check } from "./doctor-checks.ts";

const LABEL = "Web search";
/** The tool exactly as WebSearch offers it (src/tools/web-search.ts). */
const SEARCH_TOOL = { type: "web_search_20250305", name: "web_search", max_uses: 8 };
const FIX = 'add "WebSearch" to permissions.deny in your settings to stop offering the tool';

export interface WebSearchCheckInput {
  env: Environment;
  /** Every permission rule in force (LoadedSettings.rules). */
  rules: readonly SettingsRule[];
  /** The model WebSearch's request goes to: the small fast model (the `haiku` alias, resolved). */
  model: string;
  timeoutMs?: number;
}

/** A deny rule with no specifier that names WebSearch (or a pattern covering it): the tool is not offered. */
export function webSearchDenyRule(rules: readonly SettingsRule[]): SettingsRule | undefined {
  return rules.find((rule) => {
    if (rule.kind !== "deny") return false;
    const bare = /^\s*([^()\s]+)\s*(?:\(\s*\*?\s*\))?\s*$/.exec(rule.text)?.[1];
    return bare !== undefined && (bare === "WebSearch" || (bare.includes("*") && new Bun.Glob(bare).match("WebSearch")));
  });
}

function errorMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } };
    if (typeof parsed.error?.message === "string") return parsed.error.message;
  } catch {
    // Not the API's error shape: show what the endpoint said.
  }
  return body.trim().slice(0, 300) || "no message";
}

function credentialHeaders(env: Environment): Record<string, string> | undefined {
  if (env.authToken) return { authorization: `Bearer ${env.authToken}` };
  if (env.apiKey) return { "x-api-key": env.apiKey };
  return undefined;
}

export async function webSearchCheck(input: WebSearchCheckInput): Promise<Check> {
  const { env } = input;
  const denied = webSearchDenyRule(input.rules);
  if (denied) return { ok: "n/a", label: LABEL, detail: `off: the deny rule ${denied.text}${denied.source.file ? ` in ${denied.source.file}` : ""} removes WebSearch from the tools offered` };
  const base = env.baseURL ?? "https://api.anthropic.com";
  const about = "WebSearch runs the API's server-side web_search tool, which Anthropic's API offers but many gateways and local models do not";
  if (env.nonessentialTrafficDisabled) return { ok: "n/a", label: LABEL, detail: `not checked (CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC is set). ${about}; if searches fail, ${FIX}` };
  const credentials = credentialHeaders(env);
  if (!credentials) return { ok: "n/a", label: LABEL, detail: "not checked: no API credentials" };
  let url: URL;
  try {
    url = new URL("/v1/messages/count_tokens", base);
  } catch {
    return { ok: "n/a", label: LABEL, detail: `not checked: ANTHROPIC_BASE_URL "${base}" is not a URL` };
  }
  const host = url.host;
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      signal: AbortSignal.timeout(input.timeoutMs ?? 5_000),
      headers: { ...env.customHeaders, ...credentials, "anthropic-version": "2023-06-01", "content-type": "application/json" },
      body: JSON.stringify({ model: input.model, messages: [{ role: "user", content: "Search the web for: clew" }], tools: [SEARCH_TOOL] }),
    });
  } catch (error) {
    return { ok: "n/a", label: LABEL, detail: `not checked: ${host} could not be reached (${error instanceof Error ? error.message : String(error)})` };
  }
  const body = await response.text().catch(() => "");
  if (response.ok) return { ok: true, label: LABEL, detail: `${host} accepts the server-side web_search tool (${input.model})` };
  const said = errorMessage(body);
  if (response.status === 400 || response.status === 422) {
    return {
      ok: false,
      label: LABEL,
      detail: `${host} refuses the server-side web_search tool (HTTP ${response.status}): ${said}`,
      lines: [`WebSearch will fail with "Web search is not available from this model endpoint". ${about}.`, `To fix: use an endpoint that offers it, or ${FIX}.`],
    };
  }
  if (response.status === 404) return { ok: "n/a", label: LABEL, detail: `not checked: ${host} has no token-count endpoint (HTTP 404: ${said}). ${about}; if searches fail, ${FIX}` };
  return { ok: "n/a", label: LABEL, detail: `not checked: ${host} answered HTTP ${response.status}: ${said}` };
}
