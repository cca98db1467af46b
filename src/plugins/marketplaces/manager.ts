/**
 * Adding, listing, updating and removing marketplaces (marketplaces.md §6–7, §10). The
 * marketplace's own `name` is its id; state lives in `<pluginsDir>/known_marketplaces.json`, git
 * copies in `<pluginsDir>/marketplaces/<name>/`. Every operation returns a result with an error
 * `code` instead of throwing, so one bad marketplace never stops the others.
 */
import { rm } from "node:fs/promises";
import { join, relative } from "node:path";
import type { GitContext } from "../git/clone.ts";
import { readCatalogSummary } from "./catalog.ts";
import { commitStaged, discardStaged, materialize, MaterializeError } from "./materialize.ts";
import { defaultAutoUpdate, reservedNameRefusal } from "./reserved.ts";
import { describeSource, type MarketplaceSource, parseMarketplaceInput } from "./sources.ts";
import { type KnownMarketplace, marketplacesDir, readKnownMarketplaces, StateFileError, writeKnownMarketplaces } from "./state.ts";

export type MarketplaceErrorCode =
  | "invalid-source"
  | "reserved-name"
  | "invalid-catalog"
  | "auth"
  | "network"
  | "not-found"
  | "invalid"
  | "git"
  | "download"
  | "unknown-marketplace"
  | "state-file";

export type Outcome<T> = { ok: true; value: T; notes: string[] } | { ok: false; code: MarketplaceErrorCode; error: string };

export interface MarketplaceContext {
  pluginsDir: string;
  cwd: string;
  homeDir: string;
  /** The user's environment, handed to git whole. */
  env: Record<string, string>;
  githubToken?: string;
  /** Background runs: git fails instead of prompting. */
  nonInteractive?: boolean;
  now?: () => Date;
}

export interface AddOptions {
  /**
   * TEST ONLY (conformance of the official corpus catalogs from local copies): accept a reserved
   * name from a source that is not Anthropic's. No CLI flag reaches this.
   */
  allowReservedNames?: boolean;
  autoUpdate?: boolean;
}

export interface AddedMarketplace {
  name: string;
  record: KnownMarketplace;
  pluginCount: number;
  /** A marketplace of this name was registered before and this add replaced it. */
  replaced?: MarketplaceSource;
}

export function gitContext(context: MarketplaceContext): GitContext {
  return {
    env: context.env,
    ...(context.githubToken !== undefined ? { githubToken: context.githubToken } : {}),
    ...(context.nonInteractive ? { nonInteractive: true } : {}),
  };
}

function failure<T>(error: unknown): Outcome<T> {
  if (error instanceof MaterializeError) return { ok: false, code: error.code, error: error.message };
  if (error instanceof StateFileError) return { ok: false, code: "state-file", error: error.message };
  throw error;
}

function nowIso(context: MarketplaceContext): string {
  return (context.now?.() ?? new Date()).toISOString();
}

export async function addMarketplace(input: string | MarketplaceSource, context: MarketplaceContext, options: AddOptions = {}): Promise<Outcome<AddedMarketplace>> {
  let source: MarketplaceSource;
  if (typeof input === "string") {
    const parsed = parseMarketplaceInput(input, context.cwd, context.homeDir);
    if (!parsed.ok) return { ok: false, code: "invalid-source", error: parsed.error };
    source = parsed.source;
  } else {
    source = input;
  }
  try {
    const state = await readKnownMarketplaces(context.pluginsDir);
    const staged = await materialize(source, context.pluginsDir, gitContext(context));
    const catalog = await readCatalogSummary(staged.root);
    if (!catalog.ok) {
      await discardStaged(staged);
      return { ok: false, code: "invalid-catalog", error: catalog.error };
    }
    const { name, pluginCount } = catalog.catalog;
    const refusal = options.allowReservedNames ? undefined : reservedNameRefusal(name, source);
    if (refusal) {
      await discardStaged(staged);
      return { ok: false, code: "reserved-name", error: refusal };
    }
    const previous = state.marketplaces[name];
    const installLocation = await commitStaged(staged, context.pluginsDir, name);
    const autoUpdate = options.autoUpdate ?? previous?.autoUpdate;
    const record: KnownMarketplace = {
      source,
      installLocation,
      lastUpdated: nowIso(context),
      ...(autoUpdate !== undefined ? { autoUpdate } : {}),
      ...(staged.commit !== undefined ? { commit: staged.commit } : {}),
    };
    // A previous copy of another form (a git clone replaced by a local folder) must not linger.
    if (previous && staged.inPlace) await removeOwnCopy(previous, name, context.pluginsDir);
    state.marketplaces[name] = record;
    await writeKnownMarketplaces(context.pluginsDir, state.marketplaces, state.unreadable);
    const notes = [...state.problems];
    if (previous) notes.push(`A marketplace named '${name}' was already added (from ${describeSource(previous.source)}); it now comes from ${describeSource(source)}.`);
    if (source.source === "url") notes.push("Only the catalog was downloaded: plugins with relative sources cannot be installed from a marketplace added by URL.");
    return { ok: true, value: { name, record, pluginCount, ...(previous ? { replaced: previous.source } : {}) }, notes };
  } catch (error) {
    return failure(error);
  }
}

export interface ListedMarketplace {
  name: string;
  source: MarketplaceSource["source"];
  repo?: string;
  url?: string;
  path?: string;
  ref?: string;
  installLocation: string;
  lastUpdated: string;
  autoUpdate: boolean;
  commit?: string;
  /** null when the catalog could not be read (then `error` says why). */
  pluginCount: number | null;
  error?: string;
}

function sourceFields(source: MarketplaceSource): Pick<ListedMarketplace, "repo" | "url" | "path" | "ref"> {
  switch (source.source) {
    case "github":
      return { repo: source.repo, ...(source.ref ? { ref: source.ref } : {}), ...(source.path ? { path: source.path } : {}) };
    case "git":
      return { url: source.url, ...(source.ref ? { ref: source.ref } : {}), ...(source.path ? { path: source.path } : {}) };
    case "url":
      return { url: source.url };
    case "file":
    case "directory":
      return { path: source.path };
  }
}

export function effectiveAutoUpdate(name: string, record: KnownMarketplace): boolean {
  return record.autoUpdate ?? defaultAutoUpdate(name, record.source);
}

export async function listMarketplaces(context: MarketplaceContext): Promise<Outcome<ListedMarketplace[]>> {
  try {
    const state = await readKnownMarketplaces(context.pluginsDir);
    const listed: ListedMarketplace[] = [];
    for (const [name, record] of Object.entries(state.marketplaces).sort(([a], [b]) => a.localeCompare(b))) {
      const catalog = await readCatalogSummary(record.installLocation);
      listed.push({
        name,
        source: record.source.source,
        ...sourceFields(record.source),
        installLocation: record.installLocation,
        lastUpdated: record.lastUpdated,
        autoUpdate: effectiveAutoUpdate(name, record),
        ...(record.commit !== undefined ? { commit: record.commit } : {}),
        pluginCount: catalog.ok ? catalog.catalog.pluginCount : null,
        ...(catalog.ok ? {} : { error: catalog.error }),
      });
    }
    return { ok: true, value: listed, notes: state.problems };
  } catch (error) {
    return failure(error);
  }
}

/** Deletes clew's own copy of a marketplace — never a folder the user added in place. */
async function removeOwnCopy(record: KnownMarketplace, name: string, pluginsDir: string): Promise<boolean> {
  const own = join(marketplacesDir(pluginsDir), name);
  const inside = relative(own, record.installLocation);
  if (inside.startsWith("..") || record.source.source === "directory") return false;
  await rm(own, { recursive: true, force: true });
  return true;
}

export interface RemovedMarketplace {
  name: string;
  source: MarketplaceSource;
  /** Whether clew deleted its copy (folders added in place are left alone). */
  deletedCopy: boolean;
}

export async function removeMarketplace(name: string, context: MarketplaceContext): Promise<Outcome<RemovedMarketplace>> {
  try {
    const state = await readKnownMarketplaces(context.pluginsDir);
    const record = state.marketplaces[name];
    if (!record) return unknownMarketplace(name, Object.keys(state.marketplaces));
    const deletedCopy = await removeOwnCopy(record, name, context.pluginsDir);
    delete state.marketplaces[name];
    await writeKnownMarketplaces(context.pluginsDir, state.marketplaces, state.unreadable);
    return { ok: true, value: { name, source: record.source, deletedCopy }, notes: state.problems };
  } catch (error) {
    return failure(error);
  }
}

export function unknownMarketplace<T>(name: string, known: string[]): Outcome<T> {
  const list = known.length > 0 ? `Added marketplaces: ${known.sort().join(", ")}.` : "No marketplaces are added yet; add one with `clew plugin marketplace add <source>`.";
  return { ok: false, code: "unknown-marketplace", error: `Marketplace '${name}' not found. ${list}` };
}
