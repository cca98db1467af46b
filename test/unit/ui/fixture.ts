// Builds event sequences for renderer tests and renders them to plain text (theme off, no TTY).
import type { AgentEvent, LoopOutcome } from "../../../src/loop/events.ts";
import type { TokenUsage } from "../../../src/model/types.ts";
import { LiveLine } from "../../../src/ui/live.ts";
import { Renderer } from "../../../src/ui/renderer.ts";
import { BufferTerminal } from "../../../src/ui/terminal.ts";
import { createTheme } from "../../../src/ui/theme.ts";

export const CWD = "/repo";

export function usage(partial: Partial<TokenUsage> = {}): TokenUsage {
  return { inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0, ...partial };
}

export function outcome(partial: Partial<LoopOutcome> = {}): LoopOutcome {
  return { reason: "completed", stopReason: "end_turn", numTurns: 1, finalText: "", usage: usage(), apiMs: 0, denials: [], ...partial };
}

export function assistant(text: string, used: TokenUsage = usage()): AgentEvent {
  return {
    type: "assistant_message",
    message: { id: "msg_1", model: "m", content: [{ type: "text", text, citations: null }], stopReason: "end_turn", usage: used, malformedToolUseIds: [] },
  };
}

export const turnStart: AgentEvent = { type: "turn_start", message: { role: "user", content: [{ type: "text", text: "hi" }] } };

/** Renders events with a clock that advances 1.5 s per event, so the footer's time is fixed. */
export function render(events: AgentEvent[], options: { verbose?: boolean; tty?: boolean; width?: number; after?: (renderer: Renderer) => void } = {}): string {
  const term = new BufferTerminal(options.tty ?? false, options.width ?? 80);
  const theme = createTheme(false);
  let clock = 0;
  const renderer = new Renderer(new LiveLine(term, theme, () => clock), theme, {
    cwd: CWD,
    verbose: options.verbose ?? false,
    now: () => clock,
    costOf: (used) => (used.inputTokens + used.outputTokens) / 1000,
  });
  for (const event of events) {
    renderer.handle(event);
    clock += 1500;
  }
  options.after?.(renderer);
  return term.text;
}
