/**
 * `headersHelper` (distribution-mcp.md §2.11): a shell command whose stdout is a JSON object of
 * headers, merged over a remote server's static `headers` when it connects. It is the server's
 * configuration running code, so a repository's own servers (project scope) run it only in a
 * trusted folder; elsewhere it is skipped with one line saying so. A helper that fails, times out
 * or prints anything but a JSON object of strings is reported with the server's name, and the
 * server connects with its static headers.
 */
import type { McpServerEntry } from "../mcp/types.ts";

const HELPER_TIMEOUT_MS = 10_000;

async function runHelper(command: string, env: Readonly<Record<string, string>>, cwd: string): Promise<{ ok: true; headers: Record<string, string> } | { ok: false; message: string }> {
  const child = Bun.spawn(["sh", "-c", command], { cwd, env: { ...env }, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const timer = setTimeout(() => child.kill("SIGKILL"), HELPER_TIMEOUT_MS);
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  clearTimeout(timer);
  if (code !== 0) return { ok: false, message: `exited with ${code}${stderr.trim() ? `: ${stderr.trim().split("\n").at(-1)}` : ""}` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch {
    return { ok: false, message: "did not print a JSON object of headers" };
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed) || !Object.values(parsed).every((value) => typeof value === "string")) {
    return { ok: false, message: 'must print a JSON object of header names to string values, e.g. {"Authorization": "Bearer …"}' };
  }
  return { ok: true, headers: parsed as Record<string, string> };
}

/** The servers with their helpers' headers merged in; each skipped or failed helper reported once. */
export async function withHelperHeaders(servers: readonly McpServerEntry[], input: { trusted: boolean; env: Readonly<Record<string, string>>; cwd: string; report: (line: string) => void }): Promise<McpServerEntry[]> {
  return Promise.all(
    servers.map(async (server) => {
      const config = server.config;
      if (config.type === "stdio" || !config.headersHelper) return server;
      if ((server.scope === "project" || server.scope === "local") && !input.trusted) {
        input.report(`clew: MCP server "${server.name}": headersHelper not run: this folder is not trusted (run clew trust to allow it); connecting with its static headers`);
        return server;
      }
      const result = await runHelper(config.headersHelper, input.env, input.cwd);
      if (!result.ok) {
        input.report(`clew: MCP server "${server.name}": headersHelper ${result.message}; connecting with its static headers`);
        return server;
      }
      return { ...server, config: { ...config, headers: { ...config.headers, ...result.headers } } };
    }),
  );
}
