/**
 * `marketplace update [name]`: refresh one or every marketplace. Remote copies are fetched into a
 * staging folder and swapped in only when complete and readable; on any failure the last good
 * copy stays registered and in use, and the result says so.
 */
import { readCatalogSummary } from "./catalog.ts";
import { type AddOptions, gitContext, type MarketplaceContext, type MarketplaceErrorCode, type Outcome, unknownMarketplace } from "./manager.ts";
import { commitStaged, discardStaged, materialize, MaterializeError } from "./materialize.ts";
import { reservedNameRefusal } from "./reserved.ts";
import { type KnownMarketplace, readKnownMarketplaces, StateFileError, writeKnownMarketplaces } from "./state.ts";

export type UpdateResult =
  | { name: string; ok: true; pluginCount: number; commit?: string; previousCommit?: string; changed: boolean; notes: string[] }
  | { name: string; ok: false; code: MarketplaceErrorCode; error: string; keptLastGood: boolean };

async function refreshOne(name: string, record: KnownMarketplace, context: MarketplaceContext, options: AddOptions): Promise<{ result: UpdateResult; record?: KnownMarketplace }> {
  let staged;
  try {
    staged = await materialize(record.source, context.pluginsDir, gitContext(context));
  } catch (error) {
    if (!(error instanceof MaterializeError)) throw error;
    return { result: { name, ok: false, code: error.code, error: `${error.message} Kept the last good copy of '${name}' (updated ${record.lastUpdated}).`, keptLastGood: true } };
  }
  const catalog = await readCatalogSummary(staged.root);
  if (!catalog.ok) {
    await discardStaged(staged);
    return { result: { name, ok: false, code: "invalid-catalog", error: `${catalog.error} Kept the last good copy of '${name}'.`, keptLastGood: true } };
  }
  const refusal = options.allowReservedNames ? undefined : reservedNameRefusal(catalog.catalog.name, record.source);
  if (refusal) {
    await discardStaged(staged);
    return { result: { name, ok: false, code: "reserved-name", error: refusal, keptLastGood: true } };
  }
  const notes: string[] = [];
  if (catalog.catalog.name !== name) {
    notes.push(`The catalog now calls itself '${catalog.catalog.name}'; it stays registered as '${name}' (remove and add it again to use the new name).`);
  }
  const installLocation = await commitStaged(staged, context.pluginsDir, name);
  const updated: KnownMarketplace = {
    ...record,
    installLocation,
    lastUpdated: (context.now?.() ?? new Date()).toISOString(),
    ...(staged.commit !== undefined ? { commit: staged.commit } : {}),
  };
  const changed = staged.commit === undefined || staged.commit !== record.commit;
  return {
    result: {
      name,
      ok: true,
      pluginCount: catalog.catalog.pluginCount,
      ...(staged.commit !== undefined ? { commit: staged.commit } : {}),
      ...(record.commit !== undefined ? { previousCommit: record.commit } : {}),
      changed,
      notes,
    },
    record: updated,
  };
}

/** Updates `name`, or every marketplace when it is undefined; one failure never stops the rest. */
export async function updateMarketplace(name: string | undefined, context: MarketplaceContext, options: AddOptions = {}): Promise<Outcome<UpdateResult[]>> {
  try {
    const state = await readKnownMarketplaces(context.pluginsDir);
    const names = name === undefined ? Object.keys(state.marketplaces).sort() : [name];
    if (name !== undefined && !state.marketplaces[name]) return unknownMarketplace(name, Object.keys(state.marketplaces));
    const results: UpdateResult[] = [];
    for (const each of names) {
      const record = state.marketplaces[each];
      if (!record) continue;
      const { result, record: updated } = await refreshOne(each, record, context, options);
      results.push(result);
      if (updated) {
        // Re-read before writing: another clew may have added or removed a marketplace meanwhile.
        const latest = await readKnownMarketplaces(context.pluginsDir);
        if (latest.marketplaces[each]) {
          latest.marketplaces[each] = updated;
          await writeKnownMarketplaces(context.pluginsDir, latest.marketplaces, latest.unreadable);
        }
      }
    }
    return { ok: true, value: results, notes: state.problems };
  } catch (error) {
    if (error instanceof StateFileError) return { ok: false, code: "state-file", error: error.message };
    throw error;
  }
}
