/**
 * The index needs only a file's frontmatter (and, when it has no description, the first
 * paragraph of its body), so only the head of each file is read: 4 KB covers nearly every real
 * SKILL.md frontmatter; the whole file is read only when that head ends before what is needed.
 */
import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import { splitFrontmatter, type FrontmatterSplit } from "./frontmatter.ts";

const HEAD_BYTES = 4096;

export interface FileHead {
  text: string;
  split: FrontmatterSplit;
  /** True when `text` is the whole file. */
  complete: boolean;
}

function readPrefix(path: string, bytes: number): string {
  const fd = openSync(path, "r");
  try {
    const buffer = Buffer.allocUnsafe(bytes);
    const read = readSync(fd, buffer, 0, bytes, 0);
    // A multi-byte character cut at the end decodes to U+FFFD; only body text past the
    // frontmatter can be affected, and a paragraph that runs into it triggers a full read.
    return buffer.toString("utf8", 0, read);
  } finally {
    closeSync(fd);
  }
}

/** Reads enough of `path` to know its frontmatter; `size` is the file size from its stat. */
export function readHead(path: string, size: number, needParagraph: (head: FileHead) => boolean): FileHead {
  if (size > HEAD_BYTES) {
    const text = readPrefix(path, HEAD_BYTES);
    const split = splitFrontmatter(text);
    const head = { text, split, complete: false };
    if (!split.unclosed && !needParagraph(head)) return head;
  }
  const text = readFileSync(path, "utf8");
  return { text, split: splitFrontmatter(text), complete: true };
}

const HEADING = /^ {0,3}#{1,6}(\s|$)/;
/** A thematic break (`---`, `***`, `___`) is no paragraph text. */
const BREAK = /^ {0,3}([-*_])( *\1){2,} *$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * The first paragraph of a Markdown body, joined into one line: headings, thematic breaks, HTML
 * comments and code are skipped, the paragraph ends at a blank line or the next block. `reachedEnd` says it ran to
 * the end of the text, so a head that is not the whole file may have cut it short.
 */
export function firstParagraph(body: string): { text: string; reachedEnd: boolean } {
  const lines = body.split("\n");
  const collected: string[] = [];
  let inFence = false;
  let inComment = false;
  for (let index = 0; index < lines.length; index++) {
    const line = (lines[index] ?? "").replace(/\r$/, "");
    const trimmed = line.trim();
    if (collected.length > 0 && (trimmed === "" || HEADING.test(line) || FENCE.test(line))) return { text: collected.join(" "), reachedEnd: false };
    if (inFence) {
      if (FENCE.test(line)) inFence = false;
      continue;
    }
    if (inComment) {
      if (trimmed.includes("-->")) inComment = false;
      continue;
    }
    if (FENCE.test(line)) {
      inFence = true;
      continue;
    }
    if (trimmed.startsWith("<!--")) {
      inComment = !trimmed.includes("-->");
      continue;
    }
    if (trimmed === "" || HEADING.test(line) || BREAK.test(line)) continue;
    collected.push(trimmed);
  }
  return { text: collected.join(" "), reachedEnd: true };
}
