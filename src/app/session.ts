/**
 * A running session: the conversation, its transcript and the loop wired to its tools, plus
 * what the interactive UI may change mid-session (mode, model, rules). Every event is recorded
 * before any consumer sees it, so the transcript is never behind what the user was shown.
 */
import { estimateTokens } from "../context/compact.ts";
import type { AgentEvent, Emit, LoopOutcome } from "../loop/events.ts";
import { runLoop, type LoopState } from "../loop/loop.ts";
import { modelAllowed } from "../model/allowlist.ts";
import { costUSD, modelForMode, modelInfo, OPUS_PLAN } from "../model/models.ts";
import { addUsage, zeroUsage, type ContentBlockParam, type EffortLevel, type MessageParam, type TokenUsage } from "../model/types.ts";
import { withoutThinking } from "../loop/history.ts";
import type { PermissionMode } from "../permissions/types.ts";
import { addLocalAllowRule } from "../settings/local-writer.ts";
import type { LoadedSettings } from "../settings/types.ts";
import { writesFlushed } from "../util/atomic-write.ts";
import { extensionLines, hookLines, typedInvocables } from "./diagnostics.ts";
import { contextUsage, type ContextUsage } from "./context-manager.ts";
import { submitPrompt } from "./prompt-hooks.ts";
import { expandSlash } from "./slash-expansion.ts";
import type { McpServerState } from "../mcp/types.ts";
import { changed, recordSwitch, snapshot, type SettingsSwitch } from "./model-switch.ts";
import { applyReasoning, type ResolvedReasoning } from "./thinking-setup.ts";
import { PromptCheckpoint } from "./turn-snapshot.ts";
import type { RewindOptions, RewindOutcome, RewindPoint, RewindScope } from "./session-rewind.ts";

import type { SessionInfo, SessionServices } from "./session-types.ts";

export type { SessionInfo, SessionServices };

export class Session {
  private readonly state: LoopState;
  private totals: TokenUsage = zeroUsage();
  private lastRequestTokens: number | undefined;
  private readonly settingsSwitches: SettingsSwitch[] = [];
  /** Each checkpointed prompt's message as sent, to find it again for a rewind. */
  private readonly promptMessages = new Map<number, MessageParam>();

  /** The model as the user named it (`opusplan` follows the permission mode). */
  private modelChoice: string | undefined;

  constructor(
    readonly info: SessionInfo,
    private readonly services: SessionServices,
    messages: MessageParam[],
  ) {
    this.state = { messages };
    this.modelChoice = services.modelChoice;
    this.followPlanMode();
  }

  get messages(): readonly MessageParam[] {
    return this.state.messages;
  }

  get usage(): TokenUsage {
    return this.totals;
  }

  /** Dollars spent so far, helper agents included. */
  get costUSD(): number {
    return this.services.helpers?.ledger.costUSD() ?? costUSD(this.info.model, this.totals);
  }

  /** Usage of helper agents per model (also inside `costUSD`). */
  helperUsage(): Record<string, TokenUsage> {
    return this.services.helpers?.ledger.helpers() ?? {};
  }

  /** Dollars for some usage at this session's model's list price (the UI's per-turn footer). */
  costFor(usage: TokenUsage): number {
    return costUSD(this.info.model, usage);
  }

  get settings(): LoadedSettings {
    return this.services.settings;
  }

  get permissionMode(): PermissionMode {
    return this.services.permissions.state.mode;
  }

  /** Shift+Tab / `/permissions`: takes effect from the next tool call; the model is told. */
  setPermissionMode(mode: PermissionMode): void {
    if (mode === this.permissionMode) return;
    this.services.permissions.state.mode = mode;
    this.info.permissionMode = mode;
    this.services.context.queue(`The user switched the permission mode to ${mode}.`);
    this.followPlanMode();
  }

  /** `opusplan`: Opus while in plan mode, Sonnet otherwise (when availableModels allows it). */
  private followPlanMode(): void {
    if (this.modelChoice?.toLowerCase() !== OPUS_PLAN) return;
    const model = modelForMode(OPUS_PLAN, this.permissionMode, this.services.aliasOverrides);
    if (model === this.info.model || !modelAllowed(model, this.services.settings.settings.availableModels, this.services.aliasOverrides)) return;
    this.switchModel(model, `opusplan (${this.permissionMode} mode)`);
  }

  /**
   * `/model`: the next request uses the new model, with thinking and effort fitted to it (its
   * prompt cache starts cold). Thinking blocks of the old model are dropped from history: they
   * are signed for the model that wrote them. `notes` say what differs from what was asked.
   */
  setModel(nameOrAlias: string): { model: string; notes: string[]; refused?: string } {
    const model = modelForMode(nameOrAlias, this.permissionMode, this.services.aliasOverrides);
    const allowed = this.services.settings.settings.availableModels;
    if (!modelAllowed(model, allowed, this.services.aliasOverrides)) {
      return { model: this.info.model, notes: [], refused: `${nameOrAlias} is not in availableModels (${(allowed ?? []).join(", ")}); the model stays ${this.info.model}.` };
    }
    this.modelChoice = nameOrAlias;
    return { model, notes: this.switchModel(model, `/model ${nameOrAlias}`) };
  }

  /** The next request uses `model`; returns what differs from what was asked (thinking, effort). */
  private switchModel(model: string, by: string): string[] {
    const request = this.services.loopDeps.request;
    const before = snapshot(request);
    request.model = model;
    request.maxTokens = Math.min(request.maxTokens, modelInfo(model).maxOutputTokens);
    this.info.model = model;
    const notes = this.services.reasoning ? applyReasoning(request, this.services.reasoning).notes : [];
    if (before.model !== model) this.state.messages.splice(0, this.state.messages.length, ...withoutThinking(this.state.messages));
    this.noteSwitch(before, by);
    return notes;
  }

  /** `/effort <level>` or `/effort auto`: from the next request on, for the rest of the session. */
  setEffort(level: EffortLevel | "auto"): ResolvedReasoning | undefined {
    const { reasoning, loopDeps } = this.services;
    if (!reasoning) return undefined;
    const before = snapshot(loopDeps.request);
    reasoning.setEffort(level);
    const resolved = applyReasoning(loopDeps.request, reasoning);
    this.noteSwitch(before, `/effort ${level}`);
    return resolved;
  }

  /** Thinking and effort in force for the current model, for `/effort` and `/status`. */
  reasoning(): { resolved: ResolvedReasoning; effort: string } | undefined {
    const { reasoning, loopDeps } = this.services;
    if (!reasoning) return undefined;
    const resolved = reasoning.resolve(loopDeps.request.model, loopDeps.request.maxTokens);
    return { resolved, effort: reasoning.describeEffort(resolved) };
  }

  /** Switches of model or effort made in this session, oldest first (each cost one cold cache). */
  get switches(): readonly SettingsSwitch[] {
    return this.settingsSwitches;
  }

  private noteSwitch(before: ReturnType<typeof snapshot>, by: string): void {
    const after = snapshot(this.services.loopDeps.request);
    if (!changed(before, after)) return;
    const change: SettingsSwitch = { at: this.services.now?.() ?? new Date(), by, from: before, to: after };
    this.settingsSwitches.push(change);
    recordSwitch(this.services.writer, change);
  }

  /** Allows a rule for the rest of the session and, with `persist`, in .clew/settings.local.json. */
  allowRule(rule: string, persist: boolean): { file?: string } {
    this.services.permissions.gate.grant([rule]);
    if (!persist) return {};
    return { file: addLocalAllowRule(this.info.cwd, rule).file };
  }

  /** Interactive sessions build the extension registry right away, in the background, for Tab. */
  warmExtensions(): void {
    void this.services.invocations?.registry.get();
  }

  /** Skills and commands the user can type (`/name`), for completion and `/help`. */
  userInvocables(): Array<{ name: string; description: string; argumentHint?: string }> {
    return typedInvocables(this.services.invocations?.registry);
  }

  /**
   * `clew -p`'s unknown-command check: whether `/word` names a skill or command (one the user may
   * not type counts too: expanding it says why), and the names the user may type. Builds the registry.
   */
  async lookUpCommand(word: string): Promise<{ known: boolean; names: string[] }> {
    const registry = await this.services.invocations?.registry.get();
    if (!registry) return { known: false, names: [] };
    return { known: registry.findInvocable(word) !== undefined, names: registry.invocables.filter((item) => item.userInvocable).map((item) => item.name) };
  }

  /** Notification hooks: a question waits for the user (`permission_prompt`), or the prompt sits idle. */
  async notify(message: string, type: "permission_prompt" | "idle_prompt"): Promise<void> {
    const hooks = this.services.hooks;
    if (!hooks?.hasHooks("Notification")) return;
    // It may change files: like the loop's hooks, it waits until the snapshots have read them.
    await this.services.checkpoints?.settled();
    await hooks.fire("Notification", { message, notification_type: type });
  }

  /** `/skills` and `/doctor`: skills and commands with where they come from, then every loading problem. */
  async extensionListing(homeDir: string): Promise<string[]> {
    return extensionLines(await this.services.invocations?.registry.get(), homeDir, this.services.skillListingBudget);
  }

  /** `/hooks` and `/doctor`: every configured hook with its source file, and why one does not run. */
  async hookListing(homeDir: string): Promise<string[]> {
    return hookLines(this.services.hooks?.config, homeDir);
  }

  /**
   * `/add-dir`: the tools (sandboxed Bash too) may read and write in `absPath` from now on; checkpoints cover it
   * from the next prompt, and the model hears of it in the next request's reminder (the system
   * prompt stays as it was, so its cache holds). False when it was a working directory already.
   */
  addWorkingDir(absPath: string): boolean {
    if (!this.services.permissions.addWorkingDir(absPath)) return false;
    this.services.toolSession.sandbox?.addWorkingDir(absPath);
    this.services.context.queue(`The user added ${absPath} as a working directory: files there may be read and edited like the project's.`);
    return true;
  }

  /** Whether a Read deny rule covers a file (absolute path): for what the user attaches with `@`. */
  readDenied(absPath: string): boolean {
    return this.services.permissions.readDenied(absPath);
  }

  sessionGrants(): string[] {
    return this.services.permissions.gate.sessionGrants();
  }

  contextUsage(): ContextUsage {
    return contextUsage(this.services.context.windowTokens, this.services.loopDeps.request, this.state.messages, this.lastRequestTokens);
  }

  /** `options.messageId`: the host's id for this user message (stream-json `uuid`), which `rewindFiles` accepts too. */
  async runTurn(prompt: string | ContentBlockParam[], emit: Emit, signal: AbortSignal, options: { messageId?: string } = {}): Promise<LoopOutcome> {
    const both = this.emitter(emit);
    const { hookSink } = this.services;
    const idle = hookSink?.emit;
    if (hookSink) hookSink.emit = both;
    let checkpoint: PromptCheckpoint | undefined;
    try {
      // A skill's allowed-tools last until the user's next message.
      this.services.permissions.gate.endTurn();
      this.services.newTurn?.();
      this.services.mcp?.beforeTurn();
      const typed: ContentBlockParam[] = typeof prompt === "string" ? [{ type: "text", text: prompt }] : prompt;
      // The snapshot runs while the prompt is prepared and the first request is out, and is awaited
      // before anything may change a file: a command's `!` lines and UserPromptSubmit hooks (then up
      // front), the first tool call and Stop hooks (then in the loop). The first request never waits.
      // The previous turn's end is recorded first (the port waits for it: PromptCheckpoint.finish tracks it).
      await this.services.checkpoints?.settled();
      checkpoint = new PromptCheckpoint(this.services.checkpoints);
      const slash = typed[0]?.type === "text" && typed[0].text.trimStart().startsWith("/");
      if (checkpoint.active && slash) void this.services.invocations?.registry.get();
      const manager = this.services.mcp?.session.manager;
      // Only a prompt that could name an MCP prompt or resource loads the code that expands them.
      const first = typed[0];
      const mayMention = first?.type === "text" && (first.text.includes("@") || first.text.trimStart().startsWith("/mcp__"));
      const mentions = manager && mayMention && (await (await import("./mcp-mentions.ts")).expandMcp(typed, manager, signal));
      if (slash || this.services.hooks?.hasHooks("UserPromptSubmit")) await checkpoint.ready();
      const expansion = mentions || (await expandSlash(typed, this.services.invocations, signal));
      const verdict = expansion.kind === "refused" ? { kind: "blocked" as const, reason: expansion.reason } : await submitPrompt(this.services.hooks, expansion.blocks, both, signal);
      if (verdict.kind !== "send") {
        await checkpoint.discard();
        const outcome: LoopOutcome = { reason: verdict.kind === "blocked" ? "prompt_blocked" : "hook_stopped", stopReason: null, numTurns: 0, finalText: verdict.reason, usage: zeroUsage(), apiMs: 0, denials: [] };
        both({ type: "notice", level: "warning", message: verdict.reason });
        both({ type: "turn_end", outcome });
        return outcome;
      }
      const message: MessageParam = { role: "user", content: verdict.blocks };
      const leaf = this.services.writer?.leafUuid;
      this.state.messages.push(message);
      both({ type: "turn_start", message });
      const writer = this.services.writer;
      const place = writer ? { leaf: leaf ?? null, uuid: writer.leafUuid ?? undefined } : {};
      checkpoint.record(async (number) => {
        this.promptMessages.set(number, message);
        const { promptText } = await import("./session-rewind.ts");
        await this.services.checkpoints?.describe(number, { text: promptText(typed), ...place, ...(options.messageId ? { messageId: options.messageId } : {}) });
      });
      const loopDeps = checkpoint.deps(this.services.loopDeps);
      const helpers = this.services.helpers;
      const stopHelpers = () => helpers?.runner.stopAll();
      signal.addEventListener("abort", stopHelpers, { once: true });
      try {
        const outcome = await runLoop(this.state, loopDeps, both, signal);
        const counted = (round: LoopOutcome) => (this.totals = addUsage(this.totals, round.usage));
        counted(outcome);
        if (!helpers?.waitAtEnd) return outcome;
        // Headless: background helpers report before the run ends, so their work reaches the answer.
        const { untilHelpersReport } = await import("./helpers-wait.ts");
        const background = { notices: helpers.notices, running: () => helpers.runner.runningInBackground, next: () => helpers.runner.nextBackgroundCompletion() };
        return await untilHelpersReport(outcome, background, { state: this.state, deps: loopDeps, emit: both, signal }, counted);
      } finally {
        signal.removeEventListener("abort", stopHelpers);
        const background = this.services.afterFirstTurn;
        this.services.afterFirstTurn = undefined;
        background?.();
      }
    } finally {
      if (hookSink) hookSink.emit = idle;
      // Recorded behind the prompt's back (keys typed meanwhile are not lost): the next turn, a
      // rewind and close() wait for it through the port.
      if (checkpoint) void checkpoint.finish();
    }
  }

  /** Why this session keeps no checkpoints (turned off, or one failed), or undefined while it does. */
  get checkpointsOff(): string | undefined {
    const port = this.services.checkpoints;
    return port ? port.failure : "fileCheckpointingEnabled is false in the settings";
  }

  /** `/rewind` and `--rewind-to`: the prompts the session can go back to, with what each turn changed. */
  async rewindPoints(): Promise<RewindPoint[]> {
    const port = this.services.checkpoints;
    await port?.settled();
    if (!port || port.failure !== undefined) return [];
    return (await import("./session-rewind.ts")).rewindPoints(await port.load());
  }

  /**
   * Goes back to just before a prompt — `target` is its number (from 1) or the transcript uuid of
   * its user message — restoring the files, the conversation or both (see session-rewind.ts).
   * Call it between turns. With `dryRun` nothing changes and the outcome says what would.
   */
  async rewind(target: number | string, scope: RewindScope, options: RewindOptions = {}): Promise<RewindOutcome> {
    await this.services.checkpoints?.settled();
    const { rewindSession, liveRewindHost } = await import("./session-rewind.ts");
    const outcome = await rewindSession(liveRewindHost(this.services, this.info, this.state.messages, this.promptMessages), target, scope, options);
    if (outcome.messages !== undefined && !outcome.dryRun) this.services.context.restoreFrom(this.state.messages);
    return outcome;
  }

  /** The SDK's `rewind_files {user_message_id, dry_run}`: the files only, the conversation untouched. */
  rewindFiles(target: number | string, options: { dryRun?: boolean } = {}): Promise<RewindOutcome> {
    return this.rewind(target, "code", options);
  }

  /** `/rewind` → summarise from here: the prompt's turn and everything after it become a summary; what came before stays as it is. */
  async summariseFrom(prompt: number, instructions: string | undefined, emit: Emit, signal: AbortSignal): Promise<{ ok: boolean; reason?: string }> {
    const { summariseFrom } = await import("./session-rewind.ts");
    return summariseFrom({ state: this.state, promptMessages: this.promptMessages, services: this.services }, prompt, instructions, this.emitter(emit), signal);
  }

  /** `/agents`: the helper types the Agent tool can start, with where each is defined. */
  async agentTypes(): Promise<Array<{ name: string; description: string; origin: string }>> {
    return (await this.services.helpers?.listTypes()) ?? [];
  }

  /** `/agents`: worktrees helpers left with work on their branches. */
  async helperWorktrees(): Promise<Array<{ path: string; branch: string }>> {
    const [{ listHelperWorktrees }, { findRepoRoot }] = await Promise.all([import("./subagents/worktree-list.ts"), import("../context/instructions.ts")]);
    return listHelperWorktrees(findRepoRoot(this.info.cwd) ?? this.info.cwd);
  }

  /** `/mcp` and stream-json: every configured server with its state. */
  mcpStates(): McpServerState[] {
    return this.services.mcp?.session.states() ?? [];
  }

  /** `/compact [instructions]`: summarise history now. */
  async compact(instructions: string | undefined, emit: Emit, signal: AbortSignal): Promise<{ ok: boolean; reason?: string }> {
    const result = await this.services.context.compact(this.state, "manual", instructions, estimateTokens(this.state.messages), this.emitter(emit), signal);
    return result.ok ? { ok: true } : { ok: false, reason: result.reason };
  }

  async close(reason: "prompt_input_exit" | "clear" | "resume" | "other" = "other"): Promise<void> {
    const { hooks } = this.services;
    await this.services.checkpoints?.settled();
    if (hooks) {
      if (hooks.hasHooks("SessionEnd")) await hooks.fire("SessionEnd", { reason });
      await hooks.close();
    }
    this.services.helpers?.runner.stopAll();
    await this.services.mcp?.session.close();
    await this.services.toolSession.shells.killAll();
    this.services.writer?.close();
    await Promise.all([writesFlushed(), this.services.housekeeping?.()]);
  }

  private emitter(emit: Emit): Emit {
    return (event: AgentEvent) => {
      this.services.recorder?.(event);
      this.services.context.observe(event);
      if (event.type === "assistant_message") {
        const usage = event.message.usage;
        this.services.helpers?.ledger.add(event.message.model || this.info.model, usage, false);
        this.lastRequestTokens = usage.inputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens;
      }
      emit(event);
    };
  }
}
