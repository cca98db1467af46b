/** /skills: the skills and custom commands loaded, where each comes from, and what could not be loaded. */
import type { SlashCommand } from "./types.ts";

export const skillsCommand: SlashCommand = {
  name: "skills",
  summary: "List skills and custom commands, and loading problems",
  async run(_args, ctx) {
    const lines = await ctx.session.extensionListing(ctx.env.homeDir);
    ctx.print([ctx.theme.bold("Skills and commands"), ...lines.map((line) => (line === "" ? "" : `  ${line}`))].join("\n"));
  },
};
