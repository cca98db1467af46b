/**
 * Mid-session switches of model or effort: what the requests carried before and after, as one
 * sentence for the user and `/status`, and as a transcript record. Each switch makes the next
 * request miss the prompt cache for the conversation once (model, effort and thinking are part
 * of the cache key), by design.
 */
import type { EffortLevel, ThinkingConfig } from "../model/types.ts";
import type { TranscriptWriter } from "../store/transcript.ts";
import { describeThinking } from "./thinking-setup.ts";

export interface RequestSettings {
  model: string;
  effort: EffortLevel | undefined;
  thinking: ThinkingConfig | undefined;
}

export interface SettingsSwitch {
  at: Date;
  /** What made it: `/model sonnet`, `/effort low`. */
  by: string;
  from: RequestSettings;
  to: RequestSettings;
}

export function snapshot(request: { model: string; effort?: EffortLevel; thinking?: ThinkingConfig }): RequestSettings {
  return { model: request.model, effort: request.effort, thinking: request.thinking ? { ...request.thinking } : undefined };
}

function thinkingKey(thinking: ThinkingConfig | undefined): string {
  return thinking === undefined ? "off" : thinking.type === "adaptive" ? "adaptive" : `budget ${thinking.budget_tokens}`;
}

export function changed(a: RequestSettings, b: RequestSettings): boolean {
  return a.model !== b.model || a.effort !== b.effort || thinkingKey(a.thinking) !== thinkingKey(b.thinking);
}

/** "model claude-opus-5-5 → claude-sonnet-5-5, effort medium → high (/model sonnet)". */
export function switchSentence(change: SettingsSwitch): string {
  const { from, to } = change;
  const parts: string[] = [];
  if (from.model !== to.model) parts.push(`model ${from.model} → ${to.model}`);
  if (from.effort !== to.effort) parts.push(`effort ${from.effort ?? "not sent"} → ${to.effort ?? "not sent"}`);
  if (thinkingKey(from.thinking) !== thinkingKey(to.thinking)) parts.push(`thinking ${describeThinking(from.thinking)} → ${describeThinking(to.thinking)}`);
  return `${parts.join(", ")} (${change.by})`;
}

/** The switch as a system record in the conversation chain (skipped when history is rebuilt). */
export function recordSwitch(writer: TranscriptWriter | undefined, change: SettingsSwitch): void {
  writer?.appendChained(
    {
      type: "system",
      subtype: "model_settings_change",
      level: "info",
      content: `Switched ${switchSentence(change)}; the next request rebuilds the prompt cache for the conversation.`,
      previous: change.from,
      model: change.to.model,
      effort: change.to.effort ?? null,
      thinking: change.to.thinking ?? null,
    },
    change.at,
  );
}
