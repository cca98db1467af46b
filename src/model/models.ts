/**
 * Model facts as data: aliases, context windows, output limits and list prices (USD per million
 * tokens). Figures follow the spec's price tables; unknown ids fall back to conservative defaults
 * and are reported as an estimate.
 */
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
export function resolveModelId(nameOrAlias: string, pinned: Record<string, string> = {}): string {
  const base = nameOrAlias.replace(/\[1m\]$/i, "");
  const key = base.toLowerCase();
  if (key === "default") return resolveModelId(pinned.default ?? DEFAULT_MODEL_ALIAS, { ...pinned, default: DEFAULT_MODEL_ALIAS });
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
