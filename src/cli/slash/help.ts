/** /help: the commands, input prefixes and keys. */
import type { SlashCommand, SlashContext } from "./types.ts";

function helpText(ctx: SlashContext): string {
  const t = ctx.theme;
  const rows = ctx.commands.map((command) => {
    const name = `/${command.name}${command.usage ? ` ${command.usage}` : ""}`;
    const aliases = command.aliases?.length ? t.dim(` (also /${command.aliases.join(", /")})`) : "";
    return `  ${name.padEnd(28)}${command.summary}${aliases}`;
  });
  const custom = ctx.session.userInvocables().map((item) => {
    const name = `/${item.name}${item.argumentHint ? ` ${item.argumentHint}` : ""}`;
    return `  ${name.padEnd(28)}${item.description.split("\n")[0] ?? ""}`;
  });
  return [
    t.bold("Commands"),
    ...rows,
    ...(custom.length > 0 ? ["", t.bold("Skills and custom commands"), ...custom] : []),
    "",
    t.bold("Input"),
    "  !command                    Run a shell command; its output goes with your next prompt",
    "  @path                       Attach a file (or a directory listing) to the prompt",
    "  #note                       Append a line to AGENTS.md (the project's instructions)",
    "  \\ at the end, Alt+Enter     Continue on a new line; pasted text may span lines",
    "",
    t.bold("Keys"),
    "  Esc, Ctrl+C                 Interrupt the model (the conversation stays valid)",
    "  Ctrl+C twice, Ctrl+D        Exit (at an empty prompt)",
    "  Shift+Tab                   Cycle the permission mode: default → acceptEdits → plan",
    "  Up/Down, Tab                History; complete commands and @paths",
  ].join("\n");
}

export const helpCommand: SlashCommand = {
  name: "help",
  summary: "Show commands, input prefixes and keys",
  run: (_args, ctx) => ctx.print(helpText(ctx)),
};
