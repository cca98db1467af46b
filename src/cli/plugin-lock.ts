/**
 * `clew plugin sync [--frozen]` (install what the project asks for and write clew.lock; or
 * install exactly the lock and fail on drift) and `clew plugin outdated [--json]`.
 */
import { runFrozenSync, runOutdated, runSync } from "../app/plugin-sync.ts";
import type { PluginSubcommand } from "./plugin-command.ts";

export const runPluginSync: PluginSubcommand = async (args, env, io) => {
  const unknown = args.find((arg) => arg !== "--frozen");
  if (unknown !== undefined) {
    io.writeErr(`error: unknown option '${unknown}'\nUsage: clew plugin sync [--frozen]\n`);
    return 1;
  }
  const frozen = args.includes("--frozen");
  const outcome = frozen ? await runFrozenSync({ env, projectDir: env.cwd }) : await runSync({ env, projectDir: env.cwd });
  for (const line of outcome.lines) io.writeOut(`${line}\n`);
  for (const error of outcome.errors) io.writeErr(`✘ ${error}\n`);
  if (!outcome.ok) io.writeErr(frozen ? "clew plugin sync --frozen: the installed plugins would not match clew.lock (see above).\n" : "clew plugin sync: clew.lock was not written (see above).\n");
  return outcome.ok ? 0 : 1;
};

export const runPluginOutdated: PluginSubcommand = async (args, env, io) => {
  const rows = await runOutdated({ env, projectDir: env.cwd });
  if (args.includes("--json")) {
    io.writeOut(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  if (rows.length === 0) io.writeOut("No plugins installed.\n");
  for (const row of rows) {
    const short = (sha?: string) => (sha ? sha.slice(0, 12) : "—");
    const detail = row.detail ? ` — ${row.detail}` : "";
    io.writeOut(`${row.id}  installed ${short(row.installed)}  latest ${row.status === "unreachable" || row.status === "not-tracked" ? "?" : short(row.latest)}  ${row.status}${detail}\n`);
  }
  return rows.some((row) => row.status === "outdated") ? 1 : 0;
};
