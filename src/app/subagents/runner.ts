/**
 * The Agent and SendMessage tools' port: picks the helper type, its model and tools, starts the
 * helper's loop (in the foreground, or in the background with a notice to the parent when done),
 * and keeps every helper of the session addressable by id or name for SendMessage. Concurrency
 * is bounded by a session-wide limit; nesting by depth (at the limit helpers get no Agent tool).
 */
import type { HookRunner } from "../../hooks/outcomes.ts";
import type { AgentEvent, Emit, LoopOutcome } from "../../loop/events.ts";
import { modelInfo } from "../../model/models.ts";
import { addUsage, zeroUsage, type ContentBlockParam, type StreamFn, type TokenUsage } from "../../model/types.ts";
import type { ScopedGate } from "../../permissions/gate.ts";
import type { PermissionMode } from "../../permissions/types.ts";
import type { AgentCallInput, AgentPort, AnyTool, ToolContext, ToolOutput, ToolSession } from "../../tools/types.ts";
import { ToolError } from "../../util/errors.ts";
import { systemNote } from "../../util/system-note.ts";
import type { UsageLedger } from "../usage-ledger.ts";
import { createChild, type Child, type ChildServices } from "./child-loop.ts";
import { helperTools } from "./helper-tools.ts";
import type { HelperType } from "./helper-types.ts";
import { completionNotice, helperResult, launchedResult, type HelperRun } from "./report.ts";
import { Slots } from "./slots.ts";
import type { HelperWorktree } from "./worktree.ts";

export interface SubagentOptions {
  stream: StreamFn;
  resolveModel: (nameOrAlias: string) => string;
  parentModel: () => string;
  /** CLAUDE_CODE_SUBAGENT_MODEL (unless `inherit`): every helper's model. */
  forcedModel: string | undefined;
  /** The session's tools (after deny rules), helpers choose from these. */
  tools: () => readonly AnyTool[];
  gate: ScopedGate;
  parentMode: () => PermissionMode;
  hooks: () => HookRunner | undefined;
  /** Starts the inline MCP servers of a type for one helper (stopped when it finishes). */
  startTypeServers?: (type: HelperType) => Promise<{ tools: AnyTool[]; close(): Promise<void> } | undefined>;
  /** A type's frontmatter hooks join the session's (they run only while a helper of that type runs). */
  addTypeHooks?: (type: HelperType) => void;
  findType: (name: string) => Promise<HelperType | undefined>;
  typeNames: () => Promise<string[]>;
  /** Project instruction files (AGENTS.md/CLAUDE.md) for helpers that start with them. */
  instructions: () => string;
  loadSkill?: (name: string, signal: AbortSignal) => Promise<{ ok: true; text: string } | { ok: false; message: string }>;
  parentSession: ToolSession;
  services: Omit<ChildServices, "emit" | "gate" | "hooks" | "parentSession" | "budgetExceeded">;
  maxDepth: number;
  maxConcurrent: number;
  /** `--max-turns`: applies to each helper too, unless its definition sets its own. */
  maxTurns: number | undefined;
  ledger: UsageLedger;
  /** Where helper events go: the running turn's stream, or the transcript recorder when idle. */
  sink: { emit: Emit | undefined };
  /** Queues a reminder for the parent's next request. */
  notify: (text: string) => void;
  backgroundDisabled: boolean;
  worktrees?: () => Promise<typeof import("./worktree.ts")>;
}

/** What a helper's event stream updates (its child loop is built around it). */
interface HelperInfo {
  id: string;
  name?: string;
  type: HelperType;
  description: string;
  model: string;
  usage: TokenUsage;
  toolUses: number;
  controller: AbortController;
}

interface Helper extends HelperInfo {
  child: Child;
  running: Promise<HelperRun> | undefined;
}

const PERMISSIVE_PARENT: ReadonlySet<PermissionMode> = new Set(["bypassPermissions", "acceptEdits"]);

function newAgentId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return `a${[...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

export class SubagentRunner implements AgentPort {
  private readonly background = new Set<Promise<HelperRun>>();
  private readonly slots: Slots;

  constructor(
    private readonly options: SubagentOptions,
    private readonly depth = 0,
    slots?: Slots,
    private readonly registry: Map<string, Helper> = new Map(),
  ) {
    this.slots = slots ?? new Slots(options.maxConcurrent);
  }

  /** Background helpers still working (headless runs wait for them before finishing). */
  get runningInBackground(): number {
    return this.background.size;
  }

  /** Resolves when some background helper finishes (its notice is queued by then). */
  async nextBackgroundCompletion(): Promise<void> {
    if (this.background.size === 0) return;
    await Promise.race(this.background);
  }

  /** Stops every helper (an interrupted parent, the end of the session). */
  stopAll(): void {
    for (const helper of this.registry.values()) {
      helper.controller.abort();
      // A stopped helper can still be resumed later with SendMessage.
      helper.controller = new AbortController();
    }
  }

  async run(input: AgentCallInput, ctx: ToolContext): Promise<ToolOutput> {
    const typeName = input.subagent_type?.trim() || "general-purpose";
    const type = await this.options.findType(typeName);
    if (!type) throw new ToolError(`Agent type '${typeName}' not found. Available agents: ${(await this.options.typeNames()).join(", ")}`, "tool_input");
    const inBackground = !this.options.backgroundDisabled && (input.run_in_background === true || type.background);
    const nesting = this.depth + 1 < this.options.maxDepth;
    const ownServers = type.mcpServers.length > 0 ? await this.options.startTypeServers?.(type) : undefined;
    const model = this.modelFor(input.model, type);
    const agentId = newAgentId();
    const controller = new AbortController();
    let setUp: Awaited<ReturnType<SubagentRunner["setUp"]>>;
    try {
      setUp = await this.setUp(type, input, agentId, { nesting, background: inBackground, serverTools: ownServers?.tools ?? [] });
    } catch (error) {
      await ownServers?.close();
      throw error;
    }
    const { chosen, prompt, worktree } = setUp;
    if (type.hooks) this.options.addTypeHooks?.(type);
    const firstMessage = await this.firstMessage(type, input.prompt, agentId, ctx.signal);
    // A helper's own background helpers report to it (not to the main conversation), and it waits for them.
    const notices: string[] = [];
    const nested = nesting ? new SubagentRunner({ ...this.options, notify: (text) => notices.push(text) }, this.depth + 1, this.slots, this.registry) : undefined;
    const info: HelperInfo = { id: agentId, ...(input.name ? { name: input.name } : {}), type, description: input.description, model, usage: zeroUsage(), toolUses: 0, controller };
    const child = createChild(
      {
        agentId, agentType: type.name, description: input.description, parentToolUseId: ctx.toolUseId, background: inBackground,
        systemPrompt: prompt.text, model, maxTokens: modelInfo(model).maxOutputTokens, tools: chosen.tools,
        cwd: worktree?.path ?? this.options.parentSession.projectDir,
        ...(worktree ? { worktree: worktree.path } : {}),
        mode: this.modeFor(type), maxTurns: type.maxTurns ?? this.options.maxTurns, firstMessage,
        agents: nested,
        ...(nested ? { helpersInBackground: { notices, running: () => nested.runningInBackground, next: () => nested.nextBackgroundCompletion() } } : {}),
      },
      this.childServices(info, ctx.toolUseId, inBackground),
    );
    const helper: Helper = Object.assign(info, { child, running: undefined });
    this.registry.set(agentId, helper);
    const started = performance.now();
    const finish = async (outcome: LoopOutcome): Promise<HelperRun> => {
      await helper.child.close();
      await ownServers?.close();
      const done = worktree ? await (await this.worktreeModule()).finishHelperWorktree(worktree) : undefined;
      return {
        agentId, agentType: type.name, description: input.description, prompt: input.prompt, model, outcome,
        toolUses: helper.toolUses, durationMs: performance.now() - started, usage: helper.usage,
        ...(worktree && done ? { worktree: { path: worktree.path, branch: worktree.branch, summary: done.summary, kept: done.kept } } : {}),
      };
    };
    if (!inBackground) {
      const signal = AbortSignal.any([ctx.signal, controller.signal]);
      const outcome = await this.slots.hold(() => helper.child.run(signal), signal);
      const run = await finish(outcome);
      if (signal.aborted) throw new ToolError("Interrupted by user.", "aborted");
      return helperResult(run);
    }
    this.launchInBackground(helper, (signal) => this.slots.hold(() => helper.child.run(signal), signal).then(finish));
    return launchedResult({ agentId, agentType: type.name, description: input.description, prompt: input.prompt, model, ...(helper.child.transcriptPath ? { outputFile: helper.child.transcriptPath } : {}) });
  }

  async send(input: { to: string; message: string }, _ctx: ToolContext): Promise<ToolOutput> {
    const helper = this.registry.get(input.to) ?? [...this.registry.values()].find((candidate) => candidate.name === input.to);
    if (!helper) {
      const known = [...this.registry.values()].map((candidate) => candidate.name ? `${candidate.id} (${candidate.name})` : candidate.id);
      throw new ToolError(`No helper with id or name '${input.to}'.${known.length > 0 ? ` Helpers of this session: ${known.join(", ")}.` : " No helper has been started in this session."}`, "tool_input");
    }
    if (helper.running) throw new ToolError(`Helper ${helper.id} is still working; you will be told when it finishes. Send the message after that.`, "tool_input");
    const started = performance.now();
    const before = helper.toolUses;
    this.launchInBackground(helper, async (signal) => {
      const outcome = await this.slots.hold(() => helper.child.run(signal, [{ type: "text", text: input.message }]), signal);
      return { agentId: helper.id, agentType: helper.type.name, description: helper.description, prompt: input.message, model: helper.model, outcome, toolUses: helper.toolUses - before, durationMs: performance.now() - started, usage: helper.usage };
    });
    return {
      content: `Message sent to ${helper.id}. It resumes with its full context and works in the background; you will be told when it answers.`,
      display: { summary: `${helper.type.name}: ${helper.description} — resumed` },
      data: { success: true, agentId: helper.id },
    };
  }

  /** The helper's tools, system prompt and worktree; throws the error the model should see. */
  private async setUp(type: HelperType, input: AgentCallInput, agentId: string, options: { nesting: boolean; background: boolean; serverTools: readonly AnyTool[] }) {
    // Servers the definition names are the helper's even when its `tools` allowlist leaves them out.
    const named = type.mcpServers.map((server) => `mcp__${server.name}`);
    const selection = type.tools ? { ...type, tools: [...type.tools, ...named] } : type;
    const chosen = helperTools([...this.options.tools(), ...options.serverTools], selection, options);
    if (chosen.tools.length === 0) throw new ToolError(`Agent type '${type.name}' would be spawned with zero tools: none of its tools (${(type.tools ?? []).join(", ") || "none"}) exists in this session. Fix "tools" in ${type.origin}.`, "tool_input");
    const prompt = await type.systemPrompt();
    if (!prompt.ok) throw new ToolError(prompt.message, "tool_failed");
    let worktree: HelperWorktree | undefined;
    if ((input.isolation ?? type.isolation) === "worktree") {
      const made = await (await this.worktreeModule()).createHelperWorktree({ cwd: this.options.parentSession.projectDir, agentId });
      if ("error" in made) throw new ToolError(`Cannot run the helper in a worktree: ${made.error}`, "tool_failed");
      worktree = made;
    }
    return { chosen, prompt, worktree };
  }

  private launchInBackground(helper: Helper, work: (signal: AbortSignal) => Promise<HelperRun>): void {
    const signal = helper.controller.signal;
    const running = work(signal).then((run) => {
      this.options.notify(completionNotice(run));
      return run;
    });
    helper.running = running;
    this.background.add(running);
    void running.catch(() => undefined).finally(() => {
      this.background.delete(running);
      helper.running = undefined;
    });
  }

  private childServices(helper: HelperInfo, parentToolUseId: string, background: boolean): ChildServices {
    const { options } = this;
    return {
      ...options.services,
      gate: options.gate,
      hooks: options.hooks(),
      parentSession: options.parentSession,
      budgetExceeded: () => options.ledger.exceeded(),
      emit: (event: AgentEvent) => {
        if (event.type === "assistant_message") {
          helper.usage = addUsage(helper.usage, event.message.usage);
          options.ledger.add(event.message.model || helper.model, event.message.usage, true);
        }
        if (event.type === "tool_start") helper.toolUses += 1;
        options.sink.emit?.({ type: "subagent", parentToolUseId, agentId: helper.id, agentType: helper.type.name, description: helper.description, background, event });
      },
    };
  }

  /** C.4: CLAUDE_CODE_SUBAGENT_MODEL, then the call's `model`, then the type's, then the parent's. */
  private modelFor(requested: string | undefined, type: HelperType): string {
    const choice = [this.options.forcedModel, requested, type.model].find((value) => value !== undefined && value !== "" && value !== "inherit");
    if (choice === undefined || !/^(claude|sonnet|opus|haiku|fable|default|best)/i.test(choice)) return this.options.parentModel();
    return this.options.resolveModel(choice);
  }

  /** Read-only types always plan; a definition's mode applies unless the parent already allows more. */
  private modeFor(type: HelperType): PermissionMode | undefined {
    if (type.readOnly) return "plan";
    if (!type.permissionMode || PERMISSIVE_PARENT.has(this.options.parentMode())) return undefined;
    return type.permissionMode;
  }

  private async firstMessage(type: HelperType, prompt: string, agentId: string, signal: AbortSignal): Promise<ContentBlockParam[]> {
    const blocks: ContentBlockParam[] = [];
    const instructions = this.options.instructions().trim();
    if (type.withInstructions && instructions !== "") blocks.push({ type: "text", text: systemNote(instructions) });
    for (const name of type.skills) {
      const loaded = await this.options.loadSkill?.(name, signal);
      if (loaded?.ok) blocks.push({ type: "text", text: systemNote(loaded.text) });
    }
    const hooks = this.options.hooks();
    if (hooks?.hasHooks("SubagentStart")) {
      const outcome = await hooks.fire("SubagentStart", { agent_id: agentId, agent_type: type.name }, { signal, common: { agent_id: agentId, agent_type: type.name } });
      for (const text of outcome.additionalContext) blocks.push({ type: "text", text: systemNote(text) });
    }
    blocks.push({ type: "text", text: prompt });
    return blocks;
  }

  private async worktreeModule(): Promise<typeof import("./worktree.ts")> {
    return this.options.worktrees ? this.options.worktrees() : import("./worktree.ts");
  }
}
