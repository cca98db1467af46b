/**
 * The index cache: per source, the parsed frontmatter of every component file, checked against
 * the file's (size, mtime). A warm start therefore reads one JSON file per source and stats the
 * component files — no file contents, no YAML. The cache file's name is a hash of the source's
 * description (scope, namespace, folders), so user and plugin sources are shared by every
 * project. Fields at their default are left out: the file is parsed on every start. Bump
 * CACHE_VERSION whenever parsing or the stored shape changes.
 */
import { mkdirSync } from "node:fs";
import { asciiJson, readAsciiJson } from "../util/ascii-json.ts";
import { dirname, join } from "node:path";
import { writeFileAtomic } from "../util/atomic-write.ts";
import type { AgentReading } from "./agent-meta.ts";
import type { ParsedFile } from "./parse-file.ts";
import type { ScanEntry } from "./scan.ts";
import type { ComponentSource, ExtensionProblem, SkillMeta } from "./types.ts";

/** 2: the file is ASCII (other characters escaped), so it is read as latin1 without UTF-8 decoding. */
export const CACHE_VERSION = 2;

export type StoredAgentMeta = Partial<Extract<AgentReading, { meta: unknown }>["meta"]>;

/**
 * What a file's parse is kept as, and what items are built from (cached or not). Immutable
 * sources also keep where the file is (`f`, `d`: relative to the source root), so a warm start
 * can rebuild the listing without scanning.
 */
export type StoredFile = { s: number; m: number; p?: ExtensionProblem[]; f?: string; d?: string } & (
  | { k: "skill" | "command"; v: Partial<SkillMeta> }
  | { k: "agent"; v: StoredAgentMeta | null }
  | { k: "unreadable" }
);

function relativeTo(root: string, path: string): string {
  if (path === root) return "";
  return path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
}

function absoluteFrom(root: string, path: string): string {
  if (path === "") return root;
  return path.startsWith("/") ? path : `${root}/${path}`;
}

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
  /** How many files there are, so a warm start can tell nothing was removed without counting keys. */
  count: number;
  files: Record<string, StoredFile>;
}


/** The cache file of a source: stable across runs for the same source description. */
export function cacheFileFor(cacheDir: string, source: ComponentSource): string {
  const description = JSON.stringify([CACHE_VERSION, source.scope, source.namespace ?? "", source.root, source.skills, source.commands, source.agents, source.immutable === true]);
  return join(cacheDir, `${Bun.hash(description).toString(36)}.json`);
}

export class IndexCache {
  private readonly fresh = new Map<string, StoredFile>();
  private kept = 0;

  private constructor(
    private readonly path: string | undefined,
    private readonly source: ComponentSource,
    private readonly previous: Record<string, StoredFile>,
    private readonly previousCount: number,
  ) {}

  /** No `cacheDir`: a cache that remembers nothing (every file is parsed). */
  static open(cacheDir: string | undefined, source: ComponentSource): IndexCache {
    if (cacheDir === undefined) return new IndexCache(undefined, source, {}, 0);
    const path = cacheFileFor(cacheDir, source);
    try {
      const contents = readAsciiJson(path) as Partial<CacheContents>;
      if (contents.version === CACHE_VERSION && typeof contents.files === "object" && contents.files !== null && typeof contents.count === "number") {
        return new IndexCache(path, source, contents.files, contents.count);
      }
    } catch {
      // Missing or damaged: start empty; the next save replaces it.
    }
    return new IndexCache(path, source, {}, -1);
  }

  /**
   * For an immutable source (a versioned plugin install), the files as last scanned, taken from
   * the cache without touching the folder; undefined when the cache cannot say.
   */
  storedEntries(): ScanEntry[] | undefined {
    if (!this.source.immutable || this.previousCount <= 0) return undefined;
    const root = this.source.root;
    const entries: ScanEntry[] = [];
    for (const [key, stored] of Object.entries(this.previous)) {
      if (stored.f === undefined || stored.d === undefined || stored.k === "unreadable") return undefined;
      entries.push({ kind: stored.k, file: absoluteFrom(root, stored.f), dir: absoluteFrom(root, stored.d), id: key.slice(key.indexOf(":") + 1), key, size: stored.s, mtimeMs: stored.m });
    }
    return entries;
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
    if (this.source.immutable) {
      stored.f = relativeTo(this.source.root, entry.file);
      stored.d = relativeTo(this.source.root, entry.dir);
    }
    this.fresh.set(entry.key, stored);
    return stored;
  }

  /**
   * Writes the cache for `entries` (this scan) when a file was parsed or one disappeared; the
   * warm path never builds a new map. A failed write only costs speed.
   */
  async save(entries: readonly ScanEntry[]): Promise<void> {
    if (this.path === undefined) return;
    if (this.fresh.size === 0 && this.kept === this.previousCount) return;
    // A folder that has nothing and never had anything gets no cache file.
    if (entries.length === 0 && this.previousCount <= 0) return;
    const files: Record<string, StoredFile> = {};
    let count = 0;
    for (const entry of entries) {
      const stored = this.fresh.get(entry.key) ?? this.previous[entry.key];
      // An unreadable file is not remembered: a permission fix changes no size or mtime.
      if (stored === undefined || stored.k === "unreadable") continue;
      files[entry.key] = stored;
      count++;
    }
    try {
      mkdirSync(dirname(this.path), { recursive: true });
      await writeFileAtomic(this.path, asciiJson({ version: CACHE_VERSION, count, files } satisfies CacheContents));
    } catch {
      // A read-only state dir means cold starts every time, not a broken session.
    }
  }
}
