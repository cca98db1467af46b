// The extensions a session starts with, against real folders: the first start loads in full and
// stores a summary; the next one reads the summary without making the plugins' sources (they are
// made when the registry is built), lists the agents sorted by name with each description on one
// line both times, and a changed file of the user's own makes the start load in full again.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, rmSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { agentListingLines } from "../../../src/app/agent-listing.ts";
import { loadSessionExtensions, type ExtensionsInput } from "../../../src/app/extensions-setup.ts";
import { pluginSource, sourceSetOf } from "../../../src/extensions/sources.ts";
import type { SourceSet } from "../../../src/extensions/types.ts";
import { md, tempDir, writeTree } from "../extensions/helpers.ts";

/** A plugin set that counts how often its sources are made. */
function countedSet(roots: readonly string[]): { set: SourceSet; made: () => number } {
  const inner = sourceSetOf(roots.map((root, index) => pluginSource({ root, name: `p${index}`, immutable: true })));
  let made = 0;
  return {
    set: { digest: inner.digest, anyFolder: inner.anyFolder, immutable: inner.immutable, list: () => (made++, inner.list()) },
    made: () => made,
  };
}

function setup() {
  const home = tempDir();
  const project = tempDir();
  const plugins = [tempDir(), tempDir()];
  writeTree(home, { "skills/mine/SKILL.md": md(["name: mine", "description: my own"]) });
  writeTree(plugins[0] as string, {
    "skills/alpha/SKILL.md": md(["name: alpha", "description: first"]),
    "agents/zed.md": md(["name: zed", "description: |\n  Last of all,\n  on two lines"]),
  });
  writeTree(plugins[1] as string, { "agents/Beta.md": md(["name: Beta", "description: capital"]), "agents/able.md": md(["name: able", "description: small"]) });
  const input = (set: SourceSet): ExtensionsInput => ({ cwd: project, projectRoot: undefined, userDir: home, managedDirs: [], addDirs: [], cacheDir: join(home, "cache"), budgetChars: 8_000, pluginSources: set });
  return { home, plugins, input };
}

describe("the extensions a session starts with", () => {
  test("the next start reads the summary, makes no plugin source until the registry is built, and lists the same", async () => {
    const { plugins, input } = setup();
    const first = countedSet(plugins);
    const cold = await loadSessionExtensions(input(first.set));
    expect(cold.registry?.peek()).toBeDefined();
    // As the Agent tool lists them: in the user's collation (not code units: `able` before `Beta`).
    const agents = [
      { name: "p0:zed", description: "Last of all, on two lines" },
      { name: "p1:able", description: "small" },
      { name: "p1:Beta", description: "capital" },
    ];
    expect(cold.agents).toEqual(agents);

    const second = countedSet(plugins);
    const warm = await loadSessionExtensions(input(second.set));
    expect(second.made()).toBe(0);
    expect(warm.registry?.peek()).toBeUndefined();
    expect({ catalogue: warm.catalogue, modelInvocable: warm.modelInvocable, agents: warm.agents, errors: warm.errors }).toEqual({ catalogue: cold.catalogue, modelInvocable: 2, agents, errors: [] });
    expect(warm.catalogue).toContain("p0:alpha");
    expect(warm.catalogue).toContain("mine");
    const registry = await warm.registry?.get();
    expect(second.made()).toBe(1);
    expect(registry?.agents.map((agent) => agent.name)).toEqual(["p0:zed", "p1:Beta", "p1:able"]);
  });

  test("a changed file of the user's own: the start loads in full, with the change", async () => {
    const { home, plugins, input } = setup();
    await loadSessionExtensions(input(countedSet(plugins).set));
    writeTree(home, { "skills/mine/SKILL.md": md(["name: mine", "description: changed since"]) });
    utimesSync(join(home, "skills/mine/SKILL.md"), 1_800_000_000, 1_800_000_000);
    const next = countedSet(plugins);
    const started = await loadSessionExtensions(input(next.set));
    expect(next.made()).toBe(1);
    expect(started.registry?.peek()).toBeDefined();
    expect(started.catalogue).toContain("changed since");
  });

  test("a summary is trusted by its files' stats alone: with the index cache gone, the start still reads it; the registry parses the files again", async () => {
    const { home, plugins, input } = setup();
    const cold = await loadSessionExtensions(input(countedSet(plugins).set));
    const cache = join(home, "cache");
    for (const name of readdirSync(cache).filter((file) => !file.startsWith("summary-"))) rmSync(join(cache, name));
    const next = countedSet(plugins);
    const warm = await loadSessionExtensions(input(next.set));
    expect(warm.registry?.peek()).toBeUndefined();
    expect(next.made()).toBe(0);
    expect({ catalogue: warm.catalogue, agents: warm.agents }).toEqual({ catalogue: cold.catalogue, agents: cold.agents });
    expect((await warm.registry?.get())?.skills.map((skill) => skill.name).sort()).toEqual(["mine", "p0:alpha"]);
  });

  test("a cache folder that cannot be made (a file is in its place): no summary is stored, every start loads in full", async () => {
    const { home, plugins, input } = setup();
    writeTree(home, { cache: "not a folder" });
    await loadSessionExtensions(input(countedSet(plugins).set));
    const next = countedSet(plugins);
    const started = await loadSessionExtensions(input(next.set));
    expect(next.made()).toBe(1);
    expect(started.registry?.peek()).toBeDefined();
    expect(readFileSync(join(home, "cache"), "utf8")).toBe("not a folder");
  });

  test("another set of plugins is another summary", async () => {
    const { plugins, input } = setup();
    await loadSessionExtensions(input(countedSet(plugins).set));
    const fewer = countedSet(plugins.slice(1));
    const started = await loadSessionExtensions(input(fewer.set));
    expect(fewer.made()).toBe(1);
    expect(started.catalogue).not.toContain("p0:alpha");
    expect(started.agents.map((agent) => agent.name)).toEqual(["p0:able", "p0:Beta"]);
  });

  test("hundreds of agents: the summary keeps their descriptions cut to the Agent list's budget, and a warm start lists them as the cold one did", async () => {
    const { input } = setup();
    const plugin = tempDir();
    const long = (i: number) => `Reviews area ${i}. ${Array.from({ length: 150 }, (_, n) => `word${n}`).join(" ")}`;
    writeTree(plugin, Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`agents/expert-${String(i).padStart(3, "0")}.md`, md([`name: expert-${String(i).padStart(3, "0")}`, `description: ${long(i)}`])])));
    const set = () => countedSet([plugin]).set;
    const cold = await loadSessionExtensions(input(set()));
    const full = Array.from({ length: 120 }, (_, i) => ({ name: `p0:expert-${String(i).padStart(3, "0")}`, description: long(i) }));
    const expected = agentListingLines(full);
    expect(expected.shortened).toBe(true);
    expect(cold.agents.every((agent) => agent.shortened === true && agent.description.endsWith("…"))).toBe(true);
    expect(agentListingLines(cold.agents)).toEqual(expected);
    const warm = await loadSessionExtensions(input(set()));
    expect(warm.registry?.peek()).toBeUndefined();
    expect(warm.agents).toEqual(cold.agents);
    // Stored with them, and (for copies of them, nothing stored) worked out again from the cut descriptions alike.
    expect(agentListingLines(warm.agents)).toEqual(expected);
    expect(agentListingLines(warm.agents.map((agent) => ({ ...agent })))).toEqual(expected);
  });
});
