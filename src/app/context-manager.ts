/**
 * Keeps the model's context fresh and within the window, between loop iterations: appends
 * reminders (date, files changed on disk) to the newest user message, and compacts history when
 * the last request's real token usage says the window is filling up.
 */
import { statSync } from "node:fs";
import { compactedHistory, estimateTokens, recentTail, summaryRequest, trimOldToolResults, userPrompts } from "../context/compact.ts";
import { changedFilesLine, dateLine, localDate } from "../context/reminders.ts";
import type { AgentEvent, Emit } from "../loop/events.ts";
import type { LoopDeps, LoopState } from "../loop/loop.ts";
import { normalizeMessages } from "../loop/history.ts";
import type { ContentBlockParam, MessageParam, TokenUsage } from "../model/types.ts";
import type { FileTracker } from "../tools/shared/file-tracker.ts";
import { systemNote } from "../util/system-note.ts";
import type { ZoneEnv } from "../context/utc-offset.ts";
import type { ContextWatcher } from "./nested-skills.ts";

export interface ContextOptions {
  /** Tokens the model's context holds (CLEW_CONTEXT_WINDOW or the model's own). */
  windowTokens: number;
  /** Compact when a request would use more than this share of the window (0–100). */
  compactPercent: number;
  autoCompact: boolean;
  files: FileTracker;
  transcriptPath: () => string | undefined;
  now: () => Date;
  /** TZ/TZDIR as the process received them, for today's date. */
  zone?: ZoneEnv;
  /** What the model's reads into subdirectories bring in: their instruction files, skills and commands. */
  nested?: ContextWatcher;
}

/** Where the context window goes, in (estimated) tokens. */
export interface ContextUsage {
  windowTokens: number;
  systemTokens: number;
  toolsTokens: number;
  messagesTokens: number;
  /** Input of the latest request as the API counted it (input + cache read + cache write). */
  lastRequestTokens: number | undefined;
}

export function contextUsage(windowTokens: number, request: Pick<LoopDeps["request"], "system" | "tools">, messages: readonly MessageParam[], lastRequestTokens: number | undefined): ContextUsage {
  return {
    windowTokens,
    systemTokens: Math.ceil(JSON.stringify(request.system).length / 4),
    toolsTokens: Math.ceil(JSON.stringify(request.tools).length / 4),
    messagesTokens: estimateTokens(messages),
    lastRequestTokens,
  };
}

const KEEP_MESSAGES = 6;
const TRIMMED_RESULT_CHARS = 2_000;

export class ContextManager {
  private lastDate: string | undefined;
  /** Today's date as last read from the zone, and when: read again at most once a minute. */
  private today: { date: string; at: number } | undefined;
  private readonly notified = new Map<string, number>();
  private readonly queued: string[] = [];
  /** Messages that existed when the last request was sent, to estimate what was added since. */
  private sentCount = 0;
  /** The usage figures that were current when history was last compacted (stale afterwards). */
  private usageAtCompaction: TokenUsage | undefined;
  private compactedLastTime = false;

  constructor(
    private readonly options: ContextOptions,
    private readonly model: () => Pick<LoopDeps, "stream" | "request" | "prepare" | "hooks">,
  ) {}

  /** A resumed conversation already told the model today's date: don't repeat it the same day. */
  restoreFrom(messages: readonly MessageParam[]): void {
    for (const message of messages) {
      if (message.role !== "user" || typeof message.content === "string") continue;
      for (const block of message.content) {
        const date = block.type === "text" ? /Today's date is (\d{4}-\d{2}-\d{2})\./.exec(block.text)?.[1] : undefined;
        if (date) this.lastDate = date;
      }
    }
  }

  /** Sees every event of the session (to notice reads into subdirectories). */
  observe(event: AgentEvent): void {
    this.options.nested?.observe(event);
  }

  /** Adds a line to the next reminder (mode changes, nested instruction files, …). */
  queue(text: string): void {
    this.queued.push(text);
  }

  get windowTokens(): number {
    return this.options.windowTokens;
  }

  get thresholdTokens(): number {
    return Math.floor((this.options.windowTokens * this.options.compactPercent) / 100);
  }

  readonly beforeRequest = async (state: LoopState, lastUsage: TokenUsage | undefined, emit: Emit, signal: AbortSignal): Promise<void> => {
    if (this.options.autoCompact) {
      const fresh = lastUsage !== undefined && lastUsage !== this.usageAtCompaction;
      const used = fresh
        ? lastUsage.inputTokens + lastUsage.cacheReadInputTokens + lastUsage.cacheCreationInputTokens + lastUsage.outputTokens +
          estimateTokens(state.messages.slice(this.sentCount))
        : estimateTokens(state.messages);
      if (used >= this.thresholdTokens && this.compactedLastTime) {
        // Compacting again right away would loop forever: what is left does not fit.
        emit({ type: "notice", level: "warning", message: "Context is still nearly full right after compaction; continuing without compacting again." });
        this.compactedLastTime = false;
      } else if (used >= this.thresholdTokens && this.trimmed(state, used, emit)) {
        this.usageAtCompaction = lastUsage;
      } else if (used >= this.thresholdTokens) {
        const result = await this.compact(state, "auto", undefined, used, emit, signal);
        this.compactedLastTime = result.ok;
        this.usageAtCompaction = lastUsage;
      } else {
        this.compactedLastTime = false;
      }
    }
    if (this.options.nested) this.queued.push(...(await this.options.nested.drain()));
    this.appendReminders(state, emit);
    this.sentCount = state.messages.length;
  };

  /** Shortens old tool results when that alone brings the context well under the threshold. */
  private trimmed(state: LoopState, used: number, emit: Emit): boolean {
    const { messages, savedTokens } = trimOldToolResults(state.messages, KEEP_MESSAGES, TRIMMED_RESULT_CHARS);
    if (savedTokens <= 0 || used - savedTokens > this.thresholdTokens * 0.75) return false;
    state.messages.splice(0, state.messages.length, ...messages);
    this.sentCount = 0;
    emit({ type: "notice", level: "info", message: `Context filling up: shortened older tool results (about ${savedTokens} tokens).` });
    return true;
  }

  private appendReminders(state: LoopState, emit: Emit): void {
    const lines: string[] = [];
    const today = this.todayDate();
    if (today !== this.lastDate) {
      lines.push(dateLine(today));
      this.lastDate = today;
    }
    const changed = this.changedFiles();
    if (changed.length > 0) lines.push(changedFilesLine(changed));
    lines.push(...this.queued.splice(0));
    const last = state.messages[state.messages.length - 1];
    if (lines.length === 0 || !last || last.role !== "user") return;
    const text = systemNote(lines);
    const content: ContentBlockParam[] = typeof last.content === "string" ? [{ type: "text", text: last.content }] : last.content;
    state.messages[state.messages.length - 1] = { role: "user", content: [...content, { type: "text", text }] };
    emit({ type: "reminder", text });
  }

  /**
   * The zone file is read and parsed again at most once a minute: before every request it cost
   * a step more than the rest of the reminders (the parser never gets hot in a 30-step session),
   * and a date line a minute late at midnight misleads no one.
   */
  private todayDate(): string {
    const now = this.options.now();
    const at = now.getTime();
    if (!this.today || at < this.today.at || at - this.today.at >= 60_000) this.today = { date: localDate(now, this.options.zone), at };
    return this.today.date;
  }

  private changedFiles(): string[] {
    const changed: string[] = [];
    for (const [path, known] of this.options.files.entries()) {
      let mtimeMs: number;
      let size: number;
      try {
        ({ mtimeMs, size } = statSync(path));
      } catch {
        continue;
      }
      if (mtimeMs === known.mtimeMs && size === known.size) continue;
      if (this.notified.get(path) === mtimeMs) continue;
      this.notified.set(path, mtimeMs);
      changed.push(path);
    }
    return changed;
  }

  /** Summarises older history and keeps the most recent messages verbatim. */
  async compact(
    state: LoopState,
    trigger: "auto" | "manual",
    instructions: string | undefined,
    preTokens: number,
    emit: Emit,
    signal: AbortSignal,
  ): Promise<{ ok: true } | { ok: false; reason: string }> {
    const history = normalizeMessages(state.messages);
    if (history.length < 3) return { ok: false, reason: "Not enough messages to compact." };
    const { stream, request, prepare, hooks } = this.model();
    if (hooks?.hasHooks("PreCompact")) {
      const pre = await hooks.fire("PreCompact", { trigger, custom_instructions: instructions ?? null }, { signal });
      if (pre.block) {
        const reason = `A PreCompact hook blocked compaction${pre.block.reason ? `: ${pre.block.reason}` : "."}`;
        emit({ type: "notice", level: "warning", message: reason });
        return { ok: false, reason };
      }
    }
    emit({ type: "status", status: "compacting" });
    const messages = summaryRequest(history, instructions);
    let summary = "";
    try {
      for await (const event of stream({ ...request, messages: prepare ? prepare(normalizeMessages(messages)) : messages }, signal)) {
        if (event.type === "retry") emit({ ...event, type: "api_retry" });
        if (event.type === "message") {
          summary = event.message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
        }
      }
    } catch (error) {
      emit({ type: "status", status: null });
      const reason = `Compaction failed: ${error instanceof Error ? error.message : String(error)}`;
      emit({ type: "notice", level: "warning", message: reason });
      return { ok: false, reason };
    }
    const tailBudget = Math.floor(this.options.windowTokens * 0.2 * 4);
    const next: MessageParam[] = compactedHistory({
      summary: summary || "(The model returned an empty summary.)",
      carried: (await import("../context/carried-over.ts")).carriedOver(history),
      prompts: userPrompts(history),
      workingSet: this.options.files.paths().slice(-10).reverse(),
      transcriptPath: this.options.transcriptPath(),
      tail: recentTail(history, KEEP_MESSAGES, tailBudget),
    });
    state.messages.splice(0, state.messages.length, ...next);
    this.sentCount = 0;
    // The date lived in a message that is gone now; say it again.
    this.lastDate = undefined;
    emit({ type: "compact_boundary", trigger, preTokens, messages: next });
    emit({ type: "status", status: null });
    if (hooks?.hasHooks("PostCompact")) await hooks.fire("PostCompact", { trigger, compact_summary: summary }, { signal });
    if (hooks?.hasHooks("SessionStart")) {
      // What SessionStart hooks add lived in messages that are gone now: they run again.
      const start = await hooks.fire("SessionStart", { source: "compact", model: request.model }, { signal });
      this.queued.push(...start.additionalContext);
    }
    return { ok: true };
  }
}
