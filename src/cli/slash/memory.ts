/** /memory: the instruction files in use; opens one in $EDITOR when set. */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { SlashCommand, SlashContext } from "./types.ts";

function candidates(ctx: SlashContext): string[] {
  const files = [...ctx.session.info.instructionFiles];
  const project = join(ctx.session.info.cwd, "AGENTS.md");
  const claude = join(ctx.session.info.cwd, "CLAUDE.md");
  const notes = existsSync(project) || !existsSync(claude) ? project : claude;
  if (!files.includes(notes)) files.push(notes);
  return files;
}

export const memoryCommand: SlashCommand = {
  name: "memory",
  usage: "[file]",
  summary: "List the instruction files in use; edit one in $EDITOR",
  async run(args, ctx) {
    const files = candidates(ctx);
    const editor = ctx.env.childEnv.VISUAL ?? ctx.env.childEnv.EDITOR;
    let target = args.trim();
    if (target === "") {
      const t = ctx.theme;
      ctx.print(
        [
          t.bold("Instruction files"),
          ...files.map((file) => `  ${file}${existsSync(file) ? "" : t.dim(" (not created yet; #note adds to it)")}`),
          t.dim("Changes apply from the next session (they are part of the cached system prompt)."),
        ].join("\n"),
      );
      if (!editor) {
        ctx.print(ctx.theme.dim("Set $EDITOR (or $VISUAL) to edit them from here with /memory <file>."));
        return;
      }
      if (!ctx.interactive) return;
      target = (await ctx.choose("Edit which file?", files.map((file) => ({ value: file, label: file })))) ?? "";
      if (target === "") return;
    }
    if (!editor) {
      ctx.error("Set $EDITOR (or $VISUAL) to edit files from clew.");
      return;
    }
    const code = await ctx.openEditor(target);
    if (code !== 0) ctx.error(`${editor} exited with ${code ?? "an error"}.`);
  },
};
