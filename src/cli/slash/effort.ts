/** /effort [level|auto|status]: show the effort level, or set it for the rest of the session. */
import { EFFORT_LEVELS, isEffortLevel } from "../../app/thinking-setup.ts";
import type { SlashCommand, SlashContext } from "./types.ts";

const CACHE_NOTE = "the prompt cache for the conversation is rebuilt once";

function show(ctx: SlashContext): void {
  const state = ctx.session.reasoning();
  if (!state) return ctx.print("Effort: not available in this session.");
  ctx.print(`Effort: ${state.effort}`);
  ctx.print(ctx.theme.dim(`Set it for this session with /effort <${EFFORT_LEVELS.join("|")}>, or /effort auto for the model's default.`));
}

export const effortCommand: SlashCommand = {
  name: "effort",
  usage: "[level|auto]",
  summary: `Show or set the effort level for this session (${EFFORT_LEVELS.join(", ")}, auto)`,
  run(args, ctx) {
    const word = args.trim().toLowerCase();
    if (word === "" || word === "status") return show(ctx);
    if (word !== "auto" && !isEffortLevel(word)) {
      return ctx.error(`Unknown effort level '${args.trim()}'. Use one of ${EFFORT_LEVELS.join(", ")}, or auto for the model's default.`);
    }
    const before = ctx.session.reasoning()?.resolved.effort;
    const resolved = ctx.session.setEffort(word);
    if (!resolved) return ctx.error("Effort cannot be changed in this session.");
    for (const note of resolved.notes) ctx.print(ctx.theme.yellow(note));
    if (resolved.effort === before) return ctx.print(`Effort stays ${ctx.session.reasoning()?.effort ?? "as it was"}.`);
    ctx.print(`Effort set to ${resolved.effort ?? "none (not sent)"} for this session ${ctx.theme.dim(`(${CACHE_NOTE})`)}.`);
  },
};
