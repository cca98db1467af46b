// Conformance: every corpus marketplace, turned into a local git repository, adds with
// addMarketplace and lists with EXPECTED.json's name and pluginCount. The official catalogs use
// reserved names; from a local repository they must be refused, and are then added with the
// test-only allowReservedNames override to check their counts too.
import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { addMarketplace, listMarketplaces, type MarketplaceContext } from "../../src/plugins/marketplaces/manager.ts";
import { isReservedName } from "../../src/plugins/marketplaces/reserved.ts";
import { corpusRepo, expectedCorpus } from "../helpers/corpus-marketplaces.ts";

const RESERVED_IN_CORPUS = ["claude-plugins-official", "financial-services-plugins", "knowledge-work-plugins"];

describe("corpus marketplaces as git repositories", () => {
  const expected = expectedCorpus();

  test("the corpus has its 14 marketplaces, three of them under reserved official names", () => {
    expect(expected.length).toBe(14);
    expect(expected.filter((market) => isReservedName(market.name)).map((market) => market.name).sort()).toEqual(RESERVED_IN_CORPUS);
  });

  test("every one adds over file:// and lists with its pluginCount", async () => {
    const home = mkdtempSync(join(tmpdir(), "corpus-home-"));
    const ctx: MarketplaceContext = { pluginsDir: join(home, "plugins"), cwd: home, homeDir: home, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home } };
    const parent = mkdtempSync(join(tmpdir(), "corpus-repos-"));
    const refusals: Record<string, string> = {};
    for (const market of expected) {
      const repo = corpusRepo(market.dir, parent);
      const plain = await addMarketplace(repo.url, ctx);
      if (isReservedName(market.name)) {
        refusals[market.name] = plain.ok ? "added" : plain.code;
        const overridden = await addMarketplace(repo.url, ctx, { allowReservedNames: true });
        expect(overridden.ok ? overridden.value.name : overridden.error).toBe(market.name);
      } else {
        expect(plain.ok ? { name: plain.value.name, count: plain.value.pluginCount } : plain.error).toEqual({ name: market.name, count: market.pluginCount });
      }
    }
    expect(refusals).toEqual(Object.fromEntries(RESERVED_IN_CORPUS.map((name) => [name, "reserved-name"])));
    const listed = await listMarketplaces(ctx);
    if (!listed.ok) throw new Error(listed.error);
    const counts = Object.fromEntries(listed.value.map((entry) => [entry.name, entry.pluginCount]));
    expect(counts).toEqual(Object.fromEntries(expected.map((market) => [market.name, market.pluginCount])));
  }, 300_000);
});
