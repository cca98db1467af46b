/**
 * The skill listing the model sees (spec A.4): one line per model-invocable skill or command,
 * name and description (with when_to_use) on one line, cut at 1,536 characters. The order is by
 * name, so the text — and the prompt cache behind it — only changes when a skill does. Over the
 * budget, descriptions go first (least used first); every name always stays.
 */
import type { Invocable } from "./types.ts";

export const MAX_LISTING_DESCRIPTION = 1536;
/** Fallback budget when the context window is unknown (spec A.4: ~1 % of the window, else 8,000). */
export const DEFAULT_LISTING_BUDGET = 8000;

export interface CatalogueOptions {
  /** Characters the listing may use; default DEFAULT_LISTING_BUDGET. */
  budgetChars?: number;
  maxDescriptionChars?: number;
  /** Invocations per skill name; the least used lose their description first when over budget. */
  usage?: ReadonlyMap<string, number>;
}

type Listed = Pick<Invocable, "name" | "description" | "whenToUse" | "modelInvocable" | "override">;

export function listingDescription(item: Pick<Invocable, "description" | "whenToUse">, max = MAX_LISTING_DESCRIPTION): string {
  const combined = [item.description, item.whenToUse ?? ""].map((part) => part.replace(/\s+/g, " ").trim()).filter((part) => part !== "").join(" ");
  return combined.length <= max ? combined : `${combined.slice(0, max - 1).trimEnd()}…`;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function skillCatalogue(items: readonly Listed[], options: CatalogueOptions = {}): string {
  const budget = options.budgetChars ?? DEFAULT_LISTING_BUDGET;
  const listed = items.filter((item) => item.modelInvocable).sort((a, b) => compareText(a.name, b.name));
  const lines = listed.map((item) => {
    // skillOverrides "name-only": the name alone, whatever the budget.
    const description = item.override === "name-only" ? "" : listingDescription(item, options.maxDescriptionChars);
    return { name: item.name, full: description === "" ? `- ${item.name}` : `- ${item.name}: ${description}`, short: `- ${item.name}` };
  });
  const chosen = lines.map((line) => line.full);
  let total = chosen.reduce((sum, line) => sum + line.length + 1, 0);
  if (total > budget) {
    const usage = options.usage;
    const dropOrder = lines
      .map((line, index) => ({ index, uses: usage?.get(line.name) ?? 0 }))
      .sort((a, b) => a.uses - b.uses || b.index - a.index);
    for (const { index } of dropOrder) {
      if (total <= budget) break;
      const line = lines[index];
      if (line === undefined || chosen[index] === line.short) continue;
      total -= (chosen[index]?.length ?? 0) - line.short.length;
      chosen[index] = line.short;
    }
  }
  return chosen.join("\n");
}
