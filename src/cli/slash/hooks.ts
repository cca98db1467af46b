/** /hooks: every configured hook — event, matcher, type, command, source file — and why any does not run. */
import type { SlashCommand } from "./types.ts";

export const hooksCommand: SlashCommand = {
  name: "hooks",
  summary: "List the configured hooks and their source files",
  async run(_args, ctx) {
    const lines = await ctx.session.hookListing(ctx.env.homeDir);
    ctx.print([ctx.theme.bold("Hooks"), ...lines.map((line) => `  ${line}`)].join("\n"));
  },
};
