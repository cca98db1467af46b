// Discovery cost of the extension layer at scale: the corpus's SKILL.md and command files
// replicated to ~3,000 skills and ~500 commands over user, project and two plugin sources, then
// loaded cold (empty index cache, gray-matter imported and every frontmatter parsed) and warm
// (cache present: stats and one JSON file per source, no YAML), each in a fresh process of a
// binary compiled like dist/clew (bytecode, minified), so module loading costs what it costs in
// clew; `--source` runs the TypeScript through bun instead (adds transpiling).
//
//   bun scripts/bench/extensions.ts [--skills 3000] [--commands 500] [--runs 5] [--source] [--keep]
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");
const CORPUS = resolve(process.env.CLEW_SHARED_DIR ?? resolve(ROOT, "../shared"), "corpus/marketplaces");

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at < 0 ? undefined : Number(process.argv[at + 1]);
  return value !== undefined && Number.isFinite(value) ? value : fallback;
}

/** SKILL.md files and command `.md` files of the corpus, found by walking it once. */
function corpusFiles(): { skills: string[]; commands: string[] } {
  const skills: string[] = [];
  const commands: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory() && !entry.name.startsWith(".")) walk(full);
      else if (entry.isFile() && entry.name === "SKILL.md") skills.push(full);
      else if (entry.isFile() && entry.name.endsWith(".md") && basename(dirname(full)) === "commands") commands.push(full);
    }
  };
  walk(CORPUS);
  return { skills: skills.sort(), commands: commands.sort() };
}

interface Layout {
  home: string;
  project: string;
  plugins: string[];
  cacheDir: string;
  /** Mark the plugin sources as versioned installs (ComponentSource.immutable). */
  immutablePlugins?: boolean;
  /** Measure the session start-up path (summary) instead of a full load. */
  startup?: boolean;
}

/** Spreads the copies: 1/2 project, 1/6 user, 1/6 per plugin (commands: half project, half plugins). */
function replicate(skillCount: number, commandCount: number): Layout {
  const base = mkdtempSync(join(tmpdir(), "clew-bench-ext-"));
  const layout: Layout = { home: join(base, "home/.clew"), project: join(base, "project"), plugins: [join(base, "plugin-a"), join(base, "plugin-b")], cacheDir: join(base, "cache") };
  const { skills, commands } = corpusFiles();
  const skillRoots = [join(layout.project, ".claude/skills"), join(layout.project, ".claude/skills"), join(layout.project, ".claude/skills"), join(layout.home, "skills"), ...layout.plugins.map((plugin) => join(plugin, "skills"))];
  for (let index = 0; index < skillCount; index++) {
    const from = skills[index % skills.length] as string;
    const dir = join(skillRoots[index % skillRoots.length] as string, `${basename(dirname(from))}-${index}`);
    mkdirSync(dir, { recursive: true });
    copyFileSync(from, join(dir, "SKILL.md"));
  }
  const commandRoots = [join(layout.project, ".claude/commands"), ...layout.plugins.map((plugin) => join(plugin, "commands"))];
  for (let index = 0; index < commandCount; index++) {
    const from = commands[index % commands.length] as string;
    const root = index % 2 === 0 ? commandRoots[0] : commandRoots[1 + ((index >> 1) % 2)];
    const file = join(root as string, index % 5 === 0 ? `group-${index % 7}` : "", `${basename(from, ".md")}-${index}.md`);
    mkdirSync(dirname(file), { recursive: true });
    copyFileSync(from, file);
  }
  return layout;
}

/**
 * What a session's start-up does (app/extensions-setup.ts): stat the files against the index
 * cache and read the start-up summary; the registry is built later, on first use.
 */
async function measureStartup(layout: Layout): Promise<void> {
  const started = performance.now();
  const [{ discoverSources, pluginSource, sourceSetOf }, { cachedSummary, saveSummary }] = await Promise.all([import("../../src/extensions/sources.ts"), import("../../src/extensions/summary.ts")]);
  const imported = performance.now();
  const own = discoverSources({ cwd: layout.project, projectRoot: layout.project, userDir: layout.home });
  const plugins = sourceSetOf(layout.plugins.map((root) => pluginSource({ root, name: basename(root), immutable: layout.immutablePlugins === true })));
  const { summary } = cachedSummary(own, plugins, layout.cacheDir, 8000);
  const summarised = performance.now();
  if (!summary) {
    const { loadExtensions, skillCatalogue } = await import("../../src/extensions/index.ts");
    const registry = await loadExtensions({ sources: [...own, ...plugins.list()], cacheDir: layout.cacheDir });
    const invocable = registry.invocables.filter((item) => item.modelInvocable);
    await saveSummary(own, plugins, layout.cacheDir, 8000, { catalogue: skillCatalogue(invocable, { budgetChars: 8000 }), modelInvocable: invocable.length, withHooks: false, errors: [], agents: [], names: { commands: [], skills: [] } });
  }
  console.log(JSON.stringify({ ms: summarised - started, phases: { import: imported - started, summary: summarised - imported }, skills: summary?.modelInvocable ?? 0, commands: 0, discovered: 0 }));
}

/** One measurement in this process (the child side): import, discovery and load, in ms. */
async function measure(layout: Layout): Promise<void> {
  if (layout.startup) return measureStartup(layout);
  const started = performance.now();
  const { discoverSources, ExtensionRegistry, loadSource, pluginSource } = await import("../../src/extensions/index.ts");
  const imported = performance.now();
  const sources = [
    ...discoverSources({ cwd: layout.project, projectRoot: layout.project, userDir: layout.home }),
    ...layout.plugins.map((root) => pluginSource({ root, name: basename(root), immutable: layout.immutablePlugins === true })),
  ];
  const loaded = [];
  for (const source of sources) loaded.push(await loadSource(source, layout.cacheDir));
  const scanned = performance.now();
  const registry = new ExtensionRegistry(loaded);
  const done = performance.now();
  const discovered = registry.loaded.reduce((sum, entry) => sum + entry.invocables.length, 0);
  console.log(JSON.stringify({
    ms: done - started,
    phases: { import: imported - started, sources: scanned - imported, registry: done - scanned },
    skills: registry.skills.length,
    commands: registry.commands.length,
    discovered,
  }));
}

/** The measuring side as a binary built with dist/clew's options (scripts/build.ts). */
async function compileChild(base: string): Promise<string[]> {
  if (process.argv.includes("--source")) return ["bun", import.meta.path];
  const outfile = join(base, "ext-bench");
  const result = await Bun.build({ entrypoints: [import.meta.path], compile: { outfile }, minify: true, bytecode: true, format: "esm", splitting: true, target: "bun" });
  if (!result.success) throw new Error(result.logs.map(String).join("\n"));
  return [outfile];
}

interface Measurement {
  ms: number;
  phases: Record<string, number>;
  skills: number;
  commands: number;
  discovered: number;
}

async function child(command: string[], layout: Layout): Promise<Measurement> {
  const run = Bun.spawnSync([...command, "--child", JSON.stringify(layout)], { stdout: "pipe", stderr: "inherit" });
  return JSON.parse(run.stdout.toString().trim().split("\n").at(-1) ?? "{}");
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

if (process.argv.includes("--child")) {
  await measure(JSON.parse(process.argv[process.argv.indexOf("--child") + 1] ?? "{}") as Layout);
} else {
  const layout = replicate(option("skills", 3000), option("commands", 500));
  const command = await compileChild(dirname(layout.cacheDir));
  const runs = option("runs", 5);
  const cold: Measurement[] = [];
  const warm: Measurement[] = [];
  const warmImmutable: Measurement[] = [];
  const warmStartup: Measurement[] = [];
  const immutable = { ...layout, immutablePlugins: true };
  const startup = { ...layout, startup: true };
  for (let run = 0; run < runs; run++) {
    rmSync(layout.cacheDir, { recursive: true, force: true });
    cold.push(await child(command, layout));
    warm.push(await child(command, layout));
    await child(command, immutable);
    warmImmutable.push(await child(command, immutable));
    await child(command, startup);
    warmStartup.push(await child(command, startup));
  }
  const counts = cold[0] ?? { skills: 0, commands: 0, discovered: 0 };
  const cacheBytes = readdirSync(layout.cacheDir).reduce((sum, name) => sum + statSync(join(layout.cacheDir, name)).size, 0);
  console.log(
    `extensions: ${counts.discovered} skill and command files discovered; active after name clashes: ${counts.skills} skills, ${counts.commands} commands (index cache ${(cacheBytes / 1024).toFixed(0)} KiB)`,
  );
  const table = [
    ["cold (no cache, YAML parsed)      ", cold],
    ["warm (index cache, every file stat)", warm],
    ["warm, plugin sources immutable    ", warmImmutable],
    ["session start-up (summary cached) ", warmStartup],
  ] as const;
  for (const [label, runsOf] of table) {
    const phases = Object.keys(runsOf[0]?.phases ?? {}).map((phase) => `${phase} ${median(runsOf.map((run) => run.phases[phase] ?? 0)).toFixed(1)}`);
    const times = runsOf.map((run) => run.ms);
    console.log(`  ${label}: median ${median(times).toFixed(1)} ms, best ${Math.min(...times).toFixed(1)} ms  [${times.map((ms) => ms.toFixed(1)).join(", ")}]  (median phases: ${phases.join(", ")})`);
  }
  if (process.argv.includes("--keep")) console.log(`  kept: ${dirname(layout.cacheDir)}`);
  else rmSync(dirname(layout.cacheDir), { recursive: true, force: true });
}
