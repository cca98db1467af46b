/**
 * Background refresh of marketplaces (marketplaces.md §10): only those with auto-update on
 * (official ones by default, third-party ones when the user turned it on), never before the
 * first prompt (the session calls this after it), git never prompting, and failures only
 * reported — the last good copy stays in use.
 */
import { effectiveAutoUpdate, type MarketplaceContext } from "./manager.ts";
import type { KnownMarketplaces } from "./state.ts";
import { readKnownMarketplaces } from "./state.ts";
import { type UpdateResult, updateMarketplace } from "./update.ts";

/** A marketplace refreshed less than this long ago is left alone (many sessions start in a day). */
export const AUTO_UPDATE_INTERVAL_MS = 60 * 60 * 1000;

export interface AutoUpdatePolicy {
  /** DISABLE_AUTOUPDATER / CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC. */
  disabled: boolean;
  /** FORCE_AUTOUPDATE_PLUGINS: refresh even when disabled is set. */
  forced: boolean;
}

/** Names of the marketplaces due for a background refresh at `now`. Pure. */
export function autoUpdateDue(state: KnownMarketplaces, now: Date, policy: AutoUpdatePolicy = { disabled: false, forced: false }): string[] {
  if (policy.disabled && !policy.forced) return [];
  return Object.entries(state)
    .filter(([name, record]) => {
      if (!effectiveAutoUpdate(name, record)) return false;
      if (record.source.source === "directory" || record.source.source === "file") return false;
      const last = Date.parse(record.lastUpdated);
      return !Number.isFinite(last) || now.getTime() - last >= AUTO_UPDATE_INTERVAL_MS;
    })
    .map(([name]) => name)
    .sort();
}

/**
 * Refreshes every due marketplace, one after another; resolves with what happened and never
 * rejects (a background task must not crash the session). Stops early when `signal` aborts.
 */
export async function updateInBackground(context: MarketplaceContext, policy: AutoUpdatePolicy, signal?: AbortSignal): Promise<UpdateResult[]> {
  const results: UpdateResult[] = [];
  try {
    const { marketplaces } = await readKnownMarketplaces(context.pluginsDir);
    const due = autoUpdateDue(marketplaces, context.now?.() ?? new Date(), policy);
    for (const name of due) {
      if (signal?.aborted) break;
      const outcome = await updateMarketplace(name, { ...context, nonInteractive: true });
      if (outcome.ok) results.push(...outcome.value);
      else results.push({ name, ok: false, code: outcome.code, error: outcome.error, keptLastGood: true });
    }
  } catch (error) {
    results.push({ name: "*", ok: false, code: "state-file", error: (error as Error).message, keptLastGood: true });
  }
  return results;
}
