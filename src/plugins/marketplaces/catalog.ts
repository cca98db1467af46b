/**
 * The little a marketplace operation needs from a catalog: its `name` (the marketplace's id) and
 * how many plugins it lists, read with the loader's reader (marketplace-file.ts). Only what
 * cannot be registered at all is refused here; entry problems are the loader's to report.
 */
import { join } from "node:path";
import { readMarketplace } from "../marketplace-file.ts";

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
  const { marketplace, problems } = readMarketplace(root);
  const fatal = problems.find((problem) => problem.level === "error" && ["marketplace-missing", "marketplace-json-error", "marketplace-no-name"].includes(problem.code));
  if (!marketplace || fatal) return { ok: false, error: `${file}: ${fatal?.message ?? "the marketplace cannot be read."}` };
  if (!NAME.test(marketplace.name)) return { ok: false, error: `${file}: "name" '${marketplace.name}' must be 1–128 letters, digits, '.', '_' or '-', starting with a letter or digit.` };
  if (!Array.isArray(marketplace.raw.plugins)) return { ok: false, error: `${file}: "plugins" must be an array of plugin entries.` };
  return { ok: true, catalog: { name: marketplace.name, pluginCount: marketplace.entries.length, file } };
}
