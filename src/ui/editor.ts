/**
 * The prompt line editor: a text buffer with a cursor, history, completion, multi-line input
 * (Alt+Enter, a trailing `\`, or a paste), redrawn in place while it is being edited. Only the
 * lines of the prompt itself are redrawn; once submitted they stay in the scrollback as typed.
 */
import { cutToWidth, wrapItems, wrapToWidth } from "./fit.ts";
import type { Key, KeyName } from "./keys.ts";
import { ansi, textWidth, type Terminal } from "./terminal.ts";
import type { Theme } from "./theme.ts";

export interface Completion {
  /** The part of the buffer the candidates replace. */
  start: number;
  end: number;
  candidates: string[];
  /** One line per candidate to list instead of the bare candidates (a command with its description). */
  labels?: string[];
}

export type Completer = (buffer: string, cursor: number) => Completion | undefined;

export type EditorEvent =
  | { kind: "none" }
  | { kind: "submit"; text: string }
  /** Ctrl+C; `hadText` says whether it only cleared the buffer. */
  | { kind: "interrupt"; hadText: boolean }
  | { kind: "eof" }
  | { kind: "shiftTab" };

export interface EditorOptions {
  prompt: string;
  continuation: string;
  /** Older entries first. */
  history: string[];
  complete?: Completer;
  /**
   * Dim lines under the input while editing (the permission mode, the start-up hints); gone once
   * submitted. Each is items joined by " · ", broken between items to fit the width of each redraw.
   */
  footer?: () => readonly string[];
  /** The `statusLine` command's lines, drawn as it printed them (colours kept), each cut to the width. */
  status?: () => readonly string[];
}

function previousIndex(text: string, index: number): number {
  if (index <= 0) return 0;
  const code = text.charCodeAt(index - 1);
  return code >= 0xdc00 && code <= 0xdfff && index >= 2 ? index - 2 : index - 1;
}

function nextIndex(text: string, index: number): number {
  if (index >= text.length) return text.length;
  const code = text.charCodeAt(index);
  return code >= 0xd800 && code <= 0xdbff ? index + 2 : index + 1;
}

function commonPrefix(words: string[]): string {
  let prefix = words[0] ?? "";
  for (const word of words) while (!word.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix;
}

export class LineEditor {
  private buffer = "";
  private cursor = 0;
  private historyIndex: number;
  private draft = "";
  private cursorRow = 0;
  /** Where the cursor was drawn, kept to find its row again after the terminal is resized. */
  private drawn: { columns: number; rowsAbove: number[]; offset: number } | undefined;
  private active = false;

  constructor(
    private readonly term: Terminal,
    private readonly theme: Theme,
    private readonly options: EditorOptions,
  ) {
    this.historyIndex = options.history.length;
  }

  get text(): string {
    return this.buffer;
  }

  get editing(): boolean {
    return this.active;
  }

  /** Shows the prompt (keeping anything typed ahead while it was hidden). */
  begin(): void {
    this.active = true;
    this.historyIndex = this.options.history.length;
    this.cursorRow = 0;
    this.drawn = undefined;
    this.render(true);
  }

  /** Handles one key; while the prompt is hidden, keys only edit the buffer (type-ahead). */
  key(key: Key): EditorEvent {
    if (key.kind === "text" || key.kind === "paste") {
      this.insert(key.text.replace(/\r\n?/g, "\n").replace(/\t/g, "  "));
      return this.changed();
    }
    return this.named(key.name);
  }

  /** Redraws the prompt region (after a mode change, a resize, Ctrl+L). */
  redraw(): void {
    if (this.active) this.render(true);
  }

  /** Commits lines above the prompt, then draws the prompt again below them. */
  printAbove(text: string): void {
    if (!this.active) {
      this.term.write(text.endsWith("\n") ? text : `${text}\n`);
      return;
    }
    this.erase();
    const lines = (text.endsWith("\n") ? text.slice(0, -1) : text).split("\n");
    this.term.write(`${lines.flatMap((line) => wrapToWidth(line, Math.max(1, this.term.columns()))).join("\n")}\n`);
    this.cursorRow = 0;
    this.drawn = undefined;
    this.render(true);
  }

  /** Leaves the prompt as typed in the scrollback (without the footer) and moves below it. */
  finish(): void {
    if (!this.active) return;
    this.render(false);
    const rows = this.regionRows(false);
    if (this.term.isTTY) this.term.write(`${"\n".repeat(Math.max(0, rows - 1 - this.cursorRow))}\r\n`);
    else this.term.write("\n");
    this.active = false;
    this.cursorRow = 0;
    this.drawn = undefined;
  }

  private named(name: KeyName): EditorEvent {
    const text = this.buffer;
    switch (name) {
      case "enter":
        if (this.currentLineBeforeCursor().endsWith("\\") && this.cursor === this.lineEnd()) {
          this.buffer = `${text.slice(0, this.cursor - 1)}\n${text.slice(this.cursor)}`;
          return this.changed();
        }
        if (!this.active) return { kind: "none" };
        return this.submit();
      case "newline":
        this.insert("\n");
        return this.changed();
      case "backspace":
        if (this.cursor === 0) return { kind: "none" };
        this.remove(previousIndex(text, this.cursor), this.cursor);
        return this.changed();
      case "delete":
        this.remove(this.cursor, nextIndex(text, this.cursor));
        return this.changed();
      case "ctrlD":
        if (text === "") return { kind: "eof" };
        this.remove(this.cursor, nextIndex(text, this.cursor));
        return this.changed();
      case "left":
        this.cursor = previousIndex(text, this.cursor);
        return this.changed();
      case "right":
        this.cursor = nextIndex(text, this.cursor);
        return this.changed();
      case "home":
      case "ctrlA":
        this.cursor = this.lineStart();
        return this.changed();
      case "end":
      case "ctrlE":
        this.cursor = this.lineEnd();
        return this.changed();
      case "wordLeft":
        this.cursor = this.wordStart();
        return this.changed();
      case "wordRight": {
        const rest = text.slice(this.cursor);
        const match = /^\s*\S+/.exec(rest);
        this.cursor += match ? match[0].length : rest.length;
        return this.changed();
      }
      case "deleteWordBack":
        this.remove(this.wordStart(), this.cursor);
        return this.changed();
      case "ctrlK":
        this.remove(this.cursor, this.lineEnd());
        return this.changed();
      case "ctrlU":
        this.remove(this.lineStart(), this.cursor);
        return this.changed();
      case "ctrlL":
        this.redraw();
        return { kind: "none" };
      case "up":
        return this.vertical(-1);
      case "down":
        return this.vertical(1);
      case "tab":
        return this.completeWord();
      case "shiftTab":
        return { kind: "shiftTab" };
      case "ctrlC": {
        const hadText = text !== "";
        this.buffer = "";
        this.cursor = 0;
        this.historyIndex = this.options.history.length;
        if (hadText) this.changed();
        return { kind: "interrupt", hadText };
      }
      case "escape":
        return { kind: "none" };
    }
  }

  private submit(): EditorEvent {
    const text = this.buffer;
    this.finish();
    this.buffer = "";
    this.cursor = 0;
    if (text.trim() !== "" && this.options.history[this.options.history.length - 1] !== text) this.options.history.push(text);
    this.historyIndex = this.options.history.length;
    return { kind: "submit", text };
  }

  /** Up/Down move between lines of a multi-line buffer, and through history at its edges. */
  private vertical(direction: -1 | 1): EditorEvent {
    const before = this.buffer.slice(0, this.cursor);
    const onFirst = !before.includes("\n");
    const onLast = !this.buffer.slice(this.cursor).includes("\n");
    if (direction < 0 && !onFirst) {
      const column = this.cursor - this.lineStart();
      const previousEnd = this.lineStart() - 1;
      const previousStart = this.buffer.lastIndexOf("\n", previousEnd - 1) + 1;
      this.cursor = Math.min(previousStart + column, previousEnd);
      return this.changed();
    }
    if (direction > 0 && !onLast) {
      const column = this.cursor - this.lineStart();
      const nextStart = this.lineEnd() + 1;
      const nextEnd = this.buffer.indexOf("\n", nextStart);
      this.cursor = Math.min(nextStart + column, nextEnd < 0 ? this.buffer.length : nextEnd);
      return this.changed();
    }
    const history = this.options.history;
    const target = this.historyIndex + direction;
    if (target < 0 || target > history.length) return { kind: "none" };
    if (this.historyIndex === history.length) this.draft = this.buffer;
    this.historyIndex = target;
    this.buffer = target === history.length ? this.draft : (history[target] ?? "");
    this.cursor = this.buffer.length;
    return this.changed();
  }

  private completeWord(): EditorEvent {
    const found = this.options.complete?.(this.buffer, this.cursor);
    if (!found || found.candidates.length === 0) return { kind: "none" };
    const current = this.buffer.slice(found.start, found.end);
    const replacement = found.candidates.length === 1 ? (found.candidates[0] as string) : commonPrefix(found.candidates);
    if (replacement.length > current.length) {
      this.buffer = this.buffer.slice(0, found.start) + replacement + this.buffer.slice(found.end);
      this.cursor = found.start + replacement.length;
      // A completed command shows what it takes: its argument hint and description.
      if (found.candidates.length === 1 && found.labels?.[0]) this.printAbove(this.theme.dim(found.labels[0]));
      return this.changed();
    }
    if (found.candidates.length > 1) this.printAbove(this.theme.dim(found.labels ? found.labels.join("\n") : found.candidates.join("  ")));
    return { kind: "none" };
  }

  private insert(text: string): void {
    this.buffer = this.buffer.slice(0, this.cursor) + text + this.buffer.slice(this.cursor);
    this.cursor += text.length;
  }

  private remove(from: number, to: number): void {
    if (to <= from) return;
    this.buffer = this.buffer.slice(0, from) + this.buffer.slice(to);
    this.cursor = from;
  }

  private lineStart(): number {
    return this.buffer.lastIndexOf("\n", this.cursor - 1) + 1;
  }

  private lineEnd(): number {
    const end = this.buffer.indexOf("\n", this.cursor);
    return end < 0 ? this.buffer.length : end;
  }

  private currentLineBeforeCursor(): string {
    return this.buffer.slice(this.lineStart(), this.cursor);
  }

  private wordStart(): number {
    const before = this.buffer.slice(0, this.cursor);
    const match = /\S+\s*$/.exec(before);
    return match ? this.cursor - match[0].length : 0;
  }

  private changed(): EditorEvent {
    if (this.active) this.render(true);
    return { kind: "none" };
  }

  private displayLines(withFooter: boolean): string[] {
    const { prompt, continuation } = this.options;
    const lines = this.buffer.split("\n").map((line, i) => `${i === 0 ? prompt : continuation}${line}`);
    if (!withFooter || !this.term.isTTY) return lines;
    const width = Math.max(1, this.term.columns() - 1);
    for (const line of this.options.status?.() ?? []) lines.push(cutToWidth(line, width));
    for (const line of this.options.footer?.() ?? []) {
      lines.push(...wrapItems(line.split(" · "), width).map((part) => this.theme.dim(part)));
    }
    return lines;
  }

  private rowsOf(line: string): number {
    const width = textWidth(line);
    return Math.max(1, Math.ceil(width / Math.max(1, this.term.columns())));
  }

  private regionRows(withFooter: boolean): number {
    return this.displayLines(withFooter).reduce((sum, line) => sum + this.rowsOf(line), 0);
  }

  private erase(): void {
    if (this.term.isTTY) this.term.write(`\r${ansi.up(this.currentCursorRow())}${ansi.clearBelow}`);
  }

  /**
   * The cursor's row in the prompt region now. After a resize the terminal has reflowed the
   * region (as tmux, VTE, iTerm2, kitty and Windows Terminal do), so the row is recomputed at the
   * new width from what was drawn.
   */
  private currentCursorRow(): number {
    const columns = Math.max(1, this.term.columns());
    const drawn = this.drawn;
    if (!drawn || drawn.columns === columns) return this.cursorRow;
    const above = drawn.rowsAbove.reduce((sum, cells) => sum + Math.max(1, Math.ceil(cells / columns)), 0);
    return above + Math.floor(drawn.offset / columns);
  }

  /** Draws the whole prompt region from its first row and puts the terminal cursor in place. */
  private render(withFooter: boolean): void {
    if (!this.term.isTTY) {
      if (!withFooter) this.term.write(this.displayLines(false).join("\n"));
      return;
    }
    const columns = Math.max(1, this.term.columns());
    const lines = this.displayLines(withFooter);
    this.erase();
    this.term.write(lines.join("\r\n"));
    let endRow = lines.reduce((sum, line) => sum + this.rowsOf(line), 0) - 1;
    const lastWidth = textWidth(lines[lines.length - 1] ?? "");
    if (lastWidth > 0 && lastWidth % columns === 0) {
      // The cursor waits at the right margin; move it onto a real row so the arithmetic holds.
      this.term.write("\r\n");
      endRow += 1;
    }
    const before = this.buffer.slice(0, this.cursor).split("\n");
    const lineIndex = before.length - 1;
    let row = 0;
    for (let i = 0; i < lineIndex; i++) row += this.rowsOf(lines[i] ?? "");
    const offset = textWidth(`${lineIndex === 0 ? this.options.prompt : this.options.continuation}${before[lineIndex] ?? ""}`);
    row += Math.floor(offset / columns);
    const column = offset % columns;
    this.term.write(`${ansi.up(endRow - row)}\r${ansi.right(column)}`);
    this.cursorRow = row;
    this.drawn = { columns, rowsAbove: lines.slice(0, lineIndex).map((line) => textWidth(line)), offset };
  }
}
