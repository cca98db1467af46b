/**
 * Marketplace names only Anthropic's own repositories may use (marketplaces.md §2.1). Claude
 * Code's exact test for "official source" is unconfirmed; clew's rule: a GitHub repository owned
 * by `anthropics`, given as owner/repo or as a github.com URL (https or ssh). The check runs on
 * add and is exported for every load (a name that became reserved later stops loading).
 */
import type { MarketplaceSource } from "./sources.ts";

export const RESERVED_MARKETPLACE_NAMES: readonly string[] = [
  "claude-code-marketplace",
  "claude-code-plugins",
  "claude-plugins-official",
  "claude-plugins-community",
  "claude-community",
  "anthropic-marketplace",
  "anthropic-plugins",
  "agent-skills",
  "anthropic-agent-skills",
  "knowledge-work-plugins",
  "life-sciences",
  "claude-for-legal",
  "claude-for-financial-services",
  "financial-services-plugins",
  "first-party-plugins",
  "healthcare",
];

/** Names that pass for official ones: `official-claude-plugins`, `anthropic-plugins-v2`, … */
function impersonates(name: string): boolean {
  const lower = name.toLowerCase();
  if (/(^|[-_.])anthropics?([-_.]|$)/.test(lower)) return true;
  return lower.includes("claude") && lower.includes("official");
}

export function isReservedName(name: string): boolean {
  return RESERVED_MARKETPLACE_NAMES.includes(name.toLowerCase()) || impersonates(name);
}

const GITHUB_URL = /^(?:https:\/\/github\.com\/|git@github\.com:|ssh:\/\/git@github\.com\/)([^/]+)\/[^/]+?(?:\.git)?\/?$/i;

export function isOfficialSource(source: MarketplaceSource): boolean {
  if (source.source === "github") return source.repo.toLowerCase().startsWith("anthropics/");
  if (source.source === "git") return GITHUB_URL.exec(source.url)?.[1]?.toLowerCase() === "anthropics";
  return false;
}

/** A refusal message, or undefined when the name may be used from this source. */
export function reservedNameRefusal(name: string, source: MarketplaceSource): string | undefined {
  if (!isReservedName(name) || isOfficialSource(source)) return undefined;
  return `The marketplace name '${name}' is reserved for Anthropic's official marketplaces and is only accepted from an anthropics/* GitHub repository; this source is not one. If you maintain this marketplace, give it another name in .claude-plugin/marketplace.json.`;
}

/** Official marketplaces update themselves by default; third-party ones do not (§8.1). */
export function defaultAutoUpdate(name: string, source: MarketplaceSource): boolean {
  return isReservedName(name) && isOfficialSource(source);
}
