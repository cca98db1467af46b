/** /resume [id]: pick a past session of this project and continue it. */
import { listProjectSessions } from "../../app/resume.ts";
import { clip } from "../../ui/terminal.ts";
import { relativeTime } from "../../ui/format.ts";
import type { SlashCommand } from "./types.ts";

const SHOWN = 30;

export const resumeCommand: SlashCommand = {
  name: "resume",
  aliases: ["continue"],
  usage: "[session id]",
  summary: "Resume a past conversation of this project",
  async run(args, ctx) {
    let id = args.trim();
    if (id === "") {
      const current = ctx.session.info.sessionId;
      const sessions = listProjectSessions(ctx.env).filter((summary) => summary.sessionId !== current && summary.firstPrompt !== "");
      if (sessions.length === 0) {
        ctx.print("No other conversations in this project yet.");
        return;
      }
      const now = Date.now();
      const choices = sessions.slice(0, SHOWN).map((summary) => ({
        value: summary.sessionId,
        label: summary.title ? `${clip(summary.title, 30)} — ${clip(summary.firstPrompt, 40)}` : clip(summary.firstPrompt, 70),
        hint: `${relativeTime(summary.modifiedMs, now)} · ${summary.sessionId.slice(0, 8)}`,
      }));
      id = (await ctx.choose("Resume which conversation?", choices)) ?? "";
      if (id === "") return;
    }
    await ctx.switchSession({ kind: "id", id });
  },
};
