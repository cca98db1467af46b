// Conformance with the shared corpus (../shared/corpus/EXPECTED.json): for every plugin entry
// that loads from disk, the skill, command and agent ids this layer discovers equal the expected
// ids (skill = its folder; command/agent = path below the scanned folder, `/` → `:`), and the
// files it finds broken (invalid YAML) or bare (no frontmatter) are the ones EXPECTED lists.
//
// Plugin mode feeds each plugin through `pluginSource` with its manifest's component paths —
// reading plugin.json is the plugin loader's job, so this test reads only the three path fields
// (string, list, or Dev-GOM's `{name: {source}}` map) and the marketplace entry's override.
// Project mode links a plugin's default folders into a temp project's `.claude/`; it covers the
// 248 entries that use no manifest paths (the 3 others are named in the test). Every corpus agent
// has a name and a description, so the stricter user/project agent rules (spec C.3) skip none.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { loadExtensions } from "../../../src/extensions/load.ts";
import type { ExtensionRegistry } from "../../../src/extensions/registry.ts";
import { discoverSources, pluginSource } from "../../../src/extensions/sources.ts";
import { tempDir } from "./helpers.ts";
import { sharedDir } from "../../helpers/shared-dir.ts";

const CORPUS = join(sharedDir(), "corpus");

interface ExpectedPlugin {
  index: number;
  name: string;
  status: string;
  root?: string;
  skills: string[];
  commands: string[];
  agents: string[];
  issues?: { code: string; msg: string }[];
}

interface ExpectedMarketplace {
  dir: string;
  file: string;
  plugins: ExpectedPlugin[];
}

const expected = JSON.parse(readFileSync(join(CORPUS, "EXPECTED.json"), "utf8")) as ExpectedMarketplace[];

function readJson(path: string): Record<string, unknown> {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** A manifest path field as a list of paths. */
function paths(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.filter((entry): entry is string => typeof entry === "string");
  if (typeof value === "object" && value !== null) {
    return Object.values(value).flatMap((entry) => (typeof entry === "object" && entry !== null && typeof (entry as { source?: unknown }).source === "string" ? [(entry as { source: string }).source] : []));
  }
  return undefined;
}

interface Loaded {
  marketplace: ExpectedMarketplace;
  plugin: ExpectedPlugin;
  root: string;
  manifestPaths: { skills?: string[]; commands?: string[]; agents?: string[] };
}

function loadedEntries(): Loaded[] {
  const entries: Loaded[] = [];
  for (const marketplace of expected) {
    const catalog = readJson(join(CORPUS, "marketplaces", marketplace.dir, marketplace.file));
    const catalogEntries = Array.isArray(catalog.plugins) ? (catalog.plugins as Record<string, unknown>[]) : [];
    for (const plugin of marketplace.plugins) {
      if (plugin.status !== "loaded" || plugin.root === undefined) continue;
      const root = join(CORPUS, "marketplaces", marketplace.dir, plugin.root);
      const manifest = readJson(join(root, ".claude-plugin/plugin.json"));
      const entry = catalogEntries[plugin.index] ?? {};
      const manifestPaths: Loaded["manifestPaths"] = {};
      for (const field of ["skills", "commands", "agents"] as const) {
        const listed = paths(entry[field] ?? manifest[field]);
        if (listed !== undefined) manifestPaths[field] = listed;
      }
      entries.push({ marketplace, plugin, root, manifestPaths });
    }
  }
  return entries;
}

/** Every discovered id, clash losers included: EXPECTED counts files, not winners. */
function discovered(registry: ExtensionRegistry): { skills: string[]; commands: string[]; agents: string[] } {
  const items = registry.loaded.flatMap((entry) => entry.invocables);
  return {
    skills: items.filter((item) => item.kind === "skill").map((item) => item.id).sort(),
    commands: items.filter((item) => item.kind === "command").map((item) => item.id).sort(),
    agents: registry.loaded.flatMap((entry) => entry.agents).map((agent) => agent.id).sort(),
  };
}

function expectedIds(plugin: ExpectedPlugin): { skills: string[]; commands: string[]; agents: string[] } {
  return { skills: [...plugin.skills].sort(), commands: [...plugin.commands].sort(), agents: [...plugin.agents].sort() };
}

/** `skill a/b/SKILL.md: …` findings of one code, as absolute paths. */
function findingFiles(entries: readonly Loaded[], code: string): string[] {
  return entries.flatMap(({ marketplace, plugin }) =>
    (plugin.issues ?? []).filter((issue) => issue.code === code).map((issue) => join(CORPUS, "marketplaces", marketplace.dir, /^\w+ (\S+):/.exec(issue.msg)?.[1] ?? "?"))).sort();
}

const entries = loadedEntries();

describe("corpus conformance", () => {
  test("the corpus is present and has the loaded entries EXPECTED.md counts", () => {
    expect(entries.length).toBe(251);
  });

  test("plugin sources with manifest paths: every loaded entry's skill, command and agent ids match", async () => {
    const mismatches: unknown[] = [];
    const yamlErrors: string[] = [];
    const bare: string[] = [];
    for (const { marketplace, plugin, root, manifestPaths } of entries) {
      const registry = await loadExtensions({ sources: [pluginSource({ root, name: plugin.name, ...manifestPaths })] });
      const got = discovered(registry);
      if (JSON.stringify(got) !== JSON.stringify(expectedIds(plugin))) mismatches.push({ marketplace: marketplace.dir, plugin: plugin.name, got, want: expectedIds(plugin) });
      for (const problem of registry.problems) {
        if (problem.code === "yaml-error") yamlErrors.push(problem.file);
        if (problem.code === "no-frontmatter") bare.push(problem.file);
      }
      // Every item has a name and a description the model can be shown (or, for bare files, the body's).
      for (const item of registry.loaded.flatMap((entry) => entry.invocables)) expect(item.name.startsWith(`${plugin.name}:`)).toBe(true);
    }
    expect(mismatches).toEqual([]);
    expect(yamlErrors.sort()).toEqual(findingFiles(entries, "yaml-error"));
    expect(bare.sort()).toEqual(findingFiles(entries, "no-frontmatter"));
  });

  test("invalid YAML loads with the name and description recovered line by line", async () => {
    const root = join(CORPUS, "marketplaces/ivan-magda__claude-code-plugin-template/plugins/plugin-development");
    const registry = await loadExtensions({ sources: [pluginSource({ root, name: "plugin-development" })] });
    expect(registry.findInvocable("plugin-development:add-agent")).toMatchObject({
      description: "Add a new sub-agent to the current plugin for specialized tasks",
      argumentHint: '[agent-name] ["description"]',
    });
  });

  test("project mode: a plugin's default folders linked into .claude/ give the same ids", async () => {
    const manifestPathEntries = entries.filter((entry) => Object.keys(entry.manifestPaths).length > 0).map((entry) => entry.plugin.name);
    // Custom manifest paths (a skills path that is itself a skill, listed skill folders, a
    // `{name: {source}}` commands map) are what the plugin source is for; the test above covers them.
    expect(manifestPathEntries.sort()).toEqual(["auto-release-manager", "pptx-deck-creation", "spec-kit"]);
    const mismatches: unknown[] = [];
    for (const { plugin, root, manifestPaths } of entries) {
      if (Object.keys(manifestPaths).length > 0) continue;
      const project = tempDir("clew-corpus-");
      mkdirSync(join(project, ".claude"));
      for (const folder of ["skills", "commands", "agents"]) if (existsSync(join(root, folder))) symlinkSync(join(root, folder), join(project, ".claude", folder));
      const registry = await loadExtensions({ sources: discoverSources({ cwd: project, userDir: join(project, "no-user") }) });
      const got = discovered(registry);
      const want = expectedIds(plugin);
      if (JSON.stringify(got) !== JSON.stringify(want)) mismatches.push({ plugin: plugin.name, got, want });
    }
    expect(mismatches).toEqual([]);
  });
});
