/** /cost: this session's tokens and dollars at the model's list price, helper agents included. */
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
        // Helpers' and tools' side requests (WebFetch, WebSearch) are in the cost above; listed per model so a big bill is visible.
        ...Object.entries(ctx.session.helperUsage()).map(
          ([model, used]) => `${ctx.theme.dim("Helpers and tools")} ${model}: ${exactTokens(used.inputTokens + used.cacheReadInputTokens + used.cacheCreationInputTokens)} in, ${exactTokens(used.outputTokens)} out${used.webSearchRequests ? `, ${used.webSearchRequests} web searches` : ""}`,
        ),
      ].join("\n"),
    );
  },
};
