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

  test("a damaged or foreign-version cache file is ignored and replaced", async () => {
    const { cache, source } = setup();
    const cold = await loadExtensions({ sources: [source], cacheDir: cache });
    const file = cacheFileFor(cache, source);
    for (const damage of ["{not json", JSON.stringify({ version: 999, files: {} }), "[]"]) {
      writeFileSync(file, damage);
      const again = await loadExtensions({ sources: [source], cacheDir: cache });
      expect(again.invocables).toEqual(cold.invocables);
      expect((JSON.parse(readFileSync(file, "utf8")) as { version: number }).version).toBe(1);
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
