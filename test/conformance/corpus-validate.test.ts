// Conformance of `clew plugin validate` with the shared corpus (../shared/corpus/EXPECTED.json):
// for each of the 14 real marketplaces, validatePath reports exactly the expected per-entry
// status, source, component ids, hook events with handler counts, MCP and LSP server names and
// finding codes with their levels (message text is clew's own). The corpus is read in place.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type PluginReport, validatePath, type ValidationReport } from "../../src/app/plugin-validate.ts";
import { sharedDir } from "../helpers/shared-dir.ts";

const CORPUS = join(sharedDir(), "corpus");

interface ExpectedPlugin {
  index: number;
  name: string;
  sourceKind: string;
  source: unknown;
  status: string;
  strict: boolean | null;
  hasManifest: boolean;
  skills: string[];
  commands: string[];
  agents: string[];
  outputStyles: string[];
  hookEvents: Record<string, number>;
  hookHandlers: number;
  mcpServers: string[];
  lspServers: string[];
  issues: { level: string; code: string }[];
  root?: string;
  manifestName?: string;
  displayName?: string;
  invalidReason?: string;
}

interface ExpectedMarketplace {
  dir: string;
  name: string;
  ownerName: string;
  valid: boolean;
  pluginCount: number;
  nestedMarketplaces: string[];
  issues: { level: string; code: string }[];
  totals: Record<string, number>;
  plugins: ExpectedPlugin[];
}

const expected = JSON.parse(readFileSync(join(CORPUS, "EXPECTED.json"), "utf8")) as ExpectedMarketplace[];

const findings = (issues: readonly { level: string; code: string }[]): string[] => issues.map((issue) => `${issue.level} ${issue.code}`).sort();

/** The comparable part of a plugin report, in EXPECTED.json's terms. */
function comparable(plugin: PluginReport | ExpectedPlugin): Record<string, unknown> {
  return {
    index: plugin.index,
    name: plugin.name,
    sourceKind: plugin.sourceKind,
    source: plugin.source,
    status: plugin.status,
    strict: plugin.strict,
    hasManifest: plugin.hasManifest,
    root: plugin.root,
    manifestName: plugin.manifestName,
    displayName: plugin.displayName,
    invalidReason: plugin.invalidReason,
    skills: [...plugin.skills].sort(),
    commands: [...plugin.commands].sort(),
    agents: [...plugin.agents].sort(),
    outputStyles: [...plugin.outputStyles].sort(),
    hookEvents: plugin.hookEvents,
    hookHandlers: plugin.hookHandlers,
    mcpServers: [...plugin.mcpServers].sort(),
    lspServers: [...plugin.lspServers].sort(),
    issues: findings(plugin.issues),
  };
}

const reports = new Map<string, ValidationReport>();

describe("validate conforms to the corpus", () => {
  test("the corpus holds the 14 marketplaces and 610 entries EXPECTED.md describes", () => {
    expect(expected.length).toBe(14);
    expect(expected.reduce((sum, marketplace) => sum + marketplace.pluginCount, 0)).toBe(610);
  });

  for (const marketplace of expected) {
    test(marketplace.dir, async () => {
      const report = await validatePath(join(CORPUS, "marketplaces", marketplace.dir), { strict: false });
      reports.set(marketplace.dir, report);
      expect(report.kind).toBe("marketplace");
      const got = report.marketplace;
      expect({
        name: got?.name,
        ownerName: got?.ownerName,
        valid: got?.valid,
        pluginCount: got?.pluginCount,
        nestedMarketplaces: got?.nestedMarketplaces,
        issues: findings(got?.issues ?? []),
        totals: got?.totals,
      }).toEqual({
        name: marketplace.name,
        ownerName: marketplace.ownerName,
        valid: marketplace.valid,
        pluginCount: marketplace.pluginCount,
        nestedMarketplaces: marketplace.nestedMarketplaces,
        issues: findings(marketplace.issues),
        totals: marketplace.totals,
      });
      const mismatches = marketplace.plugins.flatMap((want, index) => {
        const have = got?.plugins[index];
        const a = have === undefined ? undefined : comparable(have);
        const b = comparable(want);
        return JSON.stringify(a) === JSON.stringify(b) ? [] : [{ have: a, want: b }];
      });
      expect(mismatches).toEqual([]);
      expect(got?.plugins.length).toBe(marketplace.plugins.length);
    });
  }
});
