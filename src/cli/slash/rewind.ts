/**
 * `/rewind [N]` (and Esc Esc on an empty prompt): the session's prompts with what each turn
 * changed in the files, then what to put back — code and conversation, one of them, or a summary
 * of everything from that prompt on. Files changed by hand since are found first and the user
 * decides whether they go back too; a file created by hand is never deleted.
 */
import type { RewindPoint, RewindScope } from "../../app/session-rewind.ts";
import type { Choice } from "../../ui/ask.ts";
import type { SlashCommand, SlashContext } from "./types.ts";

/** What the REPL adds for this command beyond every command's context. */
export interface RewindContext {
  /** Summarises the conversation from prompt `prompt` on, with the live line shown. */
  summariseFrom?(prompt: number, instructions: string | undefined): Promise<void>;
  /** Puts text in the input box for the next prompt. */
  prefillPrompt?(text: string): void;
}

type Action = RewindScope | "summarise" | "cancel";

function oneLine(text: string, width: number): string {
  const first = text.replace(/\s+/g, " ").trim();
  return first.length > width ? `${first.slice(0, width - 1)}…` : first;
}

function changeHint(point: RewindPoint): string {
  const { files, added, removed } = point.changes;
  if (files === 0) return "no file changes";
  return `${files} file${files === 1 ? "" : "s"} +${added} −${removed}`;
}

async function pickPoint(points: RewindPoint[], args: string, ctx: SlashContext): Promise<RewindPoint | undefined> {
  const wanted = args.trim();
  if (wanted !== "") {
    const point = points.find((item) => String(item.prompt) === wanted);
    if (!point) ctx.error(`No checkpoint for prompt ${wanted}; this session has ${points.map((item) => item.prompt).join(", ")}.`);
    return point;
  }
  const choices: Choice<string>[] = [...points].reverse().map((point) => ({ value: String(point.prompt), label: `${point.prompt}. ${oneLine(point.text, 60) || "(no text)"}`, hint: changeHint(point) }));
  choices.push({ value: "cancel", label: "Never mind" });
  const picked = await ctx.choose("Rewind to just before which prompt? (what each turn changed is on the right)", choices);
  return points.find((point) => String(point.prompt) === picked);
}

async function pickAction(point: RewindPoint, ctx: SlashContext & RewindContext): Promise<Action | undefined> {
  const choices: Choice<Action>[] = [];
  if (point.conversation) choices.push({ value: "both", label: "Restore code and conversation" }, { value: "conversation", label: "Restore conversation only", hint: "the files stay as they are" });
  choices.push({ value: "code", label: "Restore code only", hint: "the conversation stays as it is" });
  if (ctx.summariseFrom) choices.push({ value: "summarise", label: "Summarise from here", hint: "this prompt and everything after it become a summary" });
  choices.push({ value: "cancel", label: "Never mind" });
  return ctx.choose(`Prompt ${point.prompt}: ${oneLine(point.text, 60)}`, choices);
}

async function run(args: string, ctx: SlashContext & RewindContext): Promise<void> {
  const off = ctx.session.checkpointsOff;
  if (off) return ctx.error(`Checkpoints are off: ${off}.`);
  const points = await ctx.session.rewindPoints();
  if (points.length === 0) return ctx.print(ctx.theme.dim("Nothing to rewind to yet: a checkpoint is taken before each prompt."));
  const point = await pickPoint(points, args, ctx);
  if (!point) return;
  const action = await pickAction(point, ctx);
  if (!action || action === "cancel") return;
  if (action === "summarise") return ctx.summariseFrom?.(point.prompt, undefined);
  let overwriteHandEdits = false;
  if (action !== "conversation") {
    const preview = await ctx.session.rewind(point.prompt, action, { dryRun: true });
    const kept = preview.files?.kept ?? [];
    if (kept.length > 0) {
      ctx.print(ctx.theme.yellow(`Changed by hand since prompt ${point.prompt}: ${kept.join(", ")}`));
      const answer = await ctx.choose("Those changes are yours, not the agent's. Restore them too?", [
        { value: "keep", label: "No, keep my changes as they are" },
        { value: "restore", label: "Yes, put those files back too (my changes to them are lost; files I created stay)" },
        { value: "cancel", label: "Never mind" },
      ]);
      if (!answer || answer === "cancel") return;
      overwriteHandEdits = answer === "restore";
    }
  }
  const { describeRewind } = await import("../../app/session-rewind.ts");
  const outcome = await ctx.session.rewind(point.prompt, action, { overwriteHandEdits });
  for (const line of describeRewind(outcome)) ctx.print(ctx.theme.dim(line));
  if (action === "code") ctx.print(ctx.theme.dim("The conversation is as it was; the model is told the files went back."));
  if (outcome.messages !== undefined && outcome.text !== "") ctx.prefillPrompt?.(outcome.text);
}

export const rewindCommand: SlashCommand = {
  name: "rewind",
  usage: "[N]",
  summary: "Go back to before an earlier prompt: code, conversation or both (Esc Esc)",
  run: (args, ctx) => run(args, ctx),
};
