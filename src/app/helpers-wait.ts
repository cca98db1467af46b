/**
 * Headless runs (and helpers whose own helpers run in the background) finish a turn only once the
 * helper agents it left running in the background have reported: each report goes to the model as a reminder, and the loop runs again on it, so the
 * helpers' work reaches the answer. The outcomes of those extra rounds add up into the turn's.
 */
import type { Emit, LoopOutcome } from "../loop/events.ts";
import { runLoop, type LoopDeps, type LoopState } from "../loop/loop.ts";
import { addUsage, type MessageParam } from "../model/types.ts";
import { systemNote } from "../util/system-note.ts";
import type { SubagentRunner } from "./subagents/runner.ts";
import type { UsageLedger } from "./usage-ledger.ts";

/** Helper agents of the session: their runner, the notices they left for the main conversation, the usage of all. */
export interface SessionHelpers {
  runner: SubagentRunner;
  notices: string[];
  ledger: UsageLedger;
  /** Headless: finish a turn only once background helpers have reported. */
  waitAtEnd: boolean;
  /** `/agents`: the helper types. */
  listTypes: () => Promise<Array<{ name: string; description: string; origin: string }>>;
}

/** Helpers running in the background, and the reports they left. */
export interface BackgroundReports {
  notices: string[];
  running(): number;
  next(): Promise<unknown>;
}

export async function untilHelpersReport(
  first: LoopOutcome,
  background: BackgroundReports,
  run: { state: LoopState; deps: LoopDeps; emit: Emit; signal: AbortSignal },
  onRound: (outcome: LoopOutcome) => void = () => undefined,
): Promise<LoopOutcome> {
  let outcome = first;
  const { state, deps, emit, signal } = run;
  while (outcome.reason === "completed" && !signal.aborted && (background.running() > 0 || background.notices.length > 0)) {
    if (background.notices.length === 0) await background.next();
    const notices = background.notices.splice(0);
    if (notices.length === 0) continue;
    const next: MessageParam = { role: "user", content: notices.map((text) => ({ type: "text" as const, text: systemNote(text) })) };
    state.messages.push(next);
    emit({ type: "turn_start", message: next });
    const more = await runLoop(state, deps, emit, signal);
    onRound(more);
    outcome = { ...more, numTurns: outcome.numTurns + more.numTurns, usage: addUsage(outcome.usage, more.usage), apiMs: outcome.apiMs + more.apiMs, denials: [...outcome.denials, ...more.denials] };
  }
  return outcome;
}
