/**
 * Turns a backend's raw result into Grep's output: files newest first, `offset`/`head_limit`
 * pagination, long lines cut, and a note saying how to see more when results were cut.
 */
import { stat } from "node:fs/promises";
import type { ToolOutput } from "../types.ts";
import type { ContentItem, GrepMode, GrepRaw } from "./grep-request.ts";

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

function paginate<T>(entries: readonly T[], paging: GrepPaging): Page<T> {
  const end = paging.headLimit > 0 ? paging.offset + paging.headLimit : entries.length;
  return { shown: entries.slice(paging.offset, end), total: entries.length, more: end < entries.length };
}

export async function formatGrep(raw: GrepRaw, paging: GrepPaging): Promise<ToolOutput> {
  if (raw.mode === "files_with_matches") return formatFiles(await newestFirst(raw.files), raw.incomplete, paging);
  if (raw.mode === "count") return formatCounts(raw.counts, raw.incomplete, paging);
  return formatContent(raw.items, raw.incomplete, paging);
}

function formatFiles(files: string[], incomplete: boolean, paging: GrepPaging): ToolOutput {
  const page = paginate(files, paging);
  const data: GrepData = { mode: "files_with_matches", numFiles: page.shown.length, filenames: page.shown, ...applied(page, paging) };
  if (page.total === 0) return { content: "No files found", display: { summary: "Found 0 files" }, data };
  const header = `Found ${plural(page.total, "file")}`;
  const content = [header, ...page.shown].join("\n") + notes(page, paging, "files", incomplete);
  return { content, display: { summary: header }, data };
}

function formatCounts(counts: Array<{ path: string; count: number }>, incomplete: boolean, paging: GrepPaging): ToolOutput {
  const page = paginate(counts, paging);
  const total = counts.reduce((sum, entry) => sum + entry.count, 0);
  const data: GrepData = {
    mode: "count",
    numFiles: page.shown.length,
    filenames: page.shown.map((entry) => entry.path),
    numMatches: total,
    ...applied(page, paging),
  };
  if (page.total === 0) return { content: "No matches found", display: { summary: "Found 0 matches" }, data };
  const lines = page.shown.map((entry) => `${entry.path}:${entry.count}`);
  const summary = `Found ${plural(total, "total occurrence")} across ${plural(counts.length, "file")}.`;
  const content = `${lines.join("\n")}\n\n${summary}${notes(page, paging, "entries", incomplete)}`;
  return { content, display: { summary: `Found ${plural(total, "match", "matches")} in ${plural(counts.length, "file")}` }, data };
}

function formatContent(items: ContentItem[], incomplete: boolean, paging: GrepPaging): ToolOutput {
  const rendered = items.map((item) => renderItem(item, paging.lineNumbers));
  const page = paginate(rendered, paging);
  const filenames = [...new Set(items.flatMap((item) => (item.kind === "line" && item.isMatch ? [item.path] : [])))];
  const body = page.shown.join("\n");
  const data: GrepData = {
    mode: "content",
    numFiles: filenames.length,
    filenames,
    content: body,
    numLines: page.shown.length,
    ...applied(page, paging),
  };
  if (page.total === 0) return { content: "No matches found", display: { summary: "Found 0 lines" }, data };
  const content = (body || `(No lines at offset ${paging.offset})`) + notes(page, paging, "lines", incomplete);
  return { content, display: { summary: `Found ${plural(page.total, "line")}` }, data };
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

function notes(page: Page<unknown>, paging: GrepPaging, unit: string, incomplete: boolean): string {
  let text = "";
  if (page.more || paging.offset > 0) {
    const first = Math.min(paging.offset + 1, page.total);
    const last = paging.offset + page.shown.length;
    const next = page.more ? ` Use offset: ${last} to see more, or` : " Or";
    text += `\n\n(Results truncated: showing ${unit} ${first}-${last} of ${page.total}.${next} narrow the search with a more specific pattern, path, glob or type.)`;
  }
  if (incomplete) text += "\n\n(Search stopped early: too much output. Narrow the search with a more specific pattern, path, glob or type.)";
  return text;
}

function applied(page: Page<unknown>, paging: GrepPaging): Pick<GrepData, "appliedLimit" | "appliedOffset"> {
  if (!page.more && paging.offset === 0) return {};
  return { appliedLimit: paging.headLimit, appliedOffset: paging.offset };
}

/** Most recently modified first; ties (and unreadable files) in path order, so output is stable. */
export async function newestFirst(paths: readonly string[]): Promise<string[]> {
  const stamped: Array<{ path: string; mtime: number }> = [];
  const BATCH = 256;
  for (let i = 0; i < paths.length; i += BATCH) {
    const batch = paths.slice(i, i + BATCH);
    const mtimes = await Promise.all(batch.map((path) => stat(path).then((stats) => stats.mtimeMs, () => 0)));
    batch.forEach((path, index) => stamped.push({ path, mtime: mtimes[index] ?? 0 }));
  }
  stamped.sort((a, b) => b.mtime - a.mtime || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return stamped.map((entry) => entry.path);
}

function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}
