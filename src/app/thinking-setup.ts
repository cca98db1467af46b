/**
 * Thinking and effort for a session: which `thinking` config and `output_config.effort` each
 * request carries, from the command line, the environment, settings and the model's own
 * capabilities (model/models.ts). Resolved again whenever the model or the effort changes
 * mid-session, so a request never carries what its model would answer with a 400.
 *
 * Precedence (Claude Code's): `/effort` for the rest of a session, then CLAUDE_CODE_EFFORT_LEVEL,
 * then `--effort`, then the `effortLevel` setting, then the model's default. A level the model
 * lacks falls back to the strongest level it has below it (Claude Code does the same).
 */
import { EFFORT_LEVELS, modelReasoning, type ModelReasoning } from "../model/models.ts";
import type { EffortLevel, ThinkingConfig } from "../model/types.ts";

export { EFFORT_LEVELS };

/** Claude Code's budget when thinking is on and MAX_THINKING_TOKENS does not say otherwise. */
export const DEFAULT_THINKING_BUDGET = 31_999;
/** The API's floor for `budget_tokens`. */
const MIN_THINKING_BUDGET = 1_024;

export type EffortSource = "/effort" | "the agent's definition" | "CLAUDE_CODE_EFFORT_LEVEL" | "--effort" | "effortLevel setting" | "model default";

export interface ReasoningInputs {
  /** CLAUDE_CODE_EFFORT_LEVEL as written (checked here, so a typo is reported, not fatal). */
  envEffort: string | undefined;
  flagEffort: EffortLevel | undefined;
  settingEffort: EffortLevel | undefined;
  /** MAX_THINKING_TOKENS: 0 turns thinking off; a budget applies to models that take one. */
  maxThinkingTokens: number | undefined;
  /** The `alwaysThinkingEnabled` setting: false turns thinking off, true on where it is optional. */
  alwaysThinkingEnabled: boolean | undefined;
}

export interface ResolvedReasoning {
  model: string;
  thinking: ThinkingConfig | undefined;
  /** What the request carries; undefined when the model takes no effort level. */
  effort: EffortLevel | undefined;
  /** The level asked for (before fitting it to the model) and who asked. */
  requested: { level: EffortLevel | undefined; source: EffortSource };
  /** Why the request differs from what was asked, one sentence each. */
  notes: string[];
}

export function isEffortLevel(value: string): value is EffortLevel {
  return (EFFORT_LEVELS as readonly string[]).includes(value);
}

/** The level a model accepts for `wanted`: itself, or the strongest level the model has below it. */
function fitEffort(wanted: EffortLevel, caps: ModelReasoning): EffortLevel | undefined {
  if (caps.effortLevels.includes(wanted)) return wanted;
  const below = EFFORT_LEVELS.slice(0, EFFORT_LEVELS.indexOf(wanted)).filter((level) => caps.effortLevels.includes(level));
  return below.at(-1) ?? caps.effortLevels[0];
}

/** `label` names who asked for the budget; a default budget is fitted without a note. */
function budget(requested: number, maxTokens: number, model: string, notes: string[], label?: string): ThinkingConfig | undefined {
  // The API wants MIN ≤ budget < max_tokens; with less room than that there is no budget to give.
  const ceiling = maxTokens - 1;
  if (ceiling < MIN_THINKING_BUDGET) {
    notes.push(`Thinking is off on ${model}: max_tokens (${maxTokens}) leaves no room for the API's minimum thinking budget of ${MIN_THINKING_BUDGET} tokens.`);
    return undefined;
  }
  const tokens = Math.min(Math.max(requested, MIN_THINKING_BUDGET), ceiling);
  if (tokens !== requested && label) notes.push(`${label}=${requested} is outside what ${model} accepts (${MIN_THINKING_BUDGET} to ${ceiling}, below max_tokens); using ${tokens}.`);
  return { type: "enabled", budget_tokens: tokens };
}

export class SessionReasoning {
  private override: { level: EffortLevel | "auto"; source: EffortSource } | undefined;
  private readonly startNotes: string[] = [];
  private readonly envEffort: EffortLevel | "auto" | undefined;

  constructor(private readonly inputs: ReasoningInputs) {
    const raw = inputs.envEffort?.trim().toLowerCase();
    if (raw === undefined || raw === "") this.envEffort = undefined;
    else if (raw === "auto" || raw === "unset") this.envEffort = "auto";
    else if (isEffortLevel(raw)) this.envEffort = raw;
    else {
      this.envEffort = undefined;
      this.startNotes.push(`CLAUDE_CODE_EFFORT_LEVEL='${inputs.envEffort}' is not an effort level (${EFFORT_LEVELS.join(", ")} or auto); it is ignored.`);
    }
  }

  /** `/effort <level>` or `/effort auto` (the model's default): for the rest of the session. */
  setEffort(level: EffortLevel | "auto"): void {
    this.override = { level, source: "/effort" };
  }

  /**
   * A helper agent's reasoning: the session's sources, with the agent definition's own `effort`
   * first when it has one, fitted to the helper's model by `resolve` as for the session.
   */
  forHelper(effort: EffortLevel | undefined): SessionReasoning {
    const helper = new SessionReasoning(this.inputs);
    helper.override = effort ? { level: effort, source: "the agent's definition" } : this.override;
    return helper;
  }

  /** Problems with the inputs themselves (a bad CLAUDE_CODE_EFFORT_LEVEL), reported once at start. */
  takeStartNotes(): string[] {
    return this.startNotes.splice(0);
  }

  private requestedEffort(): { level: EffortLevel | undefined; source: EffortSource } {
    const explicit = (level: EffortLevel | "auto", source: EffortSource) => ({ level: level === "auto" ? undefined : level, source: level === "auto" ? ("model default" as const) : source });
    if (this.override) return explicit(this.override.level, this.override.source);
    if (this.envEffort) return explicit(this.envEffort, "CLAUDE_CODE_EFFORT_LEVEL");
    if (this.inputs.flagEffort) return { level: this.inputs.flagEffort, source: "--effort" };
    if (this.inputs.settingEffort) return { level: this.inputs.settingEffort, source: "effortLevel setting" };
    return { level: undefined, source: "model default" };
  }

  resolve(model: string, maxTokens: number): ResolvedReasoning {
    const caps = modelReasoning(model);
    const notes: string[] = [];
    const requested = this.requestedEffort();
    const effort = this.effortFor(model, caps, requested, notes);
    const thinking = this.thinkingFor(model, caps, maxTokens, effort, notes);
    return { model, thinking, effort, requested, notes };
  }

  private effortFor(model: string, caps: ModelReasoning, requested: { level: EffortLevel | undefined; source: EffortSource }, notes: string[]): EffortLevel | undefined {
    const wanted = requested.level;
    // An id clew knows nothing about gets exactly what was asked for: the endpoint decides.
    if (caps.thinking === "unknown") return wanted;
    if (wanted === undefined) return caps.defaultEffort;
    if (caps.effortLevels.length === 0) {
      notes.push(`${model} takes no effort level; effort ${wanted} (${requested.source}) is not sent.`);
      return undefined;
    }
    const fitted = fitEffort(wanted, caps);
    if (fitted !== wanted) notes.push(`Effort ${wanted} (${requested.source}) is not available on ${model}; using ${fitted} (it accepts ${caps.effortLevels.join(", ")}).`);
    return fitted;
  }

  private thinkingFor(model: string, caps: ModelReasoning, maxTokens: number, effort: EffortLevel | undefined, notes: string[]): ThinkingConfig | undefined {
    const { maxThinkingTokens, alwaysThinkingEnabled } = this.inputs;
    const off = maxThinkingTokens === 0 || alwaysThinkingEnabled === false;
    const offBy = maxThinkingTokens === 0 ? "MAX_THINKING_TOKENS=0" : "alwaysThinkingEnabled: false";
    if (caps.thinking === "unknown") {
      return !off && maxThinkingTokens !== undefined ? budget(maxThinkingTokens, maxTokens, model, notes, "MAX_THINKING_TOKENS") : undefined;
    }
    if (caps.thinking === "budget") {
      if (off) return undefined;
      if (maxThinkingTokens !== undefined) return budget(maxThinkingTokens, maxTokens, model, notes, "MAX_THINKING_TOKENS");
      return caps.thinksByDefault || alwaysThinkingEnabled === true ? budget(DEFAULT_THINKING_BUDGET, maxTokens, model, notes) : undefined;
    }
    // Adaptive models set their own depth: a budget does not apply, only "off" does.
    // Claude Code ignores a MAX_THINKING_TOKENS budget there without a word, and so does clew.
    if (!off) return caps.thinksByDefault ? { type: "adaptive" } : undefined;
    if (caps.off === "omit") return undefined;
    if (caps.off === "never") {
      notes.push(`${model} always thinks; ${offBy} does not turn it off.`);
      return { type: "adaptive" };
    }
    if (effort === "xhigh" || effort === "max") {
      notes.push(`${model} cannot turn thinking off at effort ${effort}; it keeps thinking (${offBy} applies at high or lower).`);
      return { type: "adaptive" };
    }
    // ModelRequest.thinking has no `disabled` / `between_tools` form yet (model/types.ts), so
    // these models, which think unless told not to, keep thinking; the user is told so.
    notes.push(`${offBy} cannot turn thinking off on ${model} in this version of clew (it needs thinking: ${caps.off}); it keeps thinking.`);
    return { type: "adaptive" };
  }

  /** For `/status` and `/effort`: the level in force and where it came from. */
  describeEffort(resolved: ResolvedReasoning): string {
    const { effort, requested } = resolved;
    if (effort === undefined) {
      return requested.level === undefined ? `not sent (${resolved.model} takes no effort level)` : `not sent (${resolved.model} takes no effort level; ${requested.level} was asked by ${requested.source})`;
    }
    if (requested.level === undefined) return `${effort} (the model's default)`;
    if (requested.level !== effort) return `${effort} (${requested.level} from ${requested.source} is not available on ${resolved.model})`;
    return `${effort} (from ${requested.source})`;
  }
}

export function describeThinking(thinking: ThinkingConfig | undefined): string {
  if (thinking === undefined) return "off";
  if (thinking.type === "adaptive") return "adaptive (the model decides when and how much)";
  return `on, budget ${thinking.budget_tokens} tokens per reply`;
}

/** Resolves the session's reasoning once at start, sets it on the request and reports what differs from what was asked. */
export function startReasoning(inputs: ReasoningInputs, request: Parameters<typeof applyReasoning>[0], report: (line: string) => void): SessionReasoning {
  const reasoning = new SessionReasoning(inputs);
  const resolved = applyReasoning(request, reasoning);
  for (const note of [...reasoning.takeStartNotes(), ...resolved.notes]) report(`clew: ${note}`);
  return reasoning;
}

/** Sets a request's thinking and effort for its current model, and says what differs from what was asked. */
export function applyReasoning(request: { model: string; maxTokens: number; thinking?: ThinkingConfig; effort?: EffortLevel }, reasoning: SessionReasoning): ResolvedReasoning {
  const resolved = reasoning.resolve(request.model, request.maxTokens);
  if (resolved.thinking) request.thinking = resolved.thinking;
  else delete request.thinking;
  if (resolved.effort) request.effort = resolved.effort;
  else delete request.effort;
  return resolved;
}
