/** /status: version, model, directory, account, endpoint, settings sources, permission mode. */
import { existsSync } from "node:fs";
import type { SlashCommand, SlashContext } from "./types.ts";

const DEFAULT_BASE_URL = "https://api.anthropic.com";

export function rows(entries: Array<[string, string]>): string {
  const width = Math.max(...entries.map(([label]) => label.length)) + 2;
  return entries.map(([label, value]) => `  ${`${label}:`.padEnd(width)}${value}`).join("\n");
}

function statusText(ctx: SlashContext): string {
  const { info, settings } = ctx.session;
  const files = settings.files.filter((file) => existsSync(file));
  const account =
    info.apiKeySource === "ANTHROPIC_AUTH_TOKEN" ? "auth token (ANTHROPIC_AUTH_TOKEN)" : info.apiKeySource === "ANTHROPIC_API_KEY" ? "API key (ANTHROPIC_API_KEY)" : "none";
  const lines = [
    ctx.theme.bold("Status"),
    rows([
      ["Version", `${info.version} (clew)`],
      ["Session", info.sessionId],
      ["Model", info.model],
      ["Working directory", info.cwd],
      ["Permission mode", ctx.session.permissionMode],
      ["Account", account],
      ["Base URL", info.baseURL ?? `${DEFAULT_BASE_URL} (default)`],
      ["Transcript", info.transcriptPath ?? "not saved (--no-session-persistence)"],
    ]),
    ctx.theme.bold("Settings files"),
    ...(files.length > 0 ? files.map((file) => `  ${file}`) : ["  (none)"]),
  ];
  if (settings.problems.length > 0) lines.push(ctx.theme.yellow(`  ${settings.problems.length} settings problem(s); see /doctor`));
  return lines.join("\n");
}

export const statusCommand: SlashCommand = {
  name: "status",
  summary: "Version, model, account, settings sources, permission mode",
  run: (_args, ctx) => ctx.print(statusText(ctx)),
};
