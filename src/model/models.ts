/**
 * Model facts as data: aliases, context windows, output limits, list prices (USD per million
 * tokens) and how each model thinks (thinking modes, effort levels). Figures follow the spec's
 * tables and the API's model pages; unknown ids fall back to conservative defaults and are
 * reported as an estimate.
 */
import type { EffortLevel } from "./types.ts";

export interface ModelInfo {
  contextWindow: number;
  maxOutputTokens: number;
  price: { input: number; output: number; cacheWrite5m: number; cacheRead: number };
  /** "list" when the id is in the table, "unknown" when priced at the default model's rate. */
  costBasis: "list" | "unknown";
}

const ALIASES: Record<string, string> = {
  opus: "claude-opus-5-5",
  best: "claude-opus-5-5",
  sonnet: "claude-sonnet-5-5",
  haiku: "claude-haiku-5-5",
  fable: "claude-fable-5-2",
};

export const DEFAULT_MODEL_ALIAS = "opus";

type Row = [window: number, maxOut: number, input: number, write5m: number, read: number, output: number];

const TABLE: Record<string, Row> = {
  "claude-fable-5-2": [1_000_000, 128_000, 8, 10, 0.2, 40],
  "claude-mythos-5-2": [1_000_000, 128_000, 8, 10, 0.2, 40],
  "claude-fable-5-1": [1_000_000, 64_000, 10, 12.5, 0.25, 50],
  "claude-fable-5": [1_000_000, 128_000, 10, 12.5, 1, 50],
  "claude-mythos-5": [1_000_000, 128_000, 10, 12.5, 1, 50],
  "claude-opus-5-5": [1_000_000, 128_000, 4, 5, 0.2, 20],
  "claude-sonnet-5-5": [1_000_000, 128_000, 2, 2.5, 0.1, 10],
  "claude-haiku-5-5": [1_000_000, 128_000, 0.1, 0.125, 0.01, 0.5],
  "claude-opus-5": [1_000_000, 128_000, 5, 6.25, 0.5, 25],
  "claude-sonnet-5": [1_000_000, 128_000, 2, 2.5, 0.2, 10],
  "claude-opus-4-8": [1_000_000, 128_000, 5, 6.25, 0.5, 25],
  "claude-opus-4-7": [1_000_000, 128_000, 5, 6.25, 0.5, 25],
  "claude-opus-4-6": [1_000_000, 128_000, 5, 6.25, 0.5, 25],
  "claude-opus-4-5": [200_000, 64_000, 5, 6.25, 0.5, 25],
  "claude-sonnet-4-6": [1_000_000, 128_000, 3, 3.75, 0.3, 15],
  "claude-sonnet-4-5": [200_000, 64_000, 3, 3.75, 0.3, 15],
  "claude-haiku-4-5": [200_000, 64_000, 1, 1.25, 0.1, 5],
};

/** Resolve an alias (`opus`, `sonnet[1m]`, …) to a model id, honouring pinned aliases. */
/** Claude Code's alias for Opus while planning and Sonnet otherwise. */
export const OPUS_PLAN = "opusplan";

/** The model a chosen name means in a permission mode: only `opusplan` depends on it. */
export function modelForMode(nameOrAlias: string, mode: string, pinned: Record<string, string> = {}): string {
  return nameOrAlias.toLowerCase() === OPUS_PLAN && mode === "plan" ? resolveModelId("opus", pinned) : resolveModelId(nameOrAlias, pinned);
}

export function resolveModelId(nameOrAlias: string, pinned: Record<string, string> = {}): string {
  const base = nameOrAlias.replace(/\[1m\]$/i, "");
  const key = base.toLowerCase();
  if (key === "default") return resolveModelId(pinned.default ?? DEFAULT_MODEL_ALIAS, { ...pinned, default: DEFAULT_MODEL_ALIAS });
  // Outside plan mode `opusplan` is Sonnet; modelForMode gives Opus while planning.
  if (key === OPUS_PLAN) return resolveModelId("sonnet", pinned);
  return pinned[key] ?? ALIASES[key] ?? base;
}

function lookup(modelId: string): Row | undefined {
  if (TABLE[modelId]) return TABLE[modelId];
  // Dated ids such as claude-haiku-4-5-20251001 price like their undated family.
  const undated = modelId.replace(/-\d{8}$/, "");
  return TABLE[undated];
}

export function modelInfo(modelId: string): ModelInfo {
  const row = lookup(modelId);
  const [window, maxOut, input, write, read, output] = row ?? (TABLE["claude-opus-5-5"] as Row);
  return {
    contextWindow: row ? window : 200_000,
    maxOutputTokens: row ? maxOut : 32_000,
    price: { input, output, cacheWrite5m: write, cacheRead: read },
    costBasis: row ? "list" : "unknown",
  };
}

export function costUSD(
  modelId: string,
  usage: { inputTokens: number; outputTokens: number; cacheReadInputTokens: number; cacheCreationInputTokens: number },
): number {
  const { price } = modelInfo(modelId);
  const total =
    usage.inputTokens * price.input +
    usage.outputTokens * price.output +
    usage.cacheCreationInputTokens * price.cacheWrite5m +
    usage.cacheReadInputTokens * price.cacheRead;
  return total / 1_000_000;
}

/** Every `output_config.effort` level, weakest first. */
export const EFFORT_LEVELS: readonly EffortLevel[] = ["low", "medium", "high", "xhigh", "max"];

/**
 * How a model thinks, as the API accepts it:
 * - `adaptive`: only `{type: "adaptive"}` (budgets are a 400 on 4.7 and later);
 * - `adaptive-or-budget`: adaptive preferred, budgets deprecated but accepted (the 4.6 models);
 * - `budget`: only `{type: "enabled", budget_tokens}` (4.5 and older);
 * - `unknown`: an id clew has no facts about (a gateway's or a local model).
 */
export type ThinkingMode = "adaptive" | "adaptive-or-budget" | "budget" | "unknown";

/**
 * How thinking is turned off: by leaving `thinking` out (the model does not think unless asked),
 * with `{type: "disabled"}` or `{type: "between_tools"}` (it thinks unless told not to; allowed
 * only at effort high or lower), or not at all (it always thinks).
 */
export type ThinkingOff = "omit" | "disabled" | "between_tools" | "never";

export interface ModelReasoning {
  thinking: ThinkingMode;
  off: ThinkingOff;
  /** Claude Code turns thinking on for this model when nothing says otherwise. */
  thinksByDefault: boolean;
  /** Effort levels the model accepts; empty when it rejects `output_config.effort` (or is unknown). */
  effortLevels: readonly EffortLevel[];
  /** The level the API applies when the request names none. */
  defaultEffort: EffortLevel | undefined;
}

const ALL_LEVELS = EFFORT_LEVELS;
const NO_XHIGH: readonly EffortLevel[] = ["low", "medium", "high", "max"];
const BASIC_LEVELS: readonly EffortLevel[] = ["low", "medium", "high"];

type ReasoningRow = [thinking: ThinkingMode, off: ThinkingOff, thinksByDefault: boolean, levels: readonly EffortLevel[], defaultEffort?: EffortLevel];

/**
 * Sources: the API's adaptive-thinking, extended-thinking and effort pages and the per-model
 * "what's new" pages (Opus 5, Sonnet 5.5, Haiku 5.5), as summarised in the spec (§10.5). The
 * 5.5 generation's xhigh/max support is not on the effort page yet: Opus 5.5 and Sonnet 5.5 are
 * given the full ladder (Sonnet 5.5's launch results name xhigh and max), Haiku 5.5 the basic
 * three, so a level it may lack is clamped instead of answered with a 400.
 */
const REASONING: Record<string, ReasoningRow> = {
  "claude-fable-5-2": ["adaptive", "never", true, ALL_LEVELS],
  "claude-mythos-5-2": ["adaptive", "never", true, ALL_LEVELS],
  "claude-fable-5-1": ["adaptive", "never", true, ALL_LEVELS],
  "claude-mythos-5-1": ["adaptive", "never", true, ALL_LEVELS],
  "claude-fable-5": ["adaptive", "never", true, ALL_LEVELS],
  "claude-mythos-5": ["adaptive", "never", true, ALL_LEVELS],
  "claude-opus-5-5": ["adaptive", "never", true, ALL_LEVELS, "medium"],
  "claude-sonnet-5-5": ["adaptive", "between_tools", true, ALL_LEVELS],
  "claude-haiku-5-5": ["adaptive", "disabled", true, BASIC_LEVELS, "medium"],
  "claude-opus-5": ["adaptive", "disabled", true, ALL_LEVELS],
  "claude-sonnet-5": ["adaptive", "disabled", true, ALL_LEVELS],
  "claude-opus-4-8": ["adaptive", "omit", true, ALL_LEVELS],
  "claude-opus-4-7": ["adaptive", "omit", true, ALL_LEVELS],
  "claude-opus-4-6": ["adaptive-or-budget", "omit", true, NO_XHIGH],
  "claude-sonnet-4-6": ["adaptive-or-budget", "omit", true, NO_XHIGH],
  "claude-opus-4-5": ["budget", "omit", true, BASIC_LEVELS],
  "claude-sonnet-4-5": ["budget", "omit", true, []],
  "claude-haiku-4-5": ["budget", "omit", false, []],
  "claude-opus-4-1": ["budget", "omit", false, []],
  "claude-opus-4": ["budget", "omit", false, []],
  "claude-opus-4-0": ["budget", "omit", false, []],
  "claude-sonnet-4": ["budget", "omit", false, []],
  "claude-sonnet-4-0": ["budget", "omit", false, []],
  "claude-3-7-sonnet": ["budget", "omit", false, []],
};

export function modelReasoning(modelId: string): ModelReasoning {
  const row = REASONING[modelId] ?? REASONING[modelId.replace(/-\d{8}$/, "")] ?? REASONING[modelId.replace(/-latest$/, "")];
  if (!row) return { thinking: "unknown", off: "omit", thinksByDefault: false, effortLevels: [], defaultEffort: undefined };
  const [thinking, off, thinksByDefault, effortLevels, defaultEffort] = row;
  return { thinking, off, thinksByDefault, effortLevels, defaultEffort: effortLevels.length > 0 ? (defaultEffort ?? "high") : undefined };
}
