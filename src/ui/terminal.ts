/**
 * The terminal as the UI sees it: somewhere to write, whether it is a TTY, how wide it is. The
 * few control sequences used are here too; they are written only when `isTTY` is true.
 */
export interface Terminal {
  write(text: string): void;
  readonly isTTY: boolean;
  columns(): number;
}

export const ansi = {
  clearLine: "\r\x1b[2K",
  clearBelow: "\x1b[J",
  hideCursor: "\x1b[?25l",
  showCursor: "\x1b[?25h",
  pasteOn: "\x1b[?2004h",
  pasteOff: "\x1b[?2004l",
  up: (rows: number): string => (rows > 0 ? `\x1b[${rows}A` : ""),
  right: (cols: number): string => (cols > 0 ? `\x1b[${cols}C` : ""),
};

const ANSI_PATTERN = /\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI_PATTERN, "");
}

/** Columns a string occupies (ANSI codes excluded; wide characters count two). */
export function textWidth(text: string): number {
  return Bun.stringWidth(stripAnsi(text));
}

/** Shortens to `max` columns with an ellipsis; one line only. */
export function clip(text: string, max: number): string {
  const line = text.replace(/\s*\n\s*/g, " ⏎ ");
  if (line.length <= max) return line;
  return `${line.slice(0, Math.max(0, max - 1))}…`;
}

/** Collects output in memory: for tests and for rendering into a string. */
export class BufferTerminal implements Terminal {
  text = "";
  constructor(
    readonly isTTY = false,
    private readonly width = 100,
  ) {}
  write(text: string): void {
    this.text += text;
  }
  columns(): number {
    return this.width;
  }
}
