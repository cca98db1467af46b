/**
 * A running session: the conversation, its transcript and the loop wired to its tools.
 * Every event is recorded before any consumer sees it, so the transcript is never behind
 * what the user was shown.
 */
import type { AgentEvent, Emit, LoopOutcome } from "../loop/events.ts";
import { runLoop, type LoopDeps, type LoopState } from "../loop/loop.ts";
import { costUSD } from "../model/models.ts";
import { addUsage, zeroUsage, type ContentBlockParam, type MessageParam, type TokenUsage } from "../model/types.ts";
import type { PermissionMode } from "../permissions/types.ts";
import type { TranscriptWriter } from "../store/transcript.ts";
import type { ToolSession } from "../tools/types.ts";
import { estimateTokens } from "../context/compact.ts";
import type { ContextManager } from "./context-manager.ts";

export interface SessionInfo {
  sessionId: string;
  model: string;
  cwd: string;
  tools: string[];
  permissionMode: PermissionMode;
  transcriptPath: string | undefined;
  apiKeySource: "ANTHROPIC_API_KEY" | "ANTHROPIC_AUTH_TOKEN" | "none";
  version: string;
}

export class Session {
  private readonly state: LoopState;
  private totals: TokenUsage = zeroUsage();

  constructor(
    readonly info: SessionInfo,
    private readonly loopDeps: LoopDeps,
    private readonly toolSession: ToolSession,
    private readonly context: ContextManager,
    messages: MessageParam[],
    private readonly recorder: Emit | undefined,
    private readonly writer: TranscriptWriter | undefined,
  ) {
    this.state = { messages };
  }

  get messages(): readonly MessageParam[] {
    return this.state.messages;
  }

  get usage(): TokenUsage {
    return this.totals;
  }

  get costUSD(): number {
    return costUSD(this.info.model, this.totals);
  }

  async runTurn(prompt: string | ContentBlockParam[], emit: Emit, signal: AbortSignal): Promise<LoopOutcome> {
    const message: MessageParam = {
      role: "user",
      content: typeof prompt === "string" ? [{ type: "text", text: prompt }] : prompt,
    };
    const both = (event: AgentEvent) => {
      this.recorder?.(event);
      this.context.observe(event);
      emit(event);
    };
    this.state.messages.push(message);
    both({ type: "turn_start", message });
    const outcome = await runLoop(this.state, this.loopDeps, both, signal);
    this.totals = addUsage(this.totals, outcome.usage);
    return outcome;
  }

  /** `/compact [instructions]`: summarise history now. */
  async compact(instructions: string | undefined, emit: Emit, signal: AbortSignal): Promise<{ ok: boolean; reason?: string }> {
    const both = (event: AgentEvent) => {
      this.recorder?.(event);
      emit(event);
    };
    const result = await this.context.compact(this.state, "manual", instructions, estimateTokens(this.state.messages), both, signal);
    return result.ok ? { ok: true } : { ok: false, reason: result.reason };
  }

  async close(): Promise<void> {
    await this.toolSession.shells.killAll();
    this.writer?.close();
  }
}
