/**
 * The lines the interactive UI shows under a finished WebSearch call: each result's title and
 * URL, from the call's structured result (`WebSearchData`, the tool_end event's `data`). Pure;
 * anything that is not a WebSearch result gives no lines.
 */
const MAX_LINES = 8;

function hitsOf(data: unknown): Array<{ title: string; url: string }> {
  if (typeof data !== "object" || data === null || !Array.isArray((data as { results?: unknown }).results)) return [];
  const hits: Array<{ title: string; url: string }> = [];
  const seen = new Set<string>();
  for (const entry of (data as { results: unknown[] }).results) {
    const content = typeof entry === "object" && entry !== null ? (entry as { content?: unknown }).content : undefined;
    if (!Array.isArray(content)) continue;
    for (const hit of content) {
      const { title, url } = (hit ?? {}) as { title?: unknown; url?: unknown };
      if (typeof url !== "string" || seen.has(url)) continue;
      seen.add(url);
      hits.push({ title: typeof title === "string" && title.trim() !== "" ? title.trim() : url, url });
    }
  }
  return hits;
}

export function webSearchResultLines(data: unknown, max = MAX_LINES): string[] {
  const hits = hitsOf(data);
  const lines = hits.slice(0, max).map((hit) => `${hit.title} — ${hit.url}`);
  if (hits.length > max) lines.push(`… ${hits.length - max} more`);
  return lines;
}
