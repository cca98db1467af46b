/**
 * Token usage of a whole session — the main conversation and every helper agent — per model, so
 * `/cost`, the json result's `modelUsage` and `--max-budget-usd` count helpers too.
 */
import { costUSD } from "../model/models.ts";
import { addUsage, zeroUsage, type TokenUsage } from "../model/types.ts";

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

  /** Usage of helper agents alone, per model. */
  helpers(): Record<string, TokenUsage> {
    return Object.fromEntries(this.helperByModel);
  }

  costUSD(): number {
    let total = 0;
    for (const [model, usage] of this.byModel) total += costUSD(model, usage);
    return total;
  }

  /** `--max-budget-usd` is spent: no further request starts, in any conversation. */
  exceeded(): boolean {
    return this.maxBudgetUsd !== undefined && this.costUSD() >= this.maxBudgetUsd;
  }
}
