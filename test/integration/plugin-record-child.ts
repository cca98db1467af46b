// The session side of plugin-record.test.ts, in a process of its own (a start reads the stored
// record once per process): loads the enabled plugins as openSession does and prints, as JSON,
// everything the session gets from them. `--after-load remove|garble` does that to the rest of the
// record once the plugins are loaded, before anything asks for it.
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setUpHooks } from "../../src/app/hooks-setup.ts";
import { loadSessionPlugins, reportPluginProblems } from "../../src/app/plugins-setup.ts";
import { loadSettings } from "../../src/settings/load.ts";
import { readEnvironment } from "../../src/settings/paths.ts";

const [configDir = "", cwd = "", afterLoad = "", extraEnv = "{}"] = process.argv.slice(2);
const env = readEnvironment({ HOME: configDir, CLEW_CONFIG_DIR: configDir, PATH: process.env.PATH ?? "/usr/bin:/bin", ...(JSON.parse(extraEnv) as Record<string, string>) }, cwd);
const loaded = loadSettings({ startDir: env.cwd, configDir: env.configDir, managedDirs: [], homeDir: env.homeDir });
const indexDir = join(env.pluginsDir, "index");
const records = () => (existsSync(indexDir) ? readdirSync(indexDir).filter((name) => name.startsWith("session-")).map((name) => `${name}@${statSync(join(indexDir, name)).mtimeMs}`).sort() : []);
const before = records();
const reported: string[] = [];
const plugins = await loadSessionPlugins({ env, loaded, pluginDirs: [], report: (line) => reported.push(line) });
if (!plugins) throw new Error("no plugins loaded");
// A start that used the record wrote nothing; one that loaded from the folders wrote it.
const wrote = JSON.stringify(records()) !== JSON.stringify(before);
const rests = () => readdirSync(indexDir).filter((name) => name.endsWith(".rest.json"));
for (const name of afterLoad === "" ? [] : rests()) {
  if (afterLoad === "remove") rmSync(join(indexDir, name));
  // In place (the same file): what a reader holding it open sees.
  if (afterLoad === "garble") writeFileSync(join(indexDir, name), "{ not json");
}

// Everything asked for the first time only now: the start-up lines of the hooks, the hook
// contents, the servers' definitions, the component sources and the deferred check.
const hookLines: string[] = [];
await setUpHooks({ loaded, projectDir: env.cwd, env: {}, common: () => ({ session_id: "s", transcript_path: "", cwd: env.cwd, permission_mode: "default" }), matchesRule: async () => false, report: (line) => hookLines.push(line), configDir: env.configDir, deferred: plugins.hooks });
// What a start prints of the plugins' problems, from the first lines alone; then all of them.
const startUpProblems: string[] = [];
reportPluginProblems((line) => startUpProblems.push(line), plugins);
const result = {
  startUpProblems,
  startupLines: plugins.startupLines,
  ids: plugins.ids,
  problems: plugins.problems,
  binDirs: plugins.binDirs,
  sourceSet: { digest: plugins.sources.digest, anyFolder: plugins.sources.anyFolder, immutable: plugins.sources.immutable },
  hooks: { events: plugins.hooks.events, firstLines: plugins.hooks.lines.slice(0, 8), lineCount: plugins.hooks.lineCount ?? plugins.hooks.lines.length, startUpLines: hookLines, sources: plugins.hooks.sources.map((source) => ({ origin: source.origin, hooks: source.hooks, keyPath: source.keyPath })) },
  servers: { length: plugins.mcpServers.length, names: plugins.mcpServers.names, entries: await plugins.mcpServers.entries() },
  sources: plugins.sources.list().map(({ guard, ...source }) => ({ ...source, guarded: guard !== undefined })),
};
await plugins.checkRest();
console.log(JSON.stringify({ ...result, wrote, admitted: plugins.ids.filter((plugin) => plugins.admits(plugin.path)).map((plugin) => plugin.id), reported, fronts: readdirSync(indexDir).filter((name) => name.startsWith("session-") && !name.endsWith(".rest.json")).length }));
