/**
 * What a session needs of its extensions before the first request — the catalogue text, how many
 * skills the model may call, whether any carries hooks, the problems to report — kept beside the
 * index cache with the stamps of the scan that found its files (stamps.ts: every stat and folder
 * listing it made). When those come out the same, start-up reads this one record and looks at
 * the same files and folders again: the registry itself is built only when something is
 * invoked, listed or completed.
 */
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { asciiJson, readAsciiJson } from "../util/ascii-json.ts";
import { writeFileAtomic } from "../util/atomic-write.ts";
import { CACHE_VERSION, IndexCache } from "./index-cache.ts";
import { scanSource, type ScanEntry } from "./scan.ts";
import { sourceIdentity } from "./sources.ts";
import { isStamps, stampRecorder, stampsHold, type Stamps } from "./stamps.ts";
import type { SkillOverrides } from "./overrides.ts";
import type { ComponentSource, ExtensionProblem, SourceSet } from "./types.ts";

const SUMMARY_VERSION = 10;

export interface StartupSummary {
  /** skillCatalogue's text for the model-invocable items (no header). */
  catalogue: string;
  modelInvocable: number;
  /** Some skill or command has frontmatter hooks (the hook engine must be ready for it). */
  withHooks: boolean;
  /** Problems of severity error, to report at start-up. */
  errors: ExtensionProblem[];
  /** The active agent definitions, for the Agent tool's list of helper types, as it lists them: sorted, on one line, cut to its budget (see extensions-setup). */
  agents: AgentListing[];
  /** The Agent tool's listing of `agents` (app/agent-listing.ts), formatted when the summary was written. */
  agentLines?: AgentListingLines;
  /** Names for stream-json's `system/init`: what the user may type as `/name`, and the skills, each sorted. */
  names: { commands: string[]; skills: string[] };
}

export interface AgentListingLines {
  lines: string[];
  /** Some description in the lines was cut to fit the listing's budget. */
  shortened: boolean;
  /** The listing's format and budget when the lines were made (a stored listing of another is not used). */
  format?: string;
}

export interface AgentListing {
  name: string;
  description: string;
  tools?: string[];
  /** The description was cut to the Agent tool's listing budget when the summary was written. */
  shortened?: true;
}

interface StoredSummary extends StartupSummary {
  version: number;
  stamps: Stamps;
}

function summaryPath(cacheDir: string, sources: readonly ComponentSource[], set: SourceSet | undefined, budget: number, overrides: SkillOverrides | undefined): string {
  // The index cache's version too: a change to how files are parsed must not be served from an older summary.
  const key = JSON.stringify([SUMMARY_VERSION, CACHE_VERSION, budget, sources.map(sourceIdentity), set?.digest ?? "", overrides ?? {}]);
  return join(cacheDir, `summary-${Bun.hash(key).toString(36)}.json`);
}

/** The sources whose folders a summary depends on: a versioned install never changes in place. */
function watchedSources(sources: readonly ComponentSource[], set: SourceSet | undefined): ComponentSource[] {
  // A versioned install never changes in place (the plugin layer checks its files at start-up,
  // and an update is a new folder): its folder names its content, and the summary's file name
  // names the folder (summaryPath), so nothing of it is looked at here.
  return (set && !set.immutable ? [...sources, ...set.list()] : [...sources]).filter((source) => source.immutable !== true);
}

/** Scans the sources as they are now: their entries, and the stamps that tell later that nothing changed. */
function scanWatched(sources: readonly ComponentSource[], set: SourceSet | undefined): { scans: { source: ComponentSource; entries: ScanEntry[] }[]; stamps: Stamps } {
  const { recorder, stamps } = stampRecorder();
  const scans = watchedSources(sources, set).map((source) => ({ source, entries: scanSource(source, recorder).entries }));
  return { scans, stamps };
}

/** Whether every component file is in the index cache as it is now (a full load just wrote them there). */
function allIndexed(scans: readonly { source: ComponentSource; entries: ScanEntry[] }[], cacheDir: string): boolean {
  for (const { source, entries } of scans) {
    if (entries.length === 0) continue;
    const cache = IndexCache.open(cacheDir, source);
    if (!entries.every((entry) => cache.lookup(entry) !== undefined)) return false;
  }
  return true;
}

/** The stored listing's shape (its lines are not looked at one by one: a start would pay for hundreds). */
function isListing(value: unknown): value is AgentListingLines {
  const listing = value as Partial<AgentListingLines> | undefined;
  return typeof listing?.shortened === "boolean" && Array.isArray(listing.lines);
}

/** The summary of the last full load over `sources` then `set`, if no component file changed since. */
export function cachedSummary(sources: readonly ComponentSource[], set: SourceSet | undefined, cacheDir: string, budget: number, overrides?: SkillOverrides): { summary?: StartupSummary } {
  let stored: Partial<StoredSummary>;
  try {
    stored = readAsciiJson(summaryPath(cacheDir, sources, set, budget, overrides)) as Partial<StoredSummary>;
  } catch {
    // No summary yet, or a damaged one: the caller loads in full and writes a new one.
    return {};
  }
  if (stored.version !== SUMMARY_VERSION || typeof stored.catalogue !== "string" || !isStamps(stored.stamps) || !stampsHold(stored.stamps)) return {};
  const agentLines = isListing(stored.agentLines) ? { agentLines: stored.agentLines } : {};
  const names = Array.isArray(stored.names?.commands) && Array.isArray(stored.names.skills) ? stored.names : { commands: [], skills: [] };
  return { summary: { catalogue: stored.catalogue, modelInvocable: stored.modelInvocable ?? 0, withHooks: stored.withHooks === true, errors: stored.errors ?? [], agents: stored.agents ?? [], ...agentLines, names } };
}

/** Records the summary of a full load; a failed write only costs speed next time. */
export async function saveSummary(sources: readonly ComponentSource[], set: SourceSet | undefined, cacheDir: string, budget: number, summary: StartupSummary, overrides?: SkillOverrides): Promise<void> {
  // Only a load whose files all reached the index cache is summarised: one that could not write
  // the cache (a read-only state dir) would parse them all again on the way to the registry anyway.
  const { scans, stamps } = scanWatched(sources, set);
  if (!allIndexed(scans, cacheDir)) return;
  const path = summaryPath(cacheDir, sources, set, budget, overrides);
  try {
    mkdirSync(dirname(path), { recursive: true });
    // ASCII only (the rest escaped): read back as latin1, with no UTF-8 to decode on every start.
    await writeFileAtomic(path, asciiJson({ version: SUMMARY_VERSION, ...summary, stamps } satisfies StoredSummary));
  } catch {
    // A read-only state dir: every start loads in full.
  }
}
