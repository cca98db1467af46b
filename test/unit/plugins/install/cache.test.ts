// The content-addressed cache: canonical hashes, the symlink rules of the copy, re-use of an
// identical entry, and tamper detection (full and quick checks).
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { putInCache } from "../../../../src/plugins/install/cache.ts";
import { canonicalListing, contentHash, listingStamp } from "../../../../src/plugins/install/content-hash.ts";
import { copyPluginTree } from "../../../../src/plugins/install/copy-tree.ts";
import { verifyInstall, verifyInstallQuick } from "../../../../src/plugins/install/verify.ts";
import type { StoredInstallRecord } from "../../../../src/plugins/install/records.ts";

function temp(): string {
  return mkdtempSync(join(tmpdir(), "clew-cache-"));
}

function write(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

function marketplaceWithPlugin(): { market: string; plugin: string } {
  const market = temp();
  write(market, { "plugins/fmt/commands/fmt.md": "# fmt\n", "plugins/fmt/bin/run": "#!/bin/sh\n", "shared/style.md": "style\n", "plugins/fmt/.git/HEAD": "ref\n" });
  chmodSync(join(market, "plugins/fmt/bin/run"), 0o755);
  const plugin = join(market, "plugins/fmt");
  symlinkSync("commands/fmt.md", join(plugin, "alias.md"));
  symlinkSync("../../shared/style.md", join(plugin, "style.md"));
  const outside = temp();
  write(outside, { "secret.txt": "no\n" });
  symlinkSync(join(outside, "secret.txt"), join(plugin, "secret.txt"));
  return { market, plugin };
}

describe("content hash", () => {
  test("canonical listing: sorted paths, exec bit only, symlinks by target; the same tree hashes the same anywhere", () => {
    const a = temp();
    write(a, { "b.md": "b", "a/x.md": "x" });
    symlinkSync("b.md", join(a, "link"));
    chmodSync(join(a, "b.md"), 0o700);
    expect(canonicalListing(a)).toEqual([
      JSON.stringify(["a/x.md", "file", "644", new Bun.CryptoHasher("sha256").update("x").digest("hex")]),
      JSON.stringify(["b.md", "file", "755", new Bun.CryptoHasher("sha256").update("b").digest("hex")]),
      JSON.stringify(["link", "link", "b.md"]),
    ]);
    const b = temp();
    write(b, { "a/x.md": "x", "b.md": "b" });
    symlinkSync("b.md", join(b, "link"));
    chmodSync(join(b, "b.md"), 0o750);
    expect(contentHash(b)).toBe(contentHash(a));
    writeFileSync(join(b, "a/x.md"), "y");
    expect(contentHash(b)).not.toBe(contentHash(a));
  });
});

describe("copy into the cache", () => {
  test("in-plugin links stay links, marketplace links are copied, outside links and .git are left out", () => {
    const { market, plugin } = marketplaceWithPlugin();
    const to = join(temp(), "copy");
    const report = copyPluginTree(plugin, to, market);
    expect(report.skipped).toEqual([{ path: "secret.txt", target: expect.stringContaining("secret.txt"), reason: "it points outside the marketplace" }]);
    expect(readlinkSync(join(to, "alias.md"))).toBe("commands/fmt.md");
    expect(lstatSync(join(to, "style.md")).isFile()).toBe(true);
    expect(readFileSync(join(to, "style.md"), "utf8")).toBe("style\n");
    expect(existsSync(join(to, ".git"))).toBe(false);
    expect(existsSync(join(to, "secret.txt"))).toBe(false);
    expect(lstatSync(join(to, "bin/run")).mode & 0o111).not.toBe(0);
  });

  test("an unchanged tree re-uses its entry; a changed one gets a new entry named by its hash", () => {
    const { market, plugin } = marketplaceWithPlugin();
    const pluginsDir = temp();
    const first = putInCache({ pluginsDir, marketplace: "team", plugin: "fmt", from: plugin, marketplaceRoot: market });
    expect(first.reused).toBe(false);
    expect(first.dir).toBe(join(pluginsDir, "cache", "team", "fmt", first.contentHash.slice(0, 12)));
    expect(contentHash(first.dir)).toBe(first.contentHash);
    const again = putInCache({ pluginsDir, marketplace: "team", plugin: "fmt", from: plugin, marketplaceRoot: market });
    expect({ dir: again.dir, reused: again.reused, hash: again.contentHash }).toEqual({ dir: first.dir, reused: true, hash: first.contentHash });
    writeFileSync(join(plugin, "commands/fmt.md"), "# fmt v2\n");
    const changed = putInCache({ pluginsDir, marketplace: "team", plugin: "fmt", from: plugin, marketplaceRoot: market });
    expect(changed.reused).toBe(false);
    expect(changed.dir).not.toBe(first.dir);
    expect(existsSync(first.dir)).toBe(true);
  });
});

describe("verifyInstall", () => {
  function installed(): StoredInstallRecord {
    const { market, plugin } = marketplaceWithPlugin();
    const entry = putInCache({ pluginsDir: temp(), marketplace: "team", plugin: "fmt", from: plugin, marketplaceRoot: market });
    const now = new Date(0).toISOString();
    return {
      scope: "user", installPath: entry.dir, version: "1.0.0", installedAt: now, lastUpdated: now,
      contentHash: entry.contentHash, listingStamp: entry.listingStamp, source: { kind: "relative", path: "./plugins/fmt" }, marketplace: "team",
    };
  }

  test("an untouched entry passes both checks", () => {
    const record = installed();
    expect(verifyInstall(record)).toEqual({ ok: true });
    expect(verifyInstallQuick(record)).toEqual({ ok: true });
  });

  test("a tampered file fails both checks with the expected and found hashes", () => {
    const record = installed();
    writeFileSync(join(record.installPath, "commands/fmt.md"), "# evil\n");
    const expected = { ok: false, reason: expect.stringContaining(`do not match the content hash recorded at install (expected ${record.contentHash.slice(0, 12)}, found `) };
    expect(verifyInstall(record)).toEqual(expected);
    expect(verifyInstallQuick(record)).toEqual(expected);
  });

  test("the quick check re-hashes when only mtimes moved, accepts unchanged content and hands back the fresh stamp", () => {
    const record = installed();
    utimesSync(join(record.installPath, "commands/fmt.md"), 1000, 1000);
    const fresh = listingStamp(record.installPath);
    expect(fresh).not.toBe(record.listingStamp);
    expect(verifyInstallQuick(record)).toEqual({ ok: true, restamp: fresh });
    // Stored, the next check needs no re-hash.
    expect(verifyInstallQuick({ ...record, listingStamp: fresh })).toEqual({ ok: true });
  });

  test("a missing cache folder is named", () => {
    const record = { ...installed(), installPath: join(temp(), "gone") };
    expect(verifyInstall(record)).toEqual({ ok: false, reason: `its cache folder ${record.installPath} is missing` });
  });
});
