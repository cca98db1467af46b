/**
 * `<pluginsDir>/known_marketplaces.json`: the marketplaces this user has added, in Claude Code's
 * shape (marketplaces.md §7) — name → { source, installLocation, lastUpdated, autoUpdate? }.
 * Written atomically; never holds a credential (tokens stay in the environment).
 */
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomic } from "../../util/atomic-write.ts";
import type { MarketplaceSource } from "./sources.ts";

export interface KnownMarketplace {
  source: MarketplaceSource;
  /** The marketplace root: the folder holding `.claude-plugin/marketplace.json`. */
  installLocation: string;
  lastUpdated: string;
  autoUpdate?: boolean;
  /** The commit the copy is at (git sources); clew's addition, ignored by Claude Code. */
  commit?: string;
}

export type KnownMarketplaces = Record<string, KnownMarketplace>;

export function statePath(pluginsDir: string): string {
  return join(pluginsDir, "known_marketplaces.json");
}

export function marketplacesDir(pluginsDir: string): string {
  return join(pluginsDir, "marketplaces");
}

export class StateFileError extends Error {
  readonly code = "state-file";
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isSource(value: unknown): value is MarketplaceSource {
  if (!isRecord(value) || typeof value.source !== "string") return false;
  if (value.source === "github") return typeof value.repo === "string";
  if (value.source === "git" || value.source === "url") return typeof value.url === "string";
  if (value.source === "file" || value.source === "directory") return typeof value.path === "string";
  return false;
}

/**
 * Reads the state; a missing file is an empty state. A malformed file is an error naming the
 * file (never silently treated as empty, which would forget the user's marketplaces on the
 * next write). Single malformed entries are skipped and reported in `problems`.
 */
export interface StateRead {
  marketplaces: KnownMarketplaces;
  problems: string[];
  /** Entries clew could not read, kept as written so the next write does not lose them. */
  unreadable: Record<string, unknown>;
}

export async function readKnownMarketplaces(pluginsDir: string): Promise<StateRead> {
  const file = statePath(pluginsDir);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return { marketplaces: {}, problems: [], unreadable: {} };
    throw new StateFileError(`Could not read ${file}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new StateFileError(`${file} is not valid JSON (${(error as Error).message}). Fix or delete it, then add your marketplaces again.`);
  }
  if (!isRecord(parsed)) throw new StateFileError(`${file} must hold a JSON object of marketplace name → entry. Fix or delete it.`);
  const marketplaces: KnownMarketplaces = {};
  const problems: string[] = [];
  const unreadable: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(parsed)) {
    if (!isRecord(entry) || !isSource(entry.source) || typeof entry.installLocation !== "string") {
      problems.push(`${file}: entry '${name}' has no valid source and installLocation; it was skipped (remove it with \`clew plugin marketplace remove ${name}\` or add it again).`);
      unreadable[name] = entry;
      continue;
    }
    marketplaces[name] = {
      source: entry.source,
      installLocation: entry.installLocation,
      lastUpdated: typeof entry.lastUpdated === "string" ? entry.lastUpdated : new Date(0).toISOString(),
      ...(typeof entry.autoUpdate === "boolean" ? { autoUpdate: entry.autoUpdate } : {}),
      ...(typeof entry.commit === "string" ? { commit: entry.commit } : {}),
    };
  }
  return { marketplaces, problems, unreadable };
}

export async function writeKnownMarketplaces(pluginsDir: string, marketplaces: KnownMarketplaces, unreadable: Record<string, unknown> = {}): Promise<void> {
  await mkdir(pluginsDir, { recursive: true });
  await writeFileAtomic(statePath(pluginsDir), `${JSON.stringify({ ...unreadable, ...marketplaces }, null, 2)}\n`);
}
