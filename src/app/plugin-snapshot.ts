/**
 * The session's plugins as one stored record: everything the enabled installs contribute (sources,
 * hooks, checked server definitions, `bin/` folders, the start-up lines), keyed by the identity of
 * `installed_plugins.json` (inode, size, mtime), the enabled set and the folder. Installs are content-addressed
 * folders that never change, so when none of that changed the record still holds; it is written
 * only after every folder in it was checked against its recorded hash, and each folder is checked
 * again (PluginIntegrity) before anything of it is read or run in a session that used the record.
 *
 * The record is two files. The front holds what a start needs before its first request; the rest
 * holds the component sources, the install hashes, the hooks' contents and the MCP server
 * definitions, read when the extensions registry is built, a plugin is checked (after the first
 * request, unless something of it is used before), a hook is compiled or a server starts. The
 * rest is named by its content and opened with the front, so the pair read always belongs together.
 *
 * A start reads the front's first line only (its second line and the rest later, through the files
 * it opened): every part past that first line is checked when it is first read, and a part that is
 * not the one written makes the session refuse every plugin of the record (plugins-setup.ts).
 */
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { ComponentSource } from "../extensions/types.ts";
import type { HookOrigin } from "../hooks/types.ts";
import type { DeferredServerName, McpServerConfig } from "../mcp/types.ts";
import type { CheckedPlugin } from "../plugins/install/integrity.ts";
import type { Environment } from "../settings/paths.ts";
import { asciiJson } from "../util/ascii-json.ts";
import { writeFileAtomicSync } from "../util/atomic-write.ts";
import { START_UP_LINES } from "./report-lines.ts";

const SNAPSHOT_VERSION = 17;
/** Records kept besides the newest (other projects, other enabled sets); older ones are removed. */
const KEEP = 12;
const REST_SUFFIX = ".rest.json";

/** A plugin's MCP server checked once (zod) at load: a warm start only expands variables. */
export interface CheckedServer {
  name: string;
  file: string;
  config?: McpServerConfig;
  hash: string;
  problems: string[];
}

export type PluginHookOrigin = Extract<HookOrigin, { kind: "plugin" }>;

/** A plugin's valid MCP server: how a start names it, and (in the rest) what defines it. */
export interface SnapshotServer {
  plugin: string;
  root: string;
  dataDir: string;
  name: string;
  file: string;
  config: McpServerConfig;
  hash: string;
}

/**
 * What the session knows of its plugins without their folders, stored as it is used. A start reads
 * the counts, events and first lines (600 plugins: a few KB); the lists of ids, lines, hook origins
 * and server names (~250 KB) when first asked for, which a `-p` run does after its first request.
 */
export interface PluginSnapshot {
  ids: Array<{ name: string; path: string; id: string }>;
  /** Start-up lines: resolution problems, plugins' own errors, server definition problems. */
  lines: string[];
  /** What is known of the plugins' component sources before they are made (they are `SnapshotRest.sources`). */
  sourceSet: { digest: string; anyFolder: boolean; immutable: boolean };
  /** Where each of the plugins' hook blocks comes from; their contents are `SnapshotRest.hooks`, in this order. */
  hookOrigins: PluginHookOrigin[];
  /** How many hook blocks there are, and whether one's plugin was forced on by managed settings (what the hook policy asks of a plugin): known before `hookOrigins` is read. */
  hookCount: number;
  hooksForced: boolean;
  /** How many `serverNames` there are, known before they are read. */
  serverCount: number;
  /** Events the plugins' hooks handle, and their problems as start-up lines (see DeferredHooks): as many as a start prints, and how many there are. */
  hookEvents: string[];
  hookLines: string[];
  hookLineCount: number;
  /**
   * The plugins' valid MCP servers by name (`plugin_<plugin>_<server>`), and why one cannot start
   * whatever its variables hold (a blank URL); their definitions are `SnapshotRest.servers`, in this order.
   */
  serverNames: DeferredServerName[];
  /** Remote servers whose URL has `${…}` in it: a start tells at once whether it expands to nothing. */
  unsureServers: Array<{ index: number; url: string; file: string; root: string; dataDir: string }>;
  bins: Array<{ dir: string; root: string }>;
  /** Enabled ids with no install record here (for the team-rollout notice). */
  notInstalled: string[];
}

/** What is read once a plugin is checked (after the first request, or when something of it is used), a hook is compiled or a server starts. */
export interface SnapshotRest {
  /** One component source per plugin, in `ids` order. */
  sources: ComponentSource[];
  /** Every install in the record, for the integrity checks a warm start defers. */
  checks: CheckedPlugin[];
  hooks: unknown[];
  servers: SnapshotServer[];
}

/** The first start-up lines — as many as a start prints, and one more — and how many there are in all. */
export interface StartupLines {
  lines: string[];
  count: number;
}

export interface StoredSnapshot {
  /** Its lists (TailKey) are read from the front's tail when first asked for; they throw when it is not the tail written. */
  snapshot: PluginSnapshot;
  startup: StartupLines;
  /** Reads the rest (once); throws when it cannot be read. */
  rest: () => SnapshotRest;
}

/**
 * The front is two JSON texts on two lines: this, then the tail — the ids, every start-up line, the
 * hook origins and server names (600 plugins: ~260 KB of the ~265) — read, checked and parsed only
 * when asked for, which a start need not do before its first request (it prints the first lines,
 * counts the hooks and servers, and lists the plugins, hooks and servers when asked).
 */
interface StoredFront extends Omit<PluginSnapshot, TailKey> {
  version: number;
  /** The rest's file name, beside the front. */
  rest: string;
  startup: StartupLines;
  /** Bun.hash of the tail's text: a tail that is not the one written is a damaged record. */
  tail: string;
}

/** The lists kept in the front's second line. */
type TailKey = "ids" | "lines" | "hookOrigins" | "serverNames";
type StoredTail = Pick<PluginSnapshot, TailKey>;

function isFront(value: Partial<StoredFront>): value is StoredFront {
  const lists = [value.startup?.lines, value.hookEvents, value.hookLines, value.unsureServers, value.bins, value.notInstalled];
  const counts = [value.startup?.count, value.hookLineCount, value.hookCount, value.serverCount];
  return value.version === SNAPSHOT_VERSION && typeof value.rest === "string" && basename(value.rest) === value.rest && typeof value.tail === "string" && counts.every((count) => typeof count === "number") && typeof value.hooksForced === "boolean" && typeof value.sourceSet?.digest === "string" && lists.every(Array.isArray);
}

/** Reads a file opened at start once, on first use, and closes it; the same failure again after one. */
function once<T>(fd: number, parse: (text: string) => T): () => T {
  let value: { parsed: T } | undefined;
  let failure: Error | undefined;
  return () => {
    if (value) return value.parsed;
    if (failure) throw failure;
    try {
      value = { parsed: parse(readFileSync(fd, "latin1")) };
      return value.parsed;
    } catch (error) {
      failure = error instanceof Error ? error : new Error(String(error));
      throw failure;
    } finally {
      closeSync(fd);
    }
  };
}

/** The snapshot of a front, its tail read (from the front's own file, past `tailAt`), checked and parsed on first use. */
function withTail({ version: _version, rest: _rest, startup: _startup, tail: tailHash, ...front }: StoredFront, fd: number, tailAt: number): PluginSnapshot {
  const read = once(fd, (text): StoredTail => {
    const tail = text.slice(tailAt);
    // Checked before it is parsed: a tail edited by hand may still be JSON.
    if (Bun.hash(tail).toString(36) !== tailHash) throw new Error("its list of plugins is not the one written");
    const value = JSON.parse(tail) as Partial<StoredTail>;
    if (!Array.isArray(value.ids) || !Array.isArray(value.lines) || !Array.isArray(value.hookOrigins) || !Array.isArray(value.serverNames)) throw new Error("its list of plugins is not the one written");
    return { ids: value.ids, lines: value.lines, hookOrigins: value.hookOrigins, serverNames: value.serverNames };
  });
  return {
    ...front,
    get ids() {
      return read().ids;
    },
    get lines() {
      return read().lines;
    },
    get hookOrigins() {
      return read().hookOrigins;
    },
    get serverNames() {
      return read().serverNames;
    },
  };
}

/** What a start prints of `lines` (see reportCapped): the first ones, and how many there are. */
export function startupLinesOf(lines: readonly string[]): StartupLines {
  return { lines: lines.slice(0, START_UP_LINES + 1), count: lines.length };
}

// ---- the files -----------------------------------------------------------------------------------
let lastRead: { path: string; stored: StoredSnapshot | undefined } | undefined;

const contexts = new WeakMap<object, { cwd: string; homeDir: string; key: string }>();

/**
 * The version, folder and `enabledPlugins` map, hashed (once per map). The map is hashed as it is
 * serialised, in the settings' order and with its `false` entries: reordering or adding a disabled
 * entry costs one load from the folders; listing the enabled ids would cost every start a pass
 * over hundreds of them, and sorting them more.
 */
function contextKey(env: Environment, enabledPlugins: Readonly<Record<string, boolean>>): string {
  const known = contexts.get(enabledPlugins);
  if (known && known.cwd === env.cwd && known.homeDir === env.homeDir) return known.key;
  const key = Bun.hash(`${JSON.stringify([SNAPSHOT_VERSION, env.cwd, env.homeDir])}\n${JSON.stringify(enabledPlugins)}`).toString(36);
  contexts.set(enabledPlugins, { cwd: env.cwd, homeDir: env.homeDir, key });
  return key;
}

/** The record's path for this start (cheap: one stat of the install records, one hash). */
export function snapshotPath(env: Environment, enabledPlugins: Readonly<Record<string, boolean>>): string {
  // clew replaces the install records by renaming a new file over them, so any change gives a new
  // inode; size and mtime catch an edit made in place by hand.
  let records = "none";
  try {
    const stats = statSync(join(env.pluginsDir, "installed_plugins.json"));
    records = `${stats.ino}:${stats.size}:${stats.mtimeMs}`;
  } catch {
    // No installs: every enabled plugin is reported as not installed, which the record holds too.
  }
  const key = `${contextKey(env, enabledPlugins)}-${Bun.hash(records).toString(36)}`;
  return join(env.pluginsDir, "index", `session-${key}.json`);
}

/** A rest, read once from a descriptor opened with the front (the pair stays together if the files are replaced meanwhile). */
function parseRest(text: string): SnapshotRest {
  const value = JSON.parse(text) as Partial<SnapshotRest>;
  if (!Array.isArray(value.sources) || !Array.isArray(value.checks) || !Array.isArray(value.hooks) || !Array.isArray(value.servers)) throw new Error("it is not a plugin record");
  return { sources: value.sources, checks: value.checks, hooks: value.hooks, servers: value.servers };
}

/** What one read takes of a front: the first line of 600 plugins' record (~7 KB) in one go. */
const FRONT_READ = 1 << 14;

/** The front's first line, and where its second begins; undefined when the file has no line break. */
function readFirstLine(fd: number): { text: string; next: number } | undefined {
  let buffer = Buffer.allocUnsafe(FRONT_READ);
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      const grown = Buffer.allocUnsafe(buffer.length * 2);
      buffer.copy(grown, 0, 0, length);
      buffer = grown;
    }
    const read = readSync(fd, buffer, length, buffer.length - length, length);
    if (read === 0) return undefined;
    const cut = buffer.subarray(0, length + read).indexOf(10, length);
    length += read;
    if (cut >= 0) return { text: buffer.toString("latin1", 0, cut), next: cut + 1 };
  }
}

export function readSnapshot(path: string): StoredSnapshot | undefined {
  if (lastRead?.path === path) return lastRead.stored;
  let stored: StoredSnapshot | undefined;
  const opened: number[] = [];
  try {
    const fd = openSync(path, "r");
    opened.push(fd);
    const line = readFirstLine(fd);
    const front = line ? (JSON.parse(line.text) as Partial<StoredFront>) : undefined;
    if (line && front && isFront(front)) {
      const restFd = openSync(join(dirname(path), front.rest), "r");
      opened.push(restFd);
      stored = { snapshot: withTail(front, fd, line.next), startup: front.startup, rest: once(restFd, parseRest) };
    }
  } catch {
    // Missing or damaged (the front, or its rest gone): the plugins load from their folders and the record is written again.
    stored = undefined;
  }
  if (!stored) for (const fd of opened) closeSync(fd);
  lastRead = { path, stored };
  return stored;
}

/** Writes the rest under a name taken from its content, then the front that names it. */
export function writeSnapshot(path: string, snapshot: PluginSnapshot, rest: SnapshotRest): void {
  try {
    const dir = dirname(path);
    mkdirSync(dir, { recursive: true });
    const restText = asciiJson(rest);
    const restName = `${basename(path, ".json")}.${Bun.hash(restText).toString(36)}${REST_SUFFIX}`;
    writeFileAtomicSync(join(dir, restName), restText);
    const { ids, lines, hookOrigins, serverNames, ...frontPart } = snapshot;
    const tail = asciiJson({ ids, lines, hookOrigins, serverNames } satisfies StoredTail);
    // Only what a start prints of the hook lines: the others are listed by /hooks, from the compiled hooks.
    const front: StoredFront = { version: SNAPSHOT_VERSION, rest: restName, ...frontPart, hookLines: snapshot.hookLines.slice(0, START_UP_LINES + 1), startup: startupLinesOf(lines), tail: Bun.hash(tail).toString(36) };
    // asciiJson writes no line break (a newline in a string is escaped): the first one ends the front.
    writeFileAtomicSync(path, `${asciiJson(front)}\n${tail}`);
    lastRead = { path, stored: { snapshot, startup: startupLinesOf(lines), rest: () => rest } };
    prune(dir, restName);
  } catch {
    // A read-only plugins folder: every start loads the plugins from their folders.
  }
}

/** Keeps the newest fronts and the rests they may name: a rest no front owns any more goes, and so does an older rest of the front just written. */
function prune(dir: string, current: string): void {
  const names = readdirSync(dir).filter((name) => name.startsWith("session-") && name.endsWith(".json"));
  const fronts = names
    .filter((name) => !name.endsWith(REST_SUFFIX))
    .map((name) => ({ name, mtime: statSync(join(dir, name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const old of fronts.slice(KEEP)) rmSync(join(dir, old.name), { force: true });
  const kept = new Set(fronts.slice(0, KEEP).map((front) => basename(front.name, ".json")));
  const owner = current.slice(0, current.indexOf("."));
  for (const name of names) {
    if (!name.endsWith(REST_SUFFIX) || name === current) continue;
    const front = name.slice(0, name.indexOf("."));
    if (!kept.has(front) || front === owner) rmSync(join(dir, name), { force: true });
  }
}

/** After a refusal: the next start loads from the folders again, checking each one first. */
export function dropSnapshot(path: string): void {
  rmSync(path, { force: true });
  if (lastRead?.path === path) lastRead = undefined;
}
