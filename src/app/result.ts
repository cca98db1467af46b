/**
 * The `result` object of `--output-format json` / `stream-json`, in Claude Code's shape.
 * API errors end as subtype "success" with is_error true (as Claude Code reports them);
 * turn limits and interrupts use the error subtypes.
 */
import type { LoopOutcome } from "../loop/events.ts";
import { modelInfo } from "../model/models.ts";
import { addUsage, zeroUsage, type TokenUsage } from "../model/types.ts";
import type { ContextUsage } from "./context-manager.ts";
import { usageCostUSD } from "./usage-ledger.ts";

export interface ResultContext {
  sessionId: string;
  model: string;
  durationMs: number;
  maxTurns: number | undefined;
  /** Where the context window goes (clew addition; consumers ignore unknown fields). */
  context?: ContextUsage;
  /** Usage of helper agents per model: counted in the cost and `modelUsage` too. */
  helperUsage?: Record<string, TokenUsage>;
  maxBudgetUsd?: number;
}

type ModelUsageEntry = Record<string, number | string>;

function modelUsageEntry(model: string, usage: TokenUsage): ModelUsageEntry {
  const info = modelInfo(model);
  return {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    cacheReadInputTokens: usage.cacheReadInputTokens,
    cacheCreationInputTokens: usage.cacheCreationInputTokens,
    webSearchRequests: usage.webSearchRequests ?? 0,
    costUSD: usageCostUSD(model, usage),
    contextWindow: info.contextWindow,
    maxOutputTokens: info.maxOutputTokens,
    costBasis: info.costBasis,
  };
}

/** The main conversation's usage plus every helper's, per model. */
function usageByModel(model: string, main: TokenUsage, helpers: Record<string, TokenUsage> | undefined): Record<string, TokenUsage> {
  const all: Record<string, TokenUsage> = { [model]: main };
  for (const [name, usage] of Object.entries(helpers ?? {})) all[name] = addUsage(all[name] ?? zeroUsage(), usage);
  return all;
}

export interface ResultObject {
  type: "result";
  subtype: "success" | "error_max_turns" | "error_during_execution" | "error_max_budget_usd" | "error_max_structured_output_retries";
  is_error: boolean;
  api_error_status: number | null;
  duration_ms: number;
  duration_api_ms: number;
  num_turns: number;
  result?: string;
  errors?: string[];
  stop_reason: string | null;
  terminal_reason: string;
  session_id: string;
  total_cost_usd: number;
  usage: Record<string, unknown>;
  modelUsage: Record<string, Record<string, number | string>>;
  permission_denials: LoopOutcome["denials"];
  context_window?: Record<string, number | null>;
  /** `--json-schema`: the answer, matching the schema. */
  structured_output?: unknown;
  uuid: string;
}

function apiErrorText(outcome: LoopOutcome): string {
  const error = outcome.error;
  if (!error) return "API Error";
  return error.status !== null ? `API Error: ${error.status} ${error.message}` : `API Error: ${error.message}`;
}

export function buildResult(outcome: LoopOutcome, context: ResultContext): ResultObject {
  const models = usageByModel(context.model, outcome.usage, context.helperUsage);
  const cost = Object.entries(models).reduce((sum, [model, usage]) => sum + usageCostUSD(model, usage), 0);
  const base = {
    type: "result" as const,
    api_error_status: outcome.error?.status ?? null,
    duration_ms: Math.round(context.durationMs),
    duration_api_ms: Math.round(outcome.apiMs),
    num_turns: outcome.numTurns,
    stop_reason: outcome.stopReason,
    session_id: context.sessionId,
    total_cost_usd: cost,
    usage: {
      input_tokens: outcome.usage.inputTokens,
      output_tokens: outcome.usage.outputTokens,
      cache_creation_input_tokens: outcome.usage.cacheCreationInputTokens,
      cache_read_input_tokens: outcome.usage.cacheReadInputTokens,
      // clew never offers the API's server-side web fetch (WebFetch fetches on this machine).
      server_tool_use: { web_search_requests: Object.values(models).reduce((sum, usage) => sum + (usage.webSearchRequests ?? 0), 0), web_fetch_requests: 0 },
      service_tier: "standard",
    },
    modelUsage: Object.fromEntries(Object.entries(models).map(([model, usage]) => [model, modelUsageEntry(model, usage)])),
    permission_denials: outcome.denials,
    ...(context.context
      ? {
          context_window: {
            window_tokens: context.context.windowTokens,
            system_tokens: context.context.systemTokens,
            tools_tokens: context.context.toolsTokens,
            messages_tokens: context.context.messagesTokens,
            last_request_tokens: context.context.lastRequestTokens ?? null,
          },
        }
      : {}),
    uuid: crypto.randomUUID(),
  };
  switch (outcome.reason) {
    case "completed":
      return { ...base, subtype: "success", is_error: false, result: outcome.finalText, ...("structuredOutput" in outcome ? { structured_output: outcome.structuredOutput } : {}), terminal_reason: "completed" };
    case "structured_output_retry_exhausted":
      return { ...base, subtype: "error_max_structured_output_retries", is_error: true, errors: [outcome.finalText], terminal_reason: outcome.reason };
    case "max_turns":
      return {
        ...base,
        subtype: "error_max_turns",
        is_error: true,
        errors: [`Reached maximum number of turns (${context.maxTurns ?? outcome.numTurns - 1})`],
        terminal_reason: "max_turns",
      };
    case "api_error":
    case "prompt_too_long":
      return { ...base, subtype: "success", is_error: true, result: apiErrorText(outcome), terminal_reason: outcome.reason };
    case "refusal":
      return {
        ...base,
        subtype: "success",
        is_error: true,
        result: outcome.finalText || "The model declined to respond to this request.",
        terminal_reason: "model_error",
      };
    case "aborted_streaming":
    case "aborted_tools":
      return { ...base, subtype: "error_during_execution", is_error: true, errors: ["Interrupted"], terminal_reason: outcome.reason };
    case "prompt_blocked":
      // finalText holds the hook's reason: for the user, never sent to the model.
      return { ...base, subtype: "success", is_error: true, result: outcome.finalText, terminal_reason: "prompt_blocked" };
    case "hook_stopped":
      return { ...base, subtype: "success", is_error: false, result: outcome.finalText, terminal_reason: "hook_stopped" };
    case "max_budget":
      return {
        ...base,
        subtype: "error_max_budget_usd",
        is_error: true,
        errors: [`Reached maximum budget ($${context.maxBudgetUsd ?? cost})`],
        terminal_reason: "budget_exhausted",
      };
  }
}

/** What `--output-format text` prints for a finished turn (on stdout, a failure's error text too, as Claude Code), and whether the run failed. */
export function textResult(result: ResultObject): { text: string; failed: boolean } {
  if (result.subtype === "error_max_turns") return { text: `Error: Reached max turns (${result.num_turns - 1})`, failed: true };
  if (result.subtype === "error_during_execution") return { text: `Error: ${result.errors?.[0] ?? "Interrupted"}`, failed: true };
  if (result.subtype === "error_max_budget_usd") return { text: `Error: ${result.errors?.[0] ?? "Reached maximum budget"}`, failed: true };
  if (result.subtype === "error_max_structured_output_retries") return { text: `Error: ${result.errors?.[0] ?? "Failed to provide valid structured output"}`, failed: true };
  // With --json-schema the answer a script wants is the structured one, as one line of JSON.
  if ("structured_output" in result) return { text: JSON.stringify(result.structured_output), failed: false };
  return { text: result.result ?? "", failed: result.is_error };
}
