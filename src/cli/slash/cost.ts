/** /cost: this session's tokens and dollars at the model's list price. */
import { exactTokens, formatCost } from "../../ui/format.ts";
import { rows } from "./status.ts";
import type { SlashCommand } from "./types.ts";

export const costCommand: SlashCommand = {
  name: "cost",
  aliases: ["usage", "stats"],
  summary: "Tokens and cost of this session",
  run(_args, ctx) {
    const { usage, info } = ctx.session;
    ctx.print(
      [
        `${ctx.theme.bold("Session cost")}: ${formatCost(ctx.session.costUSD)} ${ctx.theme.dim(`(list prices for ${info.model})`)}`,
        rows([
          ["Input", `${exactTokens(usage.inputTokens)} tokens`],
          ["Output", `${exactTokens(usage.outputTokens)} tokens`],
          ["Cache read", `${exactTokens(usage.cacheReadInputTokens)} tokens`],
          ["Cache write", `${exactTokens(usage.cacheCreationInputTokens)} tokens`],
        ]),
      ].join("\n"),
    );
  },
};
