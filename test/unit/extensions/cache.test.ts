// The index cache: a warm start takes unchanged files from the cache (no file read, no YAML);
// a changed size or mtime, a new or removed file, or a damaged cache file are all noticed.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cacheFileFor } from "../../../src/extensions/index-cache.ts";
import { loadExtensions } from "../../../src/extensions/load.ts";
import { parseComponentFile } from "../../../src/extensions/parse-file.ts";
import { pluginSource } from "../../../src/extensions/sources.ts";
import type { ComponentSource } from "../../../src/extensions/types.ts";
import { md, tempDir, writeTree } from "./helpers.ts";

function setup(): { root: string; cache: string; source: ComponentSource } {
  const root = tempDir();
  writeTree(root, {
    "skills/alpha/SKILL.md": md(["name: alpha", "description: first", "allowed-tools: Read"]),
    "skills/beta/SKILL.md": md(["description: Use it: always"]),
    "commands/ops/ship.md": md(["description: ship it"]),
    "agents/rev.md": md(["name: rev", "description: reviews", "tools: Read, Task"]),
  });
  return { root, cache: join(root, "cache"), source: pluginSource({ root, name: "p" }) };
}

/** Rewrites a file with other content of the same length and the same (whole-second) mtime. */
function rewriteKeepingStat(file: string, from: string, to: string): void {
  const text = readFileSync(file, "utf8");
  expect(to.length).toBe(from.length);
  writeFileSync(file, text.replace(from, to));
  utimesSync(file, 1_700_000_000, 1_700_000_000);
}

describe("index cache", () => {
  test("non-ASCII text survives the ASCII cache file", async () => {
    const { root, cache, source } = setup();
    writeTree(root, { "skills/intl/SKILL.md": md(["description: 기능 명세 — naïve 🚀"]) });
    await loadExtensions({ sources: [source], cacheDir: cache });
    expect(/[^\x00-\x7f]/.test(readFileSync(cacheFileFor(cache, source), "utf8"))).toBe(false);
    const warm = await loadExtensions({ sources: [source], cacheDir: cache });
    expect(warm.findInvocable("p:intl")?.description).toBe("기능 명세 — naïve 🚀");
  });

  test("folders with nothing in them get no cache file", async () => {
    const root = tempDir();
    const cache = join(root, "cache");
    await loadExtensions({ sources: [pluginSource({ root: join(root, "empty"), name: "e" })], cacheDir: cache });
    expect(readdirSync(root)).toEqual([]);
  });

  test("a warm load gives the same registry as a cold one and writes nothing", async () => {
    const { cache, source } = setup();
    const cold = await loadExtensions({ sources: [source], cacheDir: cache });
    const file = cacheFileFor(cache, source);
    const written = statSync(file).mtimeMs;
    const warm = await loadExtensions({ sources: [source], cacheDir: cache });
    expect(warm.invocables).toEqual(cold.invocables);
    expect(warm.agents).toEqual(cold.agents);
    expect(warm.problems).toEqual(cold.problems);
    expect(warm.problems.map((problem) => problem.code)).toEqual(["yaml-error"]);
    expect(statSync(file).mtimeMs).toBe(written);
    expect(readdirSync(cache)).toEqual([file.slice(cache.length + 1)]);
  });

  test("unchanged size and mtime: the cached frontmatter is used without reading the file", async () => {
    const { root, cache, source } = setup();
    utimesSync(join(root, "skills/alpha/SKILL.md"), 1_700_000_000, 1_700_000_000);
    await loadExtensions({ sources: [source], cacheDir: cache });
    rewriteKeepingStat(join(root, "skills/alpha/SKILL.md"), "description: first", "description: FIRST");
    const warm = await loadExtensions({ sources: [source], cacheDir: cache });
    expect(warm.findInvocable("p:alpha")?.description).toBe("first");
    // Without the cache the file is read and the new text shows.
    const uncached = await loadExtensions({ sources: [source] });
    expect(uncached.findInvocable("p:alpha")?.description).toBe("FIRST");
  });

  test("a new mtime, a new file and a removed file are picked up, and the cache is rewritten to match", async () => {
    const { root, cache, source } = setup();
    await loadExtensions({ sources: [source], cacheDir: cache });
    const alpha = join(root, "skills/alpha/SKILL.md");
    writeFileSync(alpha, md(["name: alpha", "description: changed"]));
    utimesSync(alpha, new Date(), new Date(Date.now() + 5000));
    writeTree(root, { "skills/gamma/SKILL.md": md(["description: new"]) });
    rmSync(join(root, "commands/ops/ship.md"));
    const warm = await loadExtensions({ sources: [source], cacheDir: cache });
    expect(warm.invocables.map(({ name, description }) => [name, description])).toEqual([["p:alpha", "changed"], ["p:beta", "Use it: always"], ["p:gamma", "new"]]);
    const stored = JSON.parse(readFileSync(cacheFileFor(cache, source), "utf8")) as { files: Record<string, unknown> };
    expect(Object.keys(stored.files).sort()).toEqual(["a0:rev", "s0:alpha", "s0:beta", "s0:gamma"]);
  });

  test("an immutable source (versioned plugin install) is listed from the cache without scanning its folder", async () => {
    const { root, cache } = setup();
    const source = pluginSource({ root, name: "p", immutable: true });
    const cold = await loadExtensions({ sources: [source], cacheDir: cache });
    const written = statSync(cacheFileFor(cache, source)).mtimeMs;
    writeTree(root, { "skills/added-later/SKILL.md": md(["description: not scanned"]) });
    const warm = await loadExtensions({ sources: [source], cacheDir: cache });
    expect(statSync(cacheFileFor(cache, source)).mtimeMs).toBe(written);
    expect(warm.invocables).toEqual(cold.invocables);
    expect(warm.agents).toEqual(cold.agents);
    expect(warm.findInvocable("p:added-later")).toBeUndefined();
    // The same folder as an ordinary source is scanned and shows the new skill.
    expect((await loadExtensions({ sources: [pluginSource({ root, name: "p" })], cacheDir: cache })).findInvocable("p:added-later")?.description).toBe("not scanned");
  });

  test("a damaged or foreign-version cache file is ignored and replaced", async () => {
    const { cache, source } = setup();
    const cold = await loadExtensions({ sources: [source], cacheDir: cache });
    const file = cacheFileFor(cache, source);
    const good = readFileSync(file, "utf8");
    for (const damage of ["{not json", JSON.stringify({ version: 999, count: 0, files: {} }), "[]"]) {
      writeFileSync(file, damage);
      const again = await loadExtensions({ sources: [source], cacheDir: cache });
      expect(again.invocables).toEqual(cold.invocables);
      expect(readFileSync(file, "utf8")).toBe(good);
    }
  });

  test("an unwritable cache folder costs only speed", async () => {
    const { root, source } = setup();
    writeFileSync(join(root, "not-a-dir"), "");
    const registry = await loadExtensions({ sources: [source], cacheDir: join(root, "not-a-dir/cache") });
    expect(registry.invocables.map((item) => item.name)).toEqual(["p:alpha", "p:beta", "p:ops:ship"]);
  });

  test("a file that cannot be read is reported and not cached", async () => {
    const { root, source } = setup();
    const entry = { kind: "skill" as const, file: join(root, "skills/gone/SKILL.md"), dir: join(root, "skills/gone"), id: "gone", key: "s0:gone", size: 10, mtimeMs: 1 };
    expect(await parseComponentFile(entry, source)).toEqual({
      kind: "unreadable",
      problems: [{ code: "unreadable", severity: "error", file: entry.file, message: "cannot read this file (ENOENT); it is not loaded. Check its permissions." }],
    });
  });
});
