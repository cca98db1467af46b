/**
 * Read's `pages` input for PDFs, as Claude Code has it: one page ("3") or an inclusive range
 * ("1-5", "10-20"), counted from 1. The check against the document's length happens once the
 * page count is known.
 */
import { ToolError } from "../../util/errors.ts";

export interface PageRange {
  first: number;
  last: number;
}

const INVALID_HINT = 'Use formats like "1-5", "3", or "10-20". Pages are 1-indexed.';

export function parsePageRange(pages: string): PageRange {
  const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(pages);
  const first = Number(match?.[1]);
  const last = match?.[2] === undefined ? first : Number(match[2]);
  if (!match || first < 1 || last < first) throw new ToolError(`Invalid pages parameter: ${JSON.stringify(pages)}. ${INVALID_HINT}`);
  return { first, last };
}

export function pageCount(range: PageRange): number {
  return range.last - range.first + 1;
}

export function formatPageRange(range: PageRange): string {
  return range.first === range.last ? `page ${range.first}` : `pages ${range.first}-${range.last}`;
}

/** The range must lie inside the document and be no longer than one Read may send. */
export function checkPageRange(range: PageRange, totalPages: number, maxPages: number, absPath: string): void {
  if (range.last > totalPages) {
    const asked = range.first === range.last ? `page ${range.first}` : `pages ${range.first}-${range.last}`;
    throw new ToolError(`${absPath} has ${totalPages} ${totalPages === 1 ? "page" : "pages"}, so ${asked} is out of range. Use pages between 1 and ${totalPages}.`);
  }
  if (pageCount(range) > maxPages) {
    throw new ToolError(
      `pages "${range.first}-${range.last}" names ${pageCount(range)} pages; Read sends at most ${maxPages} pages at a time. ` +
        `Read ${range.first}-${range.first + maxPages - 1} first, then the next range.`,
    );
  }
}
