/** /model [name]: show or switch the model for the rest of the session. */
import type { SlashCommand } from "./types.ts";

const ALIASES = [
  { value: "opus", label: "opus", hint: "most capable" },
  { value: "sonnet", label: "sonnet", hint: "fast and capable" },
  { value: "haiku", label: "haiku", hint: "fastest" },
  { value: "fable", label: "fable" },
];

export const modelCommand: SlashCommand = {
  name: "model",
  usage: "[name]",
  summary: "Show or switch the model (an id or opus, sonnet, haiku, fable)",
  async run(args, ctx) {
    let name = args.trim();
    if (name === "") {
      ctx.print(`Model: ${ctx.session.info.model}`);
      if (!ctx.interactive) {
        ctx.print(ctx.theme.dim("Switch with /model <name>: an id or opus, sonnet, haiku, fable."));
        return;
      }
      name = (await ctx.choose("Switch to", ALIASES)) ?? "";
      if (name === "") return;
    }
    const { model, notes, refused } = ctx.session.setModel(name);
    if (refused) {
      ctx.print(ctx.theme.red(refused));
      return;
    }
    for (const note of notes) ctx.print(ctx.theme.yellow(note));
    ctx.print(`Model set to ${model} for this session ${ctx.theme.dim("(the prompt cache starts cold)")}.`);
    const effort = ctx.session.reasoning()?.effort;
    if (effort) ctx.print(ctx.theme.dim(`Effort: ${effort}`));
  },
};
