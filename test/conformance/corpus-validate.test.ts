// Conformance of `clew plugin validate` with the shared corpus (../shared/corpus/EXPECTED.json):
// for each of the 14 real marketplaces, validatePath reports exactly the expected per-entry
// status, source, component ids, hook events with handler counts, MCP and LSP server names and
// finding codes with their levels (message text is clew's own). The corpus is read in place.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { validatePath } from "../../src/app/plugin-validate.ts";
import { comparableMarketplace, entryMismatches, expectedMarketplaces } from "../helpers/corpus-expect.ts";
import { sharedDir } from "../helpers/shared-dir.ts";

const CORPUS = join(sharedDir(), "corpus");
const expected = expectedMarketplaces();

describe("validate conforms to the corpus", () => {
  test("the corpus holds the 14 marketplaces and 610 entries EXPECTED.md describes", () => {
    expect(expected.length).toBe(14);
    expect(expected.reduce((sum, marketplace) => sum + marketplace.pluginCount, 0)).toBe(610);
  });

  for (const marketplace of expected) {
    test(marketplace.dir, async () => {
      const report = await validatePath(join(CORPUS, "marketplaces", marketplace.dir), { strict: false });
      expect(report.kind).toBe("marketplace");
      expect(comparableMarketplace(report.marketplace)).toEqual(comparableMarketplace(marketplace));
      expect(entryMismatches(report.marketplace, marketplace)).toEqual([]);
    });
  }
});
