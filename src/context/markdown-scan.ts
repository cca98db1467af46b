/**
 * The two Markdown-aware passes memory files get before they reach the model: block-level HTML
 * comments are dropped (authors use them for notes to humans), and `@path` imports are found.
 * Both must leave code alone — a fenced example of `<!-- -->` or of `@import` is content, not
 * markup — so both share one fence scanner. Pure text in, text out.
 */

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;
const FENCE_CLOSE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;
const COMMENT_OPEN = /^ {0,3}<!--/;

interface Fence {
  char: string;
  length: number;
}

/** A fence opened by this line, per CommonMark (a backtick fence's info string has no backtick). */
function openedFence(line: string): Fence | undefined {
  const match = FENCE_OPEN.exec(line);
  const marker = match?.[1];
  if (!match || !marker) return undefined;
  if (marker.startsWith("`") && line.slice(match[0].length).includes("`")) return undefined;
  return { char: marker.charAt(0), length: marker.length };
}

function closesFence(line: string, fence: Fence): boolean {
  const marker = FENCE_CLOSE.exec(line)?.[1];
  return marker !== undefined && marker.charAt(0) === fence.char && marker.length >= fence.length;
}

/** For each line, whether it belongs to a fenced code block (fence lines included). */
export function fencedLines(lines: readonly string[]): boolean[] {
  let fence: Fence | undefined;
  return lines.map((line) => {
    if (fence) {
      if (closesFence(line, fence)) fence = undefined;
      return true;
    }
    fence = openedFence(line);
    return fence !== undefined;
  });
}

/**
 * Removes HTML comments that start a line (block-level, as CommonMark reads them), including
 * comments spanning several lines. Text after `-->` on the closing line stays; a line left
 * empty by the removal goes. Inline comments, comments in code blocks and unterminated `<!--`
 * are kept as written.
 */
export function stripHtmlComments(text: string): string {
  const lines = text.split("\n");
  const out: string[] = [];
  let fence: Fence | undefined;
  for (let index = 0; index < lines.length; index++) {
    let line = lines[index] ?? "";
    if (fence) {
      if (closesFence(line, fence)) fence = undefined;
      out.push(line);
      continue;
    }
    let stripped = false;
    while (COMMENT_OPEN.test(line)) {
      const end = commentEnd(lines, index, line);
      if (!end) break;
      index = end.line;
      line = end.rest;
      stripped = true;
    }
    if (stripped && line.trim() === "") continue;
    fence = openedFence(line);
    out.push(line);
  }
  return out.join("\n");
}

/** Where a comment opened on `line` (the current text of `lines[start]`) ends, and what follows it. */
function commentEnd(lines: readonly string[], start: number, line: string): { line: number; rest: string } | undefined {
  const open = line.indexOf("<!--") + 4;
  let at = line.indexOf("-->", open);
  if (at >= 0) return { line: start, rest: line.slice(at + 3) };
  for (let index = start + 1; index < lines.length; index++) {
    const candidate = lines[index] ?? "";
    at = candidate.indexOf("-->");
    if (at >= 0) return { line: index, rest: candidate.slice(at + 3) };
  }
  return undefined;
}

/** The line with every inline code span (matching backtick runs) blanked out. */
function blankCodeSpans(line: string): string {
  let out = "";
  let index = 0;
  while (index < line.length) {
    if (line[index] !== "`") {
      out += line[index];
      index++;
      continue;
    }
    const runLength = backtickRun(line, index);
    const close = closingRun(line, index + runLength, runLength);
    if (close < 0) {
      out += "`".repeat(runLength);
      index += runLength;
      continue;
    }
    out += " ".repeat(close + runLength - index);
    index = close + runLength;
  }
  return out;
}

function backtickRun(line: string, from: number): number {
  let length = 0;
  while (line[from + length] === "`") length++;
  return length;
}

function closingRun(line: string, from: number, length: number): number {
  let search = from;
  while (search < line.length) {
    const next = line.indexOf("`", search);
    if (next < 0) return -1;
    const run = backtickRun(line, next);
    if (run === length) return next;
    search = next + run;
  }
  return -1;
}

const IMPORT = /(?:^|\s)@((?:\\ |[^\s\\])+)/g;
/** A reference must look like a path, so `@@`, `@#channel` and the like are not imports. */
const PATH_LIKE = /^(?:\.{1,2}\/|~\/|\/|[A-Za-z0-9._-])/;

/**
 * The `@path` references of a memory file, in order of appearance, outside fenced code blocks
 * and inline code spans. An `@` counts only at the start of a line or after whitespace, so e-mail
 * addresses are not imports. `\ ` escapes a space inside a path.
 */
export function importReferences(text: string): string[] {
  const lines = text.split("\n");
  const fenced = fencedLines(lines);
  const references: string[] = [];
  lines.forEach((line, index) => {
    if (fenced[index]) return;
    for (const match of blankCodeSpans(line).matchAll(IMPORT)) {
      const reference = (match[1] ?? "").replace(/\\ /g, " ");
      if (PATH_LIKE.test(reference)) references.push(reference);
    }
  });
  return references;
}
