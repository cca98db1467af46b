/**
 * Turns a backend's raw result into Grep's output: files newest first, `offset`/`head_limit`
 * pagination, long lines cut, and a note saying how to see more when results were cut.
 * The text states totals; `data` describes the page actually returned.
 */
import type { ToolOutput } from "../types.ts";
import type { ContentItem, GrepMode, GrepRaw } from "./grep-request.ts";
import { newestFirst } from "./newest-first.ts";

/** Characters of a line shown before it is cut. */
export const MAX_LINE_CHARS = 500;
export const DEFAULT_HEAD_LIMIT = 250;

export interface GrepPaging {
  /** 0 means no limit. */
  headLimit: number;
  offset: number;
  lineNumbers: boolean;
}

export interface GrepData {
  mode: GrepMode;
  numFiles: number;
  filenames: string[];
  content?: string;
  numLines?: number;
  numMatches?: number;
  /** Present when pagination left entries out. */
  appliedLimit?: number;
  appliedOffset?: number;
}

interface Page<T> {
  shown: T[];
  total: number;
  /** Entries exist beyond the page. */
  more: boolean;
}

export async function formatGrep(raw: GrepRaw, paging: GrepPaging): Promise<ToolOutput> {
  if (raw.mode === "files_with_matches") return formatFiles(await newestFirst(raw.files), raw.incomplete, paging);
  if (raw.mode === "count") return formatCounts(raw.counts, raw.incomplete, paging);
  return formatContent(raw.items, raw.incomplete, paging);
}

function formatFiles(files: string[], incomplete: boolean, paging: GrepPaging): ToolOutput {
  const page = paginate(files, paging);
  const data: GrepData = { mode: "files_with_matches", numFiles: page.shown.length, filenames: page.shown, ...applied(page, paging) };
  const header = `Found ${plural(files.length, "file")}`;
  if (files.length === 0) return { content: "No files found", display: { summary: header }, data };
  const content = joinParts([header, ...page.shown].join("\n"), ...notes(page, paging, "files", incomplete));
  return { content, display: { summary: header }, data };
}

function formatCounts(counts: Array<{ path: string; count: number }>, incomplete: boolean, paging: GrepPaging): ToolOutput {
  const page = paginate(counts, paging);
  const total = sum(counts);
  const data: GrepData = {
    mode: "count",
    numFiles: page.shown.length,
    filenames: page.shown.map((entry) => entry.path),
    numMatches: sum(page.shown),
    ...applied(page, paging),
  };
  const summary = `Found ${plural(total, "match", "matches")} in ${plural(counts.length, "file")}`;
  if (counts.length === 0) return { content: "No matches found", display: { summary }, data };
  const lines = page.shown.map((entry) => `${entry.path}:${entry.count}`);
  const totals = `Found ${plural(total, "total occurrence")} across ${plural(counts.length, "file")}.`;
  const content = joinParts(lines.join("\n"), totals, ...notes(page, paging, "entries", incomplete));
  return { content, display: { summary }, data };
}

function formatContent(items: ContentItem[], incomplete: boolean, paging: GrepPaging): ToolOutput {
  const page = paginate(items, paging);
  const body = page.shown.map((item) => renderItem(item, paging.lineNumbers)).join("\n");
  const filenames = [...new Set(page.shown.flatMap((item) => (item.kind === "line" && item.isMatch ? [item.path] : [])))];
  const data: GrepData = { mode: "content", numFiles: filenames.length, filenames, content: body, numLines: page.shown.length, ...applied(page, paging) };
  const summary = `Found ${plural(items.length, "line")}`;
  if (items.length === 0) return { content: "No matches found", display: { summary }, data };
  return { content: joinParts(body, ...notes(page, paging, "lines", incomplete)), display: { summary }, data };
}

function paginate<T>(entries: readonly T[], paging: GrepPaging): Page<T> {
  const end = paging.headLimit > 0 ? paging.offset + paging.headLimit : entries.length;
  return { shown: entries.slice(paging.offset, end), total: entries.length, more: end < entries.length };
}

function renderItem(item: ContentItem, lineNumbers: boolean): string {
  if (item.kind === "separator") return "--";
  if (item.kind === "note") return item.text;
  const separator = item.isMatch ? ":" : "-";
  const text = cutLine(item.text);
  return lineNumbers ? `${item.path}${separator}${item.lineNumber}${separator}${text}` : `${item.path}${separator}${text}`;
}

function cutLine(text: string): string {
  if (text.length <= MAX_LINE_CHARS) return text;
  let cut = text.slice(0, MAX_LINE_CHARS);
  // Don't leave half of a surrogate pair.
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut} [... omitted end of long line]`;
}

const NARROW = "narrow the search with a more specific pattern, path, glob or type.";

function notes(page: Page<unknown>, paging: GrepPaging, unit: string, incomplete: boolean): string[] {
  const result: string[] = [];
  if (page.shown.length === 0) {
    result.push(`(No ${unit} at offset ${paging.offset}: there are ${page.total}. Use a smaller offset.)`);
  } else if (page.more || paging.offset > 0) {
    const last = paging.offset + page.shown.length;
    const next = page.more ? ` Use offset: ${last} to see more, or` : " Or";
    result.push(`(Results truncated: showing ${unit} ${paging.offset + 1}-${last} of ${page.total}.${next} ${NARROW})`);
  }
  if (incomplete) result.push(`(Search stopped early: too much output, so results are incomplete. Please ${NARROW})`);
  return result;
}

/** Blocks separated by a blank line; empty blocks dropped. */
function joinParts(...parts: string[]): string {
  return parts.filter((part) => part.length > 0).join("\n\n");
}

function applied(page: Page<unknown>, paging: GrepPaging): Pick<GrepData, "appliedLimit" | "appliedOffset"> {
  if (!page.more && paging.offset === 0) return {};
  return { appliedLimit: paging.headLimit, appliedOffset: paging.offset };
}

function sum(counts: ReadonlyArray<{ count: number }>): number {
  return counts.reduce((total, entry) => total + entry.count, 0);
}

function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}
