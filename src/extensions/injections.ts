/**
 * Finding what a rendered body asks clew to do (spec A.6), without doing it: `` !`cmd` `` at the
 * start of a line or after whitespace, fenced blocks opened with ```` ```! ```` (one script), and
 * `@path` file references. Ordinary fenced code blocks are skipped: a skill that documents the
 * syntax in an example must not run the example.
 */

export interface ShellRequest {
  kind: "shell";
  form: "inline" | "block";
  command: string;
  /** As written in the body, for error messages: `` !`git status` ``. */
  pattern: string;
  start: number;
  end: number;
}

export interface FileRequest {
  kind: "file";
  /** The path as written after `@`, quotes and trailing punctuation removed. */
  path: string;
  start: number;
  end: number;
}

export type FoundRequest = ShellRequest | FileRequest;

const FENCE = /^( {0,3})(`{3,}|~{3,})(.*)$/;
const INLINE_SHELL = /(^|[ \t])!`([^`\n]+)`/g;
const FILE_REFERENCE = /(^|[ \t])@("[^"\n]+"|[^\s"`]+)/g;

interface Line {
  text: string;
  start: number;
}

function linesOf(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  for (const piece of text.split("\n")) {
    lines.push({ text: piece, start });
    start += piece.length + 1;
  }
  return lines;
}

function fileRequests(line: Line): FileRequest[] {
  const found: FileRequest[] = [];
  for (const match of line.text.matchAll(FILE_REFERENCE)) {
    const lead = match[1] ?? "";
    const raw = match[2] ?? "";
    const path = raw.startsWith('"') ? raw.slice(1, -1) : raw.replace(/[.,;:!?)\]}'"]+$/, "");
    // `@agent-x` invokes an agent, `@user` is a mention: only path-like words are files.
    if (path === "" || path.startsWith("agent-") || !/[./~]/.test(path)) continue;
    const start = line.start + (match.index ?? 0) + lead.length;
    found.push({ kind: "file", path, start, end: start + 1 + (raw.startsWith('"') ? raw.length : path.length) });
  }
  return found;
}

function inlineShell(line: Line): ShellRequest[] {
  const found: ShellRequest[] = [];
  for (const match of line.text.matchAll(INLINE_SHELL)) {
    const lead = match[1] ?? "";
    const command = match[2] ?? "";
    const start = line.start + (match.index ?? 0) + lead.length;
    const pattern = `!\`${command}\``;
    found.push({ kind: "shell", form: "inline", command: command.trim(), pattern, start, end: start + pattern.length });
  }
  return found;
}

/** Requests in order of appearance; spans are offsets into `text`. */
export function findRequests(text: string): FoundRequest[] {
  const lines = linesOf(text);
  const found: FoundRequest[] = [];
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as Line;
    const fence = FENCE.exec(line.text);
    if (fence) {
      const marker = fence[2] ?? "```";
      const closing = new RegExp(`^ {0,3}${marker.charAt(0) === "`" ? "`" : "~"}{${marker.length},}\\s*$`);
      let close = index + 1;
      while (close < lines.length && !closing.test((lines[close] as Line).text)) close++;
      if ((fence[3] ?? "").trim() === "!") {
        const body = lines.slice(index + 1, close).map((inner) => inner.text).join("\n");
        const last = lines[Math.min(close, lines.length - 1)] as Line;
        const end = last.start + last.text.length;
        found.push({ kind: "shell", form: "block", command: body, pattern: text.slice(line.start, end), start: line.start, end });
      }
      index = close;
      continue;
    }
    const requests: FoundRequest[] = [...inlineShell(line), ...fileRequests(line)];
    // A `@path` inside an inline command is part of the command, not a reference.
    const shells = requests.filter((request) => request.kind === "shell");
    found.push(...requests
      .filter((request) => request.kind === "shell" || !shells.some((shell) => request.start >= shell.start && request.start < shell.end))
      .sort((a, b) => a.start - b.start));
  }
  return found;
}
