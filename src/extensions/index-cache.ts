/**
 * The index cache: per source, the parsed frontmatter of every component file, checked against
 * the file's (size, mtime). A warm start therefore reads one JSON file per source and stats the
 * component files — no file contents, no YAML. The cache file's name is a hash of the source's
 * description (scope, namespace, folders), so user and plugin sources are shared by every
 * project. Fields at their default are left out: the file is parsed on every start. Bump
 * CACHE_VERSION whenever parsing or the stored shape changes.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { writeFileAtomic } from "../util/atomic-write.ts";
import type { AgentReading } from "./agent-meta.ts";
import type { ParsedFile } from "./parse-file.ts";
import type { ScanEntry } from "./scan.ts";
import type { ComponentSource, ExtensionProblem, SkillMeta } from "./types.ts";

const CACHE_VERSION = 1;

export type StoredAgentMeta = Partial<Extract<AgentReading, { meta: unknown }>["meta"]>;

/** What a file's parse is kept as, and what items are built from (cached or not). */
export type StoredFile =
  | { k: "skill" | "command"; s: number; m: number; v: Partial<SkillMeta>; p?: ExtensionProblem[] }
  | { k: "agent"; s: number; m: number; v: StoredAgentMeta | null; p?: ExtensionProblem[] }
  | { k: "unreadable"; s: number; m: number; p?: ExtensionProblem[] };

/** The values most files have; `place.ts` falls back to the same ones. */
export const SKILL_DEFAULTS = {
  descriptionFrom: "frontmatter",
  modelInvocable: true,
  userInvocable: true,
  background: true,
  shell: "bash",
} as const;
export const AGENT_DEFAULTS = { background: false } as const;

function compact<T extends object>(value: T, defaults: Readonly<Record<string, unknown>>): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (field === undefined || (Array.isArray(field) && field.length === 0) || defaults[key] === field) continue;
    out[key] = field;
  }
  return out as Partial<T>;
}

export function toStored(parsed: ParsedFile, size: number, mtimeMs: number): StoredFile {
  const problems = parsed.problems.length > 0 ? { p: parsed.problems } : {};
  if (parsed.kind === "unreadable") return { k: "unreadable", s: size, m: mtimeMs, ...problems };
  if (parsed.kind === "agent") {
    return { k: "agent", s: size, m: mtimeMs, v: "meta" in parsed.reading ? compact(parsed.reading.meta, AGENT_DEFAULTS) : null, ...problems };
  }
  return { k: parsed.kind, s: size, m: mtimeMs, v: compact(parsed.meta, SKILL_DEFAULTS), ...problems };
}

interface CacheContents {
  version: number;
  files: Record<string, StoredFile>;
}

/** The cache file of a source: stable across runs for the same source description. */
export function cacheFileFor(cacheDir: string, source: ComponentSource): string {
  const description = JSON.stringify([CACHE_VERSION, source.scope, source.namespace ?? "", source.root, source.skills, source.commands, source.agents]);
  return join(cacheDir, `${Bun.hash(description).toString(36)}.json`);
}

export class IndexCache {
  private readonly fresh = new Map<string, StoredFile>();
  private kept = 0;

  private constructor(
    private readonly path: string | undefined,
    private readonly previous: Record<string, StoredFile>,
  ) {}

  /** No `cacheDir`: a cache that remembers nothing (every file is parsed). */
  static open(cacheDir: string | undefined, source: ComponentSource): IndexCache {
    if (cacheDir === undefined) return new IndexCache(undefined, {});
    const path = cacheFileFor(cacheDir, source);
    let files: Record<string, StoredFile> = {};
    try {
      const contents = JSON.parse(readFileSync(path, "utf8")) as Partial<CacheContents>;
      if (contents.version === CACHE_VERSION && typeof contents.files === "object" && contents.files !== null) files = contents.files;
    } catch {
      // Missing or damaged: start empty; the next save replaces it.
    }
    return new IndexCache(path, files);
  }

  /** The stored parse of `entry` if the file is unchanged since it was cached. */
  lookup(entry: ScanEntry): StoredFile | undefined {
    const cached = this.previous[entry.key];
    if (cached === undefined || cached.s !== entry.size || cached.m !== entry.mtimeMs) return undefined;
    this.kept++;
    return cached;
  }

  store(entry: ScanEntry, parsed: ParsedFile): StoredFile {
    const stored = toStored(parsed, entry.size, entry.mtimeMs);
    this.fresh.set(entry.key, stored);
    return stored;
  }

  /**
   * Writes the cache for `entries` (this scan) when a file was parsed or one disappeared; the
   * warm path never builds a new map. A failed write only costs speed.
   */
  async save(entries: readonly ScanEntry[]): Promise<void> {
    if (this.path === undefined) return;
    if (this.fresh.size === 0 && this.kept === Object.keys(this.previous).length) return;
    const files: Record<string, StoredFile> = {};
    for (const entry of entries) {
      const stored = this.fresh.get(entry.key) ?? this.previous[entry.key];
      // An unreadable file is not remembered: a permission fix changes no size or mtime.
      if (stored !== undefined && stored.k !== "unreadable") files[entry.key] = stored;
    }
    try {
      mkdirSync(dirname(this.path), { recursive: true });
      await writeFileAtomic(this.path, JSON.stringify({ version: CACHE_VERSION, files } satisfies CacheContents));
    } catch {
      // A read-only state dir means cold starts every time, not a broken session.
    }
  }
}
