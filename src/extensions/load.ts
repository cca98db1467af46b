/**
 * Loading sources into a registry: scan each source, take every unchanged file from the index
 * cache, parse the rest (frontmatter only), name the items, and let the registry settle clashes.
 * One bad file or folder never stops the others; everything wrong ends up in `problems`.
 */
import { IndexCache } from "./index-cache.ts";
import { placeAgent, placeInvocable } from "./place.ts";
import { ExtensionRegistry, type LoadedSource } from "./registry.ts";
import { scanSource } from "./scan.ts";
import type { SkillOverrides } from "./overrides.ts";
import type { AgentDefinition, ComponentSource, Invocable } from "./types.ts";

export interface LoadOptions {
  /** In precedence order within each scope: `discoverSources` output, then plugin sources. */
  sources: readonly ComponentSource[];
  /** Folder for index cache files (e.g. `<config dir>/cache/extensions`); omitted = parse every start. */
  cacheDir?: string;
  /** Agents from `--agents` JSON (`agentsFromJson`). */
  extra?: readonly LoadedSource[];
  /** The user's `skillOverrides` (settings). */
  overrides?: SkillOverrides;
}

export async function loadSource(source: ComponentSource, cacheDir: string | undefined): Promise<LoadedSource> {
  const refused = source.guard?.();
  if (refused !== undefined) return { source, invocables: [], agents: [], problems: [{ code: "unreadable", severity: "error", file: source.root, message: refused }], skillsDirPlugins: [] };
  const cache = IndexCache.open(cacheDir, source);
  const stored = cache.storedEntries();
  const scan = stored === undefined ? scanSource(source) : { entries: stored, problems: [], skillsDirPlugins: [] };
  const invocables: Invocable[] = [];
  const agents: AgentDefinition[] = [];
  const problems = [...scan.problems];
  for (const entry of scan.entries) {
    // Parsing code (frontmatter, field readers) loads only when some file is not in the cache.
    const file = cache.lookup(entry) ?? cache.store(entry, await (await import("./parse-file.ts")).parseComponentFile(entry, source));
    const itemProblems = file.p ?? [];
    if (file.k === "unreadable") problems.push(...itemProblems);
    else if (file.k === "agent") {
      if (file.v === null) problems.push(...itemProblems);
      else agents.push(placeAgent(source, entry, file.v, itemProblems));
    } else invocables.push(placeInvocable(source, entry, file.v, itemProblems));
  }
  await cache.save(scan.entries);
  return { source, invocables, agents, problems, skillsDirPlugins: scan.skillsDirPlugins };
}

export async function loadExtensions(options: LoadOptions): Promise<ExtensionRegistry> {
  const loaded: LoadedSource[] = [];
  for (const source of options.sources) loaded.push(await loadSource(source, options.cacheDir));
  return new ExtensionRegistry([...loaded, ...(options.extra ?? [])], options.overrides);
}

/** Adds nested sources (see `nestedSources`) to a registry; sources it already has are skipped. */
export async function loadNested(registry: ExtensionRegistry, sources: readonly ComponentSource[], cacheDir: string | undefined): Promise<ExtensionRegistry> {
  const known = new Set(registry.sources.map((source) => source.root));
  const loaded: LoadedSource[] = [];
  for (const source of sources) if (!known.has(source.root)) loaded.push(await loadSource(source, cacheDir));
  return registry.extend(loaded);
}
