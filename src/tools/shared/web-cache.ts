/**
 * Pages a session fetched, kept 15 minutes per URL (as Claude Code does), so asking another
 * question about the same page does not download and convert it again. Held per session and in
 * memory only, within a size budget (oldest dropped first).
 */
import type { ToolSession } from "../types.ts";

export const PAGE_TTL_MS = 15 * 60_000;
const BUDGET_CHARS = 25_000_000;

export interface CachedPage {
  /** The page's text as the prompt sees it (Markdown for HTML), already cut to the limit. */
  text: string;
  /** Characters before the cut, when there was one. */
  cutFrom?: number;
  /** The byte limit stopped the download. */
  truncated: boolean;
  status: number;
  statusText: string;
  contentType: string;
  bytes: number;
  /** Final URL after same-host redirects. */
  url: string;
  fetchedAt: number;
}

const caches = new WeakMap<ToolSession, Map<string, CachedPage>>();

function cacheOf(session: ToolSession): Map<string, CachedPage> {
  let cache = caches.get(session);
  if (!cache) {
    cache = new Map();
    caches.set(session, cache);
  }
  return cache;
}

export function cachedPage(session: ToolSession, url: string, now: number): CachedPage | undefined {
  const cache = cacheOf(session);
  const page = cache.get(url);
  if (!page) return undefined;
  if (now - page.fetchedAt < PAGE_TTL_MS) return page;
  cache.delete(url);
  return undefined;
}

export function rememberPage(session: ToolSession, url: string, page: CachedPage): void {
  const cache = cacheOf(session);
  cache.delete(url);
  cache.set(url, page);
  let total = 0;
  for (const entry of cache.values()) total += entry.text.length;
  // Maps iterate in insertion order: the first keys are the oldest pages.
  for (const [key, entry] of cache) {
    if (total <= BUDGET_CHARS || key === url) break;
    cache.delete(key);
    total -= entry.text.length;
  }
}
