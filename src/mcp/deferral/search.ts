/**
 * ToolSearch's matching over the deferred tools, with Claude Code's query forms:
 * - `select:a,b` loads those tools by exact name (a tool's own name on its server works too);
 * - `slack send` ranks tools by how well the words match their names and descriptions;
 * - `+slack send` keeps only tools whose name contains "slack", ranked by the other words.
 * Plain keyword scoring, no index: a session defers hundreds of tools, not millions.
 */
import type { AnyTool } from "../../tools/types.ts";

export const DEFAULT_MAX_RESULTS = 5;
/** More than this in one answer would load a large share of the deferred schemas at once. */
export const MAX_RESULTS_CAP = 50;

interface Entry {
  name: string;
  /** Lower-cased words of the name: `mcp__github__create_issue` → mcp, github, create, issue. */
  nameWords: string[];
  nameText: string;
  description: string;
  /** The tool's own name on its server, for `select:create_issue`. */
  ownName: string | undefined;
}

/** Splits on `__`, `_`, `-`, `.`, spaces and camelCase boundaries. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[\s_.\-/:]+/)
    .map((word) => word.toLowerCase())
    .filter((word) => word !== "");
}

export class DeferredToolIndex {
  #entries: Entry[] = [];

  constructor(tools: readonly AnyTool[] = [], deferred: ReadonlySet<string> = new Set()) {
    this.update(tools, deferred);
  }

  /** Replaces what is searchable (MCP servers connect, disconnect and change their tools). */
  update(tools: readonly AnyTool[], deferred: ReadonlySet<string>): void {
    this.#entries = tools
      .filter((tool) => deferred.has(tool.name))
      .map((tool) => ({
        name: tool.name,
        nameWords: nameWords(tool.name),
        nameText: tool.name.toLowerCase(),
        description: tool.description.toLowerCase(),
        ownName: tool.origin?.tool,
      }));
  }

  get size(): number {
    return this.#entries.length;
  }

  /** Names of the best matches, best first, at most `max`. */
  search(query: string, max: number = DEFAULT_MAX_RESULTS): string[] {
    const limit = Math.min(MAX_RESULTS_CAP, Math.max(1, Math.floor(Number.isFinite(max) ? max : DEFAULT_MAX_RESULTS)));
    const trimmed = query.trim();
    const select = /^select:(.*)$/is.exec(trimmed);
    if (select) return this.#select(select[1] ?? "");
    const exact = this.#entries.find((entry) => entry.name === trimmed);
    if (exact) return [exact.name];
    return this.#rank(trimmed, limit);
  }

  /** Every named tool that is deferred, in the order asked; unknown names are left out. */
  #select(list: string): string[] {
    const found: string[] = [];
    for (const wanted of list.split(",").map((name) => name.trim()).filter(Boolean)) {
      const entry =
        this.#entries.find((candidate) => candidate.name === wanted) ??
        this.#entries.find((candidate) => candidate.name.toLowerCase() === wanted.toLowerCase()) ??
        this.#entries.find((candidate) => candidate.ownName === wanted);
      if (entry && !found.includes(entry.name)) found.push(entry.name);
    }
    return found;
  }

  #rank(query: string, limit: number): string[] {
    const terms = query.split(/\s+/).filter(Boolean);
    const required = terms.filter((term) => term.startsWith("+") && term.length > 1).map((term) => term.slice(1).toLowerCase());
    const scored = terms.filter((term) => !term.startsWith("+")).flatMap((term) => nameWords(term));
    const words = scored.length > 0 ? scored : required.flatMap((term) => nameWords(term));
    if (words.length === 0) return [];
    const results: { name: string; score: number; order: number }[] = [];
    this.#entries.forEach((entry, order) => {
      if (!required.every((term) => entry.nameText.includes(term))) return;
      const score = words.reduce((sum, word) => sum + scoreWord(entry, word), 0);
      if (score > 0) results.push({ name: entry.name, score, order });
    });
    results.sort((a, b) => b.score - a.score || a.order - b.order);
    return results.slice(0, limit).map((result) => result.name);
  }
}

/** A whole word of the name counts most, part of the name less, the description least. */
function scoreWord(entry: Entry, word: string): number {
  if (entry.nameWords.includes(word)) return 10;
  if (entry.nameText.includes(word)) return 5;
  if (new RegExp(`\\b${escapeRegExp(word)}`).test(entry.description)) return 2;
  return 0;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
