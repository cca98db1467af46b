/** /exit: leave clew. */
import type { SlashCommand } from "./types.ts";

export const exitCommand: SlashCommand = {
  name: "exit",
  aliases: ["quit"],
  summary: "Leave clew",
  run: (_args, ctx) => ctx.exit(),
};
