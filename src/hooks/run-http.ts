/**
 * Runs an `http` handler (hooks.md §4.2, §6.7): POSTs the input JSON. Header values may name
 * environment variables (`$TOKEN`, `${TOKEN}`), expanded only when listed in the hook's
 * `allowedEnvVars` (and in `httpHookAllowedEnvVars` when that is set); any other name becomes
 * empty, so a hook file cannot exfiltrate arbitrary secrets. A 2xx JSON object is read like command
 * stdout; an empty 2xx is success; anything else is a non-blocking error. HTTP cannot block by
 * status code, only through a JSON decision.
 */
import type { Execution } from "./result.ts";
import type { HttpSpec } from "./types.ts";

export interface HttpRunContext {
  env: Readonly<Record<string, string>>;
  /** `httpHookAllowedEnvVars`; undefined = no restriction beyond the hook's own list. */
  policyEnvVars?: readonly string[];
  body: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

function expandHeader(value: string, allowed: ReadonlySet<string>, env: Readonly<Record<string, string>>): string {
  return value.replace(/\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g, (_, braced: string | undefined, bare: string | undefined) => {
    const name = braced ?? bare ?? "";
    return allowed.has(name) ? (env[name] ?? "") : "";
  });
}

export async function runHttp(spec: HttpSpec, context: HttpRunContext): Promise<Execution> {
  const policy = context.policyEnvVars;
  const allowed = new Set(spec.allowedEnvVars.filter((name) => policy === undefined || policy.includes(name)));
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  for (const [name, value] of Object.entries(spec.headers)) headers[name] = expandHeader(value, allowed, context.env);
  const timeout = AbortSignal.timeout(context.timeoutMs);
  const signal = context.signal ? AbortSignal.any([context.signal, timeout]) : timeout;
  let response: Response;
  let text: string;
  try {
    response = await fetch(spec.url, { method: "POST", headers, body: context.body, signal, redirect: "error" });
    text = await response.text();
  } catch (error) {
    if (context.signal?.aborted) return { kind: "cancelled" };
    if (timeout.aborted) return { kind: "timeout" };
    const message = error instanceof Error ? error.message : String(error);
    return { kind: "error", message: `POST ${spec.url} failed: ${message}` };
  }
  const run = { exitCode: response.ok ? 0 : 1, stdout: text, stderr: "" };
  if (!response.ok) return { kind: "error", message: `POST ${spec.url} answered HTTP ${response.status}`, run };
  const body = text.trim();
  if (body === "") return { kind: "exit", run };
  if (!body.startsWith("{")) return { kind: "error", message: `POST ${spec.url} answered with a body that is not a JSON object`, run };
  try {
    const json: unknown = JSON.parse(body);
    if (typeof json !== "object" || json === null || Array.isArray(json)) throw new Error("not an object");
  } catch {
    return { kind: "error", message: `POST ${spec.url} answered with invalid JSON`, run };
  }
  return { kind: "exit", run };
}
