/**
 * Token usage of a whole session — the main conversation and every helper agent — per model, so
 * `/cost`, the json result's `modelUsage` and `--max-budget-usd` count helpers too.
 */
import { costUSD } from "../model/models.ts";
import { addUsage, zeroUsage, type TokenUsage } from "../model/types.ts";

/** The API's price of one server-side web search: $10 per 1,000, on top of the tokens. */
export const WEB_SEARCH_USD = 0.01;

/** Dollars for some usage at a model's list price, web searches included (as Claude Code counts them). */
export function usageCostUSD(model: string, usage: TokenUsage): number {
  return costUSD(model, usage) + (usage.webSearchRequests ?? 0) * WEB_SEARCH_USD;
}

export class UsageLedger {
  private readonly byModel = new Map<string, TokenUsage>();
  private readonly helperByModel = new Map<string, TokenUsage>();

  constructor(private readonly maxBudgetUsd?: number) {}

  add(model: string, usage: TokenUsage, fromHelper: boolean): void {
    this.byModel.set(model, addUsage(this.byModel.get(model) ?? zeroUsage(), usage));
    if (fromHelper) this.helperByModel.set(model, addUsage(this.helperByModel.get(model) ?? zeroUsage(), usage));
  }

  /** Usage per model, main conversation and helpers together. */
  models(): Record<string, TokenUsage> {
    return Object.fromEntries(this.byModel);
  }

  /** Usage outside the main conversation (helper agents, tools' side requests), per model. */
  helpers(): Record<string, TokenUsage> {
    return Object.fromEntries(this.helperByModel);
  }

  costUSD(): number {
    let total = 0;
    for (const [model, usage] of this.byModel) total += usageCostUSD(model, usage);
    return total;
  }

  /** `--max-budget-usd` is spent: no further request starts, in any conversation. */
  exceeded(): boolean {
    return this.maxBudgetUsd !== undefined && this.costUSD() >= this.maxBudgetUsd;
  }
}
