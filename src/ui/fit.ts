/**
 * Fitting lines to the terminal: widths in cells (wide and emoji characters take two, escape
 * sequences none), cutting with an ellipsis, and wrapping at spaces. A line the terminal wraps by
 * itself breaks wherever the margin falls, often inside a word; every line the UI draws goes
 * through here first, measured against the width at the moment it is drawn.
 */

type Token = { kind: "escape"; text: string } | { kind: "char"; text: string; cells: number };

/** CSI (colours, cursor), OSC (hyperlinks, titles; ended by BEL or ST) and two-byte escapes. */
const ESCAPE = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;
const SGR = /^\x1b\[[0-9;:]*m$/;
const RESET = "\x1b[0m";
const ELLIPSIS = "…";
const TAB_STOP = 8;

let segmenter: Intl.Segmenter | undefined;

function graphemes(text: string): string[] {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
  return Array.from(segmenter.segment(text), (part) => part.segment);
}

/** Cells a string occupies on the terminal (one line; a tab counts as the spaces it moves over). */
export function cellWidth(text: string): number {
  return Bun.stringWidth(text.includes("\t") ? detab(text) : text);
}

/** Tabs as the spaces to the next tab stop, so every cell can be counted. */
function detab(line: string): string {
  return tokenize(line)
    .map((token) => token.text)
    .join("");
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let column = 0;
  const plain = (run: string): void => {
    for (const grapheme of graphemes(run)) {
      // A tab moves to the next tab stop; as spaces it can be measured and broken at.
      if (grapheme === "\t") {
        const spaces = TAB_STOP - (column % TAB_STOP);
        for (let i = 0; i < spaces; i++) tokens.push({ kind: "char", text: " ", cells: 1 });
        column += spaces;
        continue;
      }
      const cells = Bun.stringWidth(grapheme);
      tokens.push({ kind: "char", text: grapheme, cells });
      column += cells;
    }
  };
  let last = 0;
  for (const match of text.matchAll(ESCAPE)) {
    plain(text.slice(last, match.index));
    tokens.push({ kind: "escape", text: match[0] });
    last = match.index + match[0].length;
  }
  plain(text.slice(last));
  return tokens;
}

/** Which opening codes a closing SGR code ends (22 ends bold and dim, 39 the foreground, …). */
const CLOSES: Record<string, (code: number) => boolean> = {
  "22": (code) => code === 1 || code === 2,
  "23": (code) => code === 3,
  "24": (code) => code === 4,
  "27": (code) => code === 7,
  "28": (code) => code === 8,
  "29": (code) => code === 9,
  "39": (code) => (code >= 30 && code <= 38) || (code >= 90 && code <= 97),
  "49": (code) => (code >= 40 && code <= 48) || (code >= 100 && code <= 107),
};

/** Colour state carried across a break: the line is reset at its end and restyled after. */
class Styles {
  private active: string[] = [];
  see(token: Token): void {
    if (token.kind !== "escape" || !SGR.test(token.text)) return;
    const params = token.text.slice(2, -1);
    if (params === "" || params === "0") {
      this.active = [];
      return;
    }
    const closes = CLOSES[params];
    if (closes) this.active = this.active.filter((open) => !closes(Number(open.slice(2, -1).split(/[;:]/)[0])));
    else this.active.push(token.text);
  }
  get open(): boolean {
    return this.active.length > 0;
  }
  get replay(): string {
    return this.active.join("");
  }
}

function isSpace(token: Token): boolean {
  return token.kind === "char" && token.text === " ";
}

/**
 * At most `width` cells, ending in an ellipsis when something was cut. The cut falls after the
 * last whole word when that keeps at least half the line; a single long word is cut inside.
 */
export function cutToWidth(text: string, width: number, ellipsis = ELLIPSIS): string {
  const line = detab(text.replace(/\s*\n\s*/g, " ⏎ "));
  if (cellWidth(line) <= width) return line;
  const mark = cellWidth(ellipsis) <= width ? ellipsis : "";
  const budget = Math.max(0, width - cellWidth(mark));
  const tokens = tokenize(line);
  const styles = new Styles();
  let used = 0;
  let end = 0;
  let lastWordEnd = -1;
  for (; end < tokens.length; end++) {
    const token = tokens[end] as Token;
    if (token.kind === "char") {
      if (used + token.cells > budget) break;
      if (isSpace(token) && end > 0 && !isSpace(tokens[end - 1] as Token)) lastWordEnd = end;
      used += token.cells;
    }
  }
  if (end < tokens.length && isSpace(tokens[end] as Token)) lastWordEnd = end;
  const keptAtWord = lastWordEnd >= 0 && cellsOf(tokens.slice(0, lastWordEnd)) >= budget / 2;
  const kept = tokens.slice(0, keptAtWord ? lastWordEnd : end);
  for (const token of kept) styles.see(token);
  const body = kept.map((token) => token.text).join("");
  return `${body.replace(/ +$/, "")}${mark}${styles.open ? RESET : ""}`;
}

function cellsOf(tokens: Token[]): number {
  return tokens.reduce((sum, token) => sum + (token.kind === "char" ? token.cells : 0), 0);
}

export interface WrapOptions {
  /** Cells of indentation for continuation lines; "auto" hangs them under a list marker. */
  indent?: number | "auto";
}

const MARKER = /^(\s*(?:(?:[•\-*+⎿●│>✻⚠]|\d+[.)])\s+)?)/;

/** Continuation indent for a line: under the text after its leading spaces and list marker. */
function hangingIndent(line: string, width: number): number {
  const plain = line.replace(ESCAPE, "");
  const cells = cellWidth(MARKER.exec(plain)?.[1] ?? "");
  return cells <= width / 3 ? cells : 0;
}

/**
 * One line (no newlines) broken at spaces into lines of at most `width` cells. Spaces at a break
 * are dropped; a word longer than a whole line is split where the margin falls, the one case a
 * word must be broken. Colours open at a break are closed and reopened on the next line.
 */
export function wrapToWidth(line: string, width: number, options: WrapOptions = {}): string[] {
  const columns = Math.max(1, Math.floor(width));
  if (cellWidth(line) <= columns) return [line.includes("\t") ? detab(line) : line];
  const wanted = options.indent === "auto" ? hangingIndent(line, columns) : (options.indent ?? 0);
  const indent = Math.max(0, Math.min(wanted, columns - 1));
  const tokens = tokenize(line);
  const styles = new Styles();
  const lines: string[] = [];
  let current = "";
  let used = 0;
  let hasWord = false;
  /** Spaces (and escapes among them) since the last word: written only if the next word fits. */
  let gap: Token[] = [];

  const put = (token: Token): void => {
    styles.see(token);
    current += token.text;
    if (token.kind === "char") used += token.cells;
  };
  const putGap = (): void => {
    for (const token of gap) put(token);
    gap = [];
  };
  /** Ends the line; the spaces of the gap go, its escapes open the next line. */
  const breakLine = (): void => {
    lines.push(`${current.replace(/ +$/, "")}${styles.open ? RESET : ""}`);
    const escapes = gap.filter((token) => token.kind === "escape");
    gap = [];
    for (const token of escapes) styles.see(token);
    const other = escapes.filter((token) => !SGR.test(token.text)).map((token) => token.text);
    current = " ".repeat(indent) + styles.replay + other.join("");
    used = indent;
    hasWord = false;
  };
  const putSplit = (word: Token[]): void => {
    for (const part of word) {
      if (part.kind === "char" && used + part.cells > columns && used > indent) breakLine();
      put(part);
    }
  };

  let i = 0;
  while (i < tokens.length) {
    if (isSpace(tokens[i] as Token) || (gap.length > 0 && (tokens[i] as Token).kind === "escape")) {
      gap.push(tokens[i] as Token);
      i += 1;
      continue;
    }
    let end = i;
    while (end < tokens.length && !isSpace(tokens[end] as Token)) end += 1;
    const word = tokens.slice(i, end);
    i = end;
    const cells = cellsOf(word);
    // Leading spaces are the line's own indentation; after a break they are dropped.
    const gapCells = hasWord || lines.length === 0 ? cellsOf(gap) : 0;
    if (!hasWord && lines.length > 0) gap = gap.filter((token) => token.kind === "escape");
    if (used + gapCells + cells <= columns) {
      putGap();
      for (const part of word) put(part);
    } else if (hasWord && indent + cells <= columns) {
      breakLine();
      for (const part of word) put(part);
    } else {
      // Wider than what is left of any line: the one case a word is split.
      if (hasWord && used + gapCells >= columns) breakLine();
      putGap();
      putSplit(word);
    }
    hasWord = true;
  }
  for (const token of gap) if (token.kind === "escape") put(token);
  lines.push(current.replace(/ +$/, ""));
  return lines;
}

/**
 * Items ("3s", "↑ 1.2k", "esc to interrupt") joined with `separator`, as many to a line as fit;
 * a line breaks between items, and only an item wider than a whole line is wrapped inside.
 */
export function wrapItems(items: readonly string[], width: number, separator = " · "): string[] {
  const columns = Math.max(1, Math.floor(width));
  const lines: string[] = [];
  let current = "";
  for (const item of items) {
    if (item === "") continue;
    const joined = current === "" ? item : `${current}${separator}${item}`;
    if (cellWidth(joined) <= columns) {
      current = joined;
      continue;
    }
    if (current !== "") lines.push(current);
    current = "";
    if (cellWidth(item) <= columns) {
      current = item;
      continue;
    }
    const wrapped = wrapToWidth(item, columns);
    current = wrapped.pop() ?? "";
    lines.push(...wrapped);
  }
  if (current !== "") lines.push(current);
  return lines;
}
