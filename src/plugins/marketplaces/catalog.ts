/**
 * The little a marketplace operation needs from a catalog: its `name` (the marketplace's id) and
 * how many plugins it lists. Full parsing, entry by entry, is the loader's (marketplace-file.ts);
 * this only refuses what cannot be registered at all.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";

export interface CatalogSummary {
  name: string;
  pluginCount: number;
  /** Absolute path of the catalog file read. */
  file: string;
}

export type CatalogRead = { ok: true; catalog: CatalogSummary } | { ok: false; error: string };

/** Also the folder name under marketplaces/, so nothing that could climb out of it. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export function catalogFileOf(root: string): string {
  return join(root, ".claude-plugin", "marketplace.json");
}

export async function readCatalogSummary(root: string): Promise<CatalogRead> {
  const file = catalogFileOf(root);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return { ok: false, error: `No marketplace found: ${file} does not exist. A marketplace is a folder (or repository) with .claude-plugin/marketplace.json.` };
  }
  return summarizeCatalog(text, file);
}

export function summarizeCatalog(text: string, file: string): CatalogRead {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `${file}: invalid JSON syntax: ${(error as Error).message}` };
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return { ok: false, error: `${file}: a marketplace must be a JSON object with "name", "owner" and "plugins".` };
  const record = parsed as Record<string, unknown>;
  if (typeof record.name !== "string" || record.name.trim() === "") return { ok: false, error: `${file}: "name" is missing; it is the marketplace's id (e.g. "my-team-tools").` };
  if (!NAME.test(record.name)) return { ok: false, error: `${file}: "name" '${record.name}' must be 1–128 letters, digits, '.', '_' or '-', starting with a letter or digit.` };
  if (!Array.isArray(record.plugins)) return { ok: false, error: `${file}: "plugins" must be an array of plugin entries.` };
  return { ok: true, catalog: { name: record.name, pluginCount: record.plugins.length, file } };
}
