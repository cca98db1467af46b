/** /status: version, model, effort and thinking (and switches of them), directory, account, endpoint, settings sources, permission mode. */
import { existsSync } from "node:fs";
import { switchSentence } from "../../app/model-switch.ts";
import { describeThinking } from "../../app/thinking-setup.ts";
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
    info.apiKeySource === "ANTHROPIC_AUTH_TOKEN" ? "auth token (ANTHROPIC_AUTH_TOKEN)" : info.apiKeySource === "ANTHROPIC_API_KEY" ? "API key (ANTHROPIC_API_KEY)" : info.apiKeySource === "apiKeyHelper" ? "API key from apiKeyHelper" : "none";
  const lines = [
    ctx.theme.bold("Status"),
    rows([
      ["Version", `${info.version} (clew)`],
      ["Session", info.sessionId],
      ["Model", info.model],
      ...reasoningRows(ctx),
      ["Working directory", info.cwd],
      ["Permission mode", ctx.session.permissionMode],
      ["Account", account],
      ["Base URL", info.baseURL ?? `${DEFAULT_BASE_URL} (default)`],
      ["Transcript", info.transcriptPath ?? "not saved (--no-session-persistence)"],
    ]),
    ctx.theme.bold("Settings files"),
    ...(files.length > 0 ? files.map((file) => `  ${file}`) : ["  (none)"]),
  ];
  const switches = ctx.session.switches;
  if (switches.length > 0) {
    lines.push(ctx.theme.bold("Switched this session"), ...switches.map((change) => `  ${change.at.toTimeString().slice(0, 8)}  ${switchSentence(change)}`));
    lines.push(ctx.theme.dim("  Model, effort and thinking are part of the prompt cache key: after each switch the next request rebuilds the cache for the conversation once."));
  }
  if (settings.problems.length > 0) lines.push(ctx.theme.yellow(`  ${settings.problems.length} settings problem(s); see /doctor`));
  return lines.join("\n");
}

function reasoningRows(ctx: SlashContext): Array<[string, string]> {
  const state = ctx.session.reasoning();
  if (!state) return [];
  return [
    ["Effort", state.effort],
    ["Thinking", describeThinking(state.resolved.thinking)],
  ];
}

export const statusCommand: SlashCommand = {
  name: "status",
  summary: "Version, model, effort, account, settings sources, permission mode",
  run: (_args, ctx) => ctx.print(statusText(ctx)),
};
