/** /compact [instructions]: summarise history now. */
import type { SlashCommand } from "./types.ts";

export const compactCommand: SlashCommand = {
  name: "compact",
  usage: "[instructions]",
  summary: "Summarise the conversation so far to free context",
  run: (args, ctx) => ctx.compact(args.trim() === "" ? undefined : args.trim()),
};
