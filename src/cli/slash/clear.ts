/** /clear: a new conversation; the old one stays resumable. */
import type { SlashCommand } from "./types.ts";

export const clearCommand: SlashCommand = {
  name: "clear",
  aliases: ["new", "reset"],
  summary: "Start a new conversation (the old one stays resumable)",
  async run(_args, ctx) {
    const previous = ctx.session.info.sessionId;
    if (await ctx.switchSession()) ctx.print(ctx.theme.dim(`New conversation. The previous one can be resumed with /resume or clew -r ${previous}.`));
  },
};
