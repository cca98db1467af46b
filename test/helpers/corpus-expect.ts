/**
 * EXPECTED.json (../shared/corpus/) in the terms `clew plugin validate --json` reports, so every
 * conformance test compares the same fields: per marketplace its name, owner, validity, entry
 * count, nested catalogs, finding codes and totals; per entry its status, source, component ids,
 * hook events with handler counts, MCP and LSP server names and finding codes with their levels
 * (message text is clew's own, so it is not compared).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { sharedDir } from "./shared-dir.ts";

export interface Finding {
  level: string;
  code: string;
}

/** One entry as both EXPECTED.json and the validate report carry it (fields the report may omit are optional). */
export interface EntryReport {
  index?: number;
  name: string;
  sourceKind: string;
  source: unknown;
  status: string;
  strict: boolean | null;
  hasManifest: boolean;
  skills: readonly string[];
  commands: readonly string[];
  agents: readonly string[];
  outputStyles: readonly string[];
  hookEvents: Record<string, number>;
  hookHandlers: number;
  mcpServers: readonly string[];
  lspServers: readonly string[];
  issues: readonly Finding[];
  root?: string;
  manifestName?: string;
  displayName?: string;
  invalidReason?: string;
}

export interface MarketplaceReport {
  name: string;
  ownerName?: string;
  valid: boolean;
  pluginCount: number;
  nestedMarketplaces: readonly string[];
  issues: readonly Finding[];
  totals: Record<string, number>;
  plugins: readonly EntryReport[];
}

export interface ExpectedMarketplace extends MarketplaceReport {
  /** The folder under corpus/marketplaces/. */
  dir: string;
}

export function expectedMarketplaces(): ExpectedMarketplace[] {
  return JSON.parse(readFileSync(join(sharedDir(), "corpus/EXPECTED.json"), "utf8")) as ExpectedMarketplace[];
}

export const findings = (issues: readonly Finding[]): string[] => issues.map((issue) => `${issue.level} ${issue.code}`).sort();

/** The comparable part of one entry. */
export function comparableEntry(entry: EntryReport): Record<string, unknown> {
  return {
    index: entry.index,
    name: entry.name,
    sourceKind: entry.sourceKind,
    source: entry.source,
    status: entry.status,
    strict: entry.strict,
    hasManifest: entry.hasManifest,
    root: entry.root,
    manifestName: entry.manifestName,
    displayName: entry.displayName,
    invalidReason: entry.invalidReason,
    skills: [...entry.skills].sort(),
    commands: [...entry.commands].sort(),
    agents: [...entry.agents].sort(),
    outputStyles: [...entry.outputStyles].sort(),
    hookEvents: entry.hookEvents,
    hookHandlers: entry.hookHandlers,
    mcpServers: [...entry.mcpServers].sort(),
    lspServers: [...entry.lspServers].sort(),
    issues: findings(entry.issues),
  };
}

/** The marketplace-level part (entries are compared one by one with `entryMismatches`). */
export function comparableMarketplace(report: MarketplaceReport | undefined): Record<string, unknown> {
  return {
    name: report?.name,
    ownerName: report?.ownerName,
    valid: report?.valid,
    pluginCount: report?.pluginCount,
    nestedMarketplaces: report?.nestedMarketplaces,
    issues: findings(report?.issues ?? []),
    totals: report?.totals,
  };
}

/** Every entry whose comparable part differs, with both sides; empty when all match. */
export function entryMismatches(got: MarketplaceReport | undefined, want: MarketplaceReport): Array<{ have: unknown; want: unknown }> {
  const mismatches = want.plugins.flatMap((expected, index) => {
    const have = got?.plugins[index];
    const a = have === undefined ? undefined : comparableEntry(have);
    const b = comparableEntry(expected);
    return JSON.stringify(a) === JSON.stringify(b) ? [] : [{ have: a, want: b }];
  });
  const extra = (got?.plugins ?? []).slice(want.plugins.length).map((have) => ({ have: comparableEntry(have), want: undefined }));
  return [...mismatches, ...extra];
}
