/** /context: what occupies the context window. */
import { compactTokens } from "../../ui/format.ts";
import { rows } from "./status.ts";
import type { SlashCommand } from "./types.ts";

const BAR = 40;

export const contextCommand: SlashCommand = {
  name: "context",
  summary: "Show what occupies the context window",
  run(_args, ctx) {
    const usage = ctx.session.contextUsage();
    const used = usage.systemTokens + usage.toolsTokens + usage.messagesTokens;
    const window = Math.max(1, usage.windowTokens);
    const percent = Math.min(100, Math.round((used / window) * 100));
    const filled = Math.min(BAR, Math.round((used / window) * BAR));
    const t = ctx.theme;
    const part = (tokens: number): number => Math.round((tokens / Math.max(1, used)) * filled);
    const bar =
      t.magenta("█".repeat(part(usage.systemTokens))) +
      t.cyan("█".repeat(part(usage.toolsTokens))) +
      t.green("█".repeat(Math.max(0, filled - part(usage.systemTokens) - part(usage.toolsTokens)))) +
      t.dim("░".repeat(BAR - filled));
    const entries: Array<[string, string]> = [
      ["System prompt", `${compactTokens(usage.systemTokens)} tokens`],
      ["Tools", `${compactTokens(usage.toolsTokens)} tokens`],
      ["Messages", `${compactTokens(usage.messagesTokens)} tokens (${ctx.session.messages.length} messages)`],
      ["Free", `${compactTokens(Math.max(0, window - used))} tokens`],
    ];
    if (usage.lastRequestTokens !== undefined) entries.push(["Last request", `${compactTokens(usage.lastRequestTokens)} tokens (as the API counted them)`]);
    ctx.print(
      [
        `${t.bold("Context")}: ~${compactTokens(used)} of ${compactTokens(window)} tokens (${percent}%) ${t.dim("estimated")}`,
        `  ${bar}`,
        rows(entries),
        ...ctx.session.info.instructionFiles.map((file, i) => `${i === 0 ? "  Instruction files: " : "                     "}${file}`),
      ].join("\n"),
    );
  },
};
