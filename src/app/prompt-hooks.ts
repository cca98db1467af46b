/**
 * UserPromptSubmit around a prompt the user typed: a hook may block it (it is never sent; the
 * reason is for the user) or add context, which travels with the prompt as reminders — after the
 * cached prefix, like every other change mid-session.
 */
import type { HookEngine } from "../hooks/engine.ts";
import type { Emit } from "../loop/events.ts";
import type { ContentBlockParam } from "../model/types.ts";
import { systemNote } from "../util/system-note.ts";

export type PromptVerdict = { kind: "send"; blocks: ContentBlockParam[] } | { kind: "blocked"; reason: string } | { kind: "stopped"; reason: string };

function promptText(blocks: readonly ContentBlockParam[]): string {
  return blocks.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
}

export async function submitPrompt(hooks: HookEngine | undefined, blocks: ContentBlockParam[], emit: Emit, signal: AbortSignal): Promise<PromptVerdict> {
  if (!hooks?.hasHooks("UserPromptSubmit")) return { kind: "send", blocks };
  const outcome = await hooks.fire("UserPromptSubmit", { prompt: promptText(blocks) }, { signal });
  for (const message of [...outcome.systemMessages, ...outcome.errors]) emit({ type: "notice", level: "warning", message });
  if (outcome.block) {
    const reason = outcome.block.reason || "a UserPromptSubmit hook blocked the prompt";
    return { kind: "blocked", reason: `Prompt blocked by a UserPromptSubmit hook: ${reason}` };
  }
  if (outcome.stop) return { kind: "stopped", reason: outcome.stop.reason };
  const context = outcome.additionalContext.map((text): ContentBlockParam => ({ type: "text", text: systemNote(text) }));
  return { kind: "send", blocks: [...blocks, ...context] };
}
