/**
 * The checks `/doctor` and `clew doctor` share: installation, configuration folder, settings,
 * credentials, endpoint and tools, then the extension stack (hooks, skills, commands), each with
 * what to do when it fails.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { formatProblem } from "../settings/problems.ts";
import type { Environment } from "../settings/paths.ts";
import type { SettingsProblem } from "../settings/types.ts";

export type Check = { ok: boolean | "n/a"; label: string; detail: string; lines?: string[] };

export interface DoctorFacts {
  env: Environment;
  version: string;
  problems: readonly SettingsProblem[];
  settingsFiles: number;
  /** The settings' `apiKeyHelper` command, when one is set (used without a key or token in the environment). */
  keyHelper?: string;
  hooks: string[];
  extensions: string[];
  /** MCP server definitions and config problems (absent: not checked). */
  mcp?: string[];
  /** Installation and self-update state. */
  update?: string[];
  /** Whether the API endpoint answered (absent: not tested). */
  /** Whether the endpoint answers, and what it said of the credential (apiReachability). */
  api?: Check[];
  /** The Bash sandbox (app/sandbox-status.ts `sandboxCheck`; absent: not checked). */
  sandbox?: Check;
  /** Whether the endpoint offers WebSearch's server tool (doctor-web.ts; absent: not checked). */
  web?: Check;
}

function configWritable(dir: string): Check {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const probe = join(dir, `.doctor-${process.pid}`);
    writeFileSync(probe, "");
    rmSync(probe);
    return { ok: true, label: "Config directory", detail: `${dir} is writable` };
  } catch (error) {
    return { ok: false, label: "Config directory", detail: `${dir} is not writable (${error instanceof Error ? error.message : String(error)}); set CLEW_CONFIG_DIR` };
  }
}

export function doctorChecks(facts: DoctorFacts): Check[] {
  const { env, problems } = facts;
  const credentials = env.apiKey ? "ANTHROPIC_API_KEY is set" : env.authToken ? "ANTHROPIC_AUTH_TOKEN is set" : facts.keyHelper ? `apiKeyHelper is set (${facts.keyHelper})` : "";
  const rg = Bun.which("rg");
  return [
    { ok: true, label: "clew", detail: `version ${facts.version}`, ...(facts.update ? { lines: facts.update } : {}) },
    configWritable(env.configDir),
    {
      ok: problems.length === 0,
      label: "Settings",
      detail: problems.length === 0 ? `${facts.settingsFiles} settings locations checked, no problems` : `${problems.length} problem(s):`,
      lines: problems.map((problem) => formatProblem(problem, env.homeDir)),
    },
    { ok: credentials !== "", label: "API credentials", detail: credentials || "none: set ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN" },
    { ok: true, label: "Base URL", detail: env.baseURL ?? "https://api.anthropic.com (default)" },
    ...(facts.api ?? []),
    ...(facts.web ? [facts.web] : []),
    { ok: rg !== null, label: "ripgrep", detail: rg ?? "not found: Grep and Glob use the slower built-in search (install ripgrep)" },
    { ok: "n/a", label: "tmux", detail: "not needed (clew's UI is line-oriented)" },
    ...(facts.sandbox ? [facts.sandbox] : []),
    { ok: "n/a", label: "Hooks", detail: "", lines: facts.hooks },
    { ok: "n/a", label: "Skills and commands", detail: "", lines: facts.extensions },
    ...(facts.mcp ? [{ ok: "n/a" as const, label: "MCP servers", detail: "", lines: facts.mcp }] : []),
  ];
}

export interface Marks {
  pass: (text: string) => string;
  fail: (text: string) => string;
  none: (text: string) => string;
}

export function renderDoctor(checks: readonly Check[], marks: Marks): string[] {
  const lines: string[] = [];
  for (const check of checks) {
    const mark = check.ok === "n/a" ? marks.none("–") : check.ok ? marks.pass("✓") : marks.fail("✗");
    lines.push(`  ${mark} ${check.label}:${check.detail ? ` ${check.detail}` : ""}`);
    for (const line of check.lines ?? []) lines.push(line === "" ? "" : `      ${line}`);
  }
  return lines;
}

/**
 * Whether the endpoint answers at all (any HTTP status counts: a 401 still proves the network path);
 * a DNS, TLS or connection failure names the host. Bounded, so doctor never hangs on a network.
 */
/**
 * Whether the endpoint answers (any HTTP status proves the network path) and, when the session's
 * own credential was sent, whether it was taken: a free token count, so a rejected key is found
 * before a headless job fails on it. An apiKeyHelper is not run here (it is reported as set).
 */
export async function apiReachability(env: Environment, model: string, timeoutMs = 5_000): Promise<Check[]> {
  const base = env.baseURL ?? "https://api.anthropic.com";
  let host = base;
  try {
    host = new URL(base).host;
  } catch {
    return [{ ok: false, label: "API connectivity", detail: `ANTHROPIC_BASE_URL "${base}" is not a URL` }];
  }
  const credential: Record<string, string> | undefined = env.authToken ? { authorization: `Bearer ${env.authToken}` } : env.apiKey ? { "x-api-key": env.apiKey } : undefined;
  let response: Response;
  try {
    response = await fetch(new URL("/v1/messages/count_tokens", base), {
      method: "POST",
      signal: AbortSignal.timeout(timeoutMs),
      headers: { ...env.customHeaders, ...credential, "anthropic-version": "2023-06-01", "content-type": "application/json" },
      body: JSON.stringify({ model, messages: [{ role: "user", content: "ping" }] }),
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return [{ ok: false, label: "API connectivity", detail: `${host} could not be reached (${reason}); check the network, a proxy (HTTPS_PROXY) or ANTHROPIC_BASE_URL` }];
  }
  const reached: Check = { ok: true, label: "API connectivity", detail: `${host} answered (HTTP ${response.status})` };
  if (!credential) return [reached];
  const which = env.authToken ? "ANTHROPIC_AUTH_TOKEN" : "ANTHROPIC_API_KEY";
  if (response.ok) return [reached, { ok: true, label: "API credentials accepted", detail: `${host} took ${which}` }];
  if (response.status === 401 || response.status === 403) {
    const said = await errorMessageOf(response);
    return [reached, { ok: false, label: "API credentials accepted", detail: `${host} refused ${which} (HTTP ${response.status}${said ? `: ${said}` : ""}); check the key, or whether this endpoint wants ANTHROPIC_AUTH_TOKEN instead` }];
  }
  // Another status (a gateway without token counting, a rate limit) says nothing about the key.
  return [reached];
}

async function errorMessageOf(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { error?: { message?: unknown } };
    return typeof body.error?.message === "string" ? body.error.message.slice(0, 200) : "";
  } catch {
    return "";
  }
}
