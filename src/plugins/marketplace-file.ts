/**
 * `.claude-plugin/marketplace.json` (marketplaces.md §2–3): the catalog's own fields and its
 * entries with their sources. One bad entry never fails the catalog: it is kept with an `unknown`
 * source and an `entry-invalid` problem (field `plugins[i]…`), and every other entry reads on.
 */
import { join } from "node:path";
import { readEntrySource } from "./entry-source.ts";
import { checkFields } from "./manifest.ts";
import { isObject, ProblemList, readJson } from "./plugin-files.ts";
import type { MarketplaceEntry, MarketplaceFile, PluginProblem } from "./types.ts";

export const MARKETPLACE_PATH = ".claude-plugin/marketplace.json";

/** Names only the official Anthropic source may use (marketplaces.md §2.1). */
export const RESERVED_MARKETPLACE_NAMES: ReadonlySet<string> = new Set([
  "claude-code-marketplace", "claude-code-plugins", "claude-plugins-official", "claude-plugins-community", "claude-community",
  "anthropic-marketplace", "anthropic-plugins", "agent-skills", "anthropic-agent-skills", "knowledge-work-plugins", "life-sciences",
  "claude-for-legal", "claude-for-financial-services", "financial-services-plugins", "first-party-plugins", "healthcare",
]);

const TOP_LEVEL_KEYS = new Set(["$schema", "name", "owner", "description", "version", "metadata", "allowCrossMarketplaceDependenciesOn", "renames", "plugins"]);

const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*$/;

function checkName(name: string, file: string, problems: ProblemList): void {
  if (RESERVED_MARKETPLACE_NAMES.has(name)) {
    problems.add("note", "marketplace-name-reserved", file, `name "${name}" is reserved for the official Anthropic source (refused when added from anywhere else, e.g. a local copy)`, "name");
  }
  if (/^(org|org-provisioned|unknown)$/i.test(name) || !/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(name)) {
    problems.add("warning", "marketplace-name-desktop", file, `marketplace name "${name}" is not accepted by Claude Desktop; use 1–128 letters, digits, ".", "_" or "-", starting with a letter or digit.`, "name");
  }
}

function readEntry(raw: unknown, index: number, file: string, pluginRoot: string | undefined, problems: ProblemList): MarketplaceEntry {
  const at = `plugins[${index}]`;
  if (!isObject(raw)) {
    problems.add("error", "entry-invalid", file, `${at}: an entry must be an object with "name" and "source"; it is skipped.`, at);
    return { index, name: at, source: { kind: "unknown", raw }, strict: null, raw: {} };
  }
  const named = typeof raw.name === "string" && raw.name !== "";
  const name = named ? (raw.name as string) : at;
  const label = `${at} "${name}"`;
  checkFields(raw, { file, label, fieldPrefix: `${at}.`, kind: "entry" }, problems);
  const read = readEntrySource(raw.source, pluginRoot);
  if (!named) problems.add("error", "entry-invalid", file, `${at}: the entry has no "name"; add one (it is the plugin's id in name@marketplace).`, `${at}.name`);
  else if (!KEBAB.test(name)) problems.add("warning", "entry-name-format", file, `${label}: plugin name is not kebab-case (lowercase letters, digits, hyphens); claude.ai sync rejects it.`, `${at}.name`);
  if (read.ok) for (const warning of read.warnings) problems.add("warning", "source-form", file, `${label}: ${warning}.`, `${at}.source`);
  else problems.add("error", "entry-invalid", file, `${label}: ${read.reason}`, `${at}.source`);
  return {
    index,
    name,
    source: named ? read.source : { kind: "unknown", raw: raw.source },
    strict: typeof raw.strict === "boolean" ? raw.strict : null,
    ...(typeof raw.version === "string" ? { version: raw.version } : {}),
    ...(typeof raw.description === "string" ? { description: raw.description } : {}),
    raw,
  };
}

/**
 * Reads `<root>/.claude-plugin/marketplace.json`. `marketplace` is undefined only when the file is
 * missing or unreadable as a JSON object; a catalog with bad entries still comes back, with them.
 */
export function readMarketplace(root: string): { marketplace?: MarketplaceFile; problems: PluginProblem[] } {
  const file = join(root, MARKETPLACE_PATH);
  const problems = new ProblemList();
  const read = readJson(file);
  if (read.kind === "missing") {
    problems.add("error", "marketplace-missing", file, `no ${MARKETPLACE_PATH} in ${root}; a marketplace lists its plugins there.`);
    return { problems: problems.items };
  }
  if (read.kind === "invalid" || !isObject(read.value)) {
    const why = read.kind === "invalid" ? `Invalid JSON syntax: ${read.message}` : "it must be a JSON object";
    problems.add("error", "marketplace-json-error", file, `marketplace.json cannot be read (${why}); fix it, no plugin of this marketplace loads until then.`);
    return { problems: problems.items };
  }
  const raw = read.value;
  for (const key of Object.keys(raw)) if (!TOP_LEVEL_KEYS.has(key)) problems.add("note", "marketplace-unknown-key", file, `unknown top-level key "${key}" (ignored)`, key);

  const name = typeof raw.name === "string" ? raw.name : "";
  if (name === "") problems.add("error", "marketplace-no-name", file, 'marketplace.json has no "name"; add a kebab-case "name" (it is the marketplace id in plugin@name).', "name");
  else checkName(name, file, problems);

  const owner = raw.owner;
  const ownerName = typeof owner === "string" ? owner : isObject(owner) && typeof owner.name === "string" ? owner.name : undefined;
  if (ownerName === undefined) problems.add("error", "marketplace-no-owner", file, 'marketplace.json needs "owner": {"name": "…"} (who maintains it).', "owner");
  else if (typeof owner === "string") problems.add("warning", "marketplace-owner-string", file, '"owner" should be an object {"name": "…", "email": "…"}; the string is used as the name.', "owner");

  const metadata = isObject(raw.metadata) ? raw.metadata : {};
  // The original schema put the description under metadata; both places count (marketplaces.md §2).
  const description = typeof raw.description === "string" ? raw.description : typeof metadata.description === "string" ? metadata.description : undefined;
  if (description === undefined) problems.add("note", "marketplace-no-description", file, "no marketplace description", "description");

  let pluginRoot: string | undefined;
  if (typeof metadata.pluginRoot === "string") pluginRoot = metadata.pluginRoot.replace(/^\.\//, "").replace(/\/+$/, "") || ".";

  const entries: MarketplaceEntry[] = [];
  if (!Array.isArray(raw.plugins)) {
    problems.add("error", "marketplace-no-plugins", file, '"plugins" must be a list of plugin entries; none are read.', "plugins");
  } else {
    if (raw.plugins.length === 0) problems.add("warning", "marketplace-no-plugins", file, "Marketplace has no plugins defined", "plugins");
    const names = new Set<string>();
    raw.plugins.forEach((item, index) => {
      const entry = readEntry(item, index, file, pluginRoot, problems);
      if (names.has(entry.name)) {
        problems.add("error", "entry-duplicate-name", file, `Duplicate plugin name "${entry.name}" found in marketplace (plugins[${index}]); plugin names must be unique.`, `plugins[${index}].name`);
      }
      names.add(entry.name);
      entries.push(entry);
    });
  }

  const renames: Record<string, string> = {};
  if (isObject(raw.renames)) for (const [from, to] of Object.entries(raw.renames)) if (typeof to === "string") renames[from] = to;

  return {
    marketplace: { name, ...(ownerName === undefined ? {} : { ownerName }), ...(description === undefined ? {} : { description }), file, root, entries, renames, raw },
    problems: problems.items,
  };
}
