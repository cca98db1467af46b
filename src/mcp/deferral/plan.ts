/**
 * Which tools go out as `defer_loading: true` definitions, loaded by the model through ToolSearch.
 * Only MCP tools are ever deferred (built-in tools and `alwaysLoad` tools always load up front);
 * ENABLE_TOOL_SEARCH decides whether to defer them at all: `auto` (clew's default, 10% of the
 * window) defers once their definitions would take that share of the context.
 */
import type { AnyTool } from "../../tools/types.ts";

export interface DeferralInput {
  /** Every tool of the session, built-in first, then MCP. */
  tools: readonly AnyTool[];
  /** ENABLE_TOOL_SEARCH as written: unset, true, false, auto, auto:N. */
  setting: string | undefined;
  /** Tokens the model's context window holds. */
  windowTokens: number;
  /** A permission deny rule names ToolSearch. */
  toolSearchDenied: boolean;
  /** CLAUDE_CODE_DISABLE_EXPERIMENTAL_BETAS is set. */
  betasDisabled: boolean;
}

export interface DeferralPlan {
  enabled: boolean;
  /** Names of the tools sent with `defer_loading: true`; empty when not enabled. */
  deferred: ReadonlySet<string>;
  /** Why tool search is on or off, for `/mcp` and debugging. */
  reason: string;
  /** A setting clew could not read (it fell back to the default); say so to the user. */
  warning?: string;
}

export type ToolSearchMode = { kind: "always" } | { kind: "never" } | { kind: "auto"; percent: number };

export const DEFAULT_AUTO_PERCENT = 10;

const TRUE_WORDS = new Set(["1", "true", "yes", "on"]);
const FALSE_WORDS = new Set(["0", "false", "no", "off"]);

/** ENABLE_TOOL_SEARCH → mode; an unreadable value falls back to `auto` with a warning. */
export function parseToolSearchSetting(setting: string | undefined): { mode: ToolSearchMode; warning?: string } {
  const value = setting?.trim().toLowerCase() ?? "";
  const auto = { kind: "auto", percent: DEFAULT_AUTO_PERCENT } as const;
  if (value === "" || value === "auto") return { mode: auto };
  if (TRUE_WORDS.has(value)) return { mode: { kind: "always" } };
  if (FALSE_WORDS.has(value)) return { mode: { kind: "never" } };
  const custom = /^auto:(.*)$/.exec(value);
  if (custom) {
    const percent = Number(custom[1]);
    if (custom[1]?.trim() !== "" && Number.isFinite(percent) && percent >= 0 && percent <= 100) return { mode: { kind: "auto", percent } };
    return {
      mode: auto,
      warning: `ENABLE_TOOL_SEARCH=${setting}: the percentage after "auto:" must be a number from 0 to 100; using auto (${DEFAULT_AUTO_PERCENT}%).`,
    };
  }
  return {
    mode: auto,
    warning: `ENABLE_TOOL_SEARCH=${setting} is not one of true, false, auto, auto:N; using auto (${DEFAULT_AUTO_PERCENT}% of the context window).`,
  };
}

/** Only MCP tools defer, and not those their server or their own `_meta` asks to load up front. */
export function isDeferrable(tool: AnyTool): boolean {
  return tool.origin?.kind === "mcp" && !tool.origin.alwaysLoad;
}

/**
 * The tokens a definition costs the prompt, estimated as UTF-8 bytes / 4 of its JSON (the same
 * rule of thumb the rest of clew uses; the real count is the API's to make).
 */
export function estimateDefinitionTokens(tool: AnyTool): number {
  const definition = JSON.stringify({ name: tool.name, description: tool.description, input_schema: tool.inputSchema ?? {} });
  return Math.ceil(Buffer.byteLength(definition, "utf8") / 4);
}

const off = (reason: string, warning?: string): DeferralPlan => ({ enabled: false, deferred: new Set(), reason, ...(warning ? { warning } : {}) });

export function planDeferral(input: DeferralInput): DeferralPlan {
  const { mode, warning } = parseToolSearchSetting(input.setting);
  const withWarning = (plan: DeferralPlan): DeferralPlan => (warning ? { ...plan, warning } : plan);
  if (mode.kind === "never") return off(`tool search is off (ENABLE_TOOL_SEARCH=${input.setting ?? ""})`);
  if (input.betasDisabled) return withWarning(off("tool search is off: CLAUDE_CODE_DISABLE_EXPERIMENTAL_BETAS is set"));
  if (input.toolSearchDenied) return withWarning(off("tool search is off: a permission rule denies ToolSearch"));
  const candidates = input.tools.filter(isDeferrable);
  if (candidates.length === 0) return withWarning(off("no MCP tool can be deferred"));
  const names = new Set(candidates.map((tool) => tool.name));
  if (mode.kind === "always") {
    return withWarning({ enabled: true, deferred: names, reason: `ENABLE_TOOL_SEARCH=${input.setting ?? ""}: every MCP tool is deferred` });
  }
  const tokens = candidates.reduce((sum, tool) => sum + estimateDefinitionTokens(tool), 0);
  const budget = Math.floor((input.windowTokens * mode.percent) / 100);
  const measure = `${candidates.length} MCP tool definitions ≈ ${tokens} tokens, budget ${budget} (${mode.percent}% of ${input.windowTokens})`;
  if (tokens >= budget) return withWarning({ enabled: true, deferred: names, reason: `deferred: ${measure}` });
  return withWarning(off(`loaded up front: ${measure}`));
}
