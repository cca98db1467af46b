/**
 * The one line that is redrawn in place: spinner, elapsed time, tokens, "esc to interrupt".
 * Only on a TTY; it is erased before anything is committed, so it never reaches the scrollback.
 * Everything the UI commits goes through `print`, which keeps that promise and, on a terminal,
 * wraps each line at spaces to the width the terminal has at that moment.
 */
import { cellWidth, cutToWidth, wrapToWidth } from "./fit.ts";
import { ansi, type Terminal } from "./terminal.ts";
import type { Theme } from "./theme.ts";

export interface LiveStatus {
  label: string;
  /** Read on every redraw, so a label with its own clock (running helpers) keeps counting; undefined: `label`. */
  labelNow?: () => string | undefined;
  /** Input tokens of the latest request (input + cache), when known. */
  tokensIn?: number;
  /** Output tokens so far this turn (estimated while streaming). */
  tokensOut?: number;
  hint?: string;
}

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const TICK_MS = 120;

function compact(n: number): string {
  if (n < 1000) return String(n);
  if (n < 100_000) return `${(n / 1000).toFixed(1)}k`;
  return `${Math.round(n / 1000)}k`;
}

export class LiveLine {
  private status: LiveStatus | undefined;
  private startedAt = 0;
  private frame = 0;
  /** Cells of the line on screen (0: none), to erase every row it takes after a resize. */
  private shownCells = 0;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly term: Terminal,
    private readonly theme: Theme,
    private readonly clock: () => number = () => Date.now(),
    /** How to interrupt, when the status does not say: Esc needs the raw keyboard. */
    private readonly interruptHint = "esc to interrupt",
  ) {}

  get active(): boolean {
    return this.status !== undefined;
  }

  /** Columns to fit committed lines to; undefined when the output is not a terminal. */
  width(): number | undefined {
    return this.term.isTTY ? Math.max(1, this.term.columns()) : undefined;
  }

  /** Commits text (one or more lines) above the live line. */
  print(text: string): void {
    this.erase();
    this.term.write(`${this.fit(text.endsWith("\n") ? text.slice(0, -1) : text)}\n`);
    this.draw();
  }

  /**
   * Commits text in place of the last committed row (a one-row line printed just before, such as
   * a tool line cut to the width); on a TTY only.
   */
  replaceLastRow(text: string): void {
    if (!this.term.isTTY) return;
    this.erase();
    this.term.write(`\r${ansi.up(1)}${ansi.clearBelow}`);
    this.print(text);
  }

  /** Draws the line again at the current width (after a resize). */
  refresh(): void {
    this.draw();
  }

  start(status: LiveStatus): void {
    this.status = status;
    this.startedAt = this.clock();
    if (!this.term.isTTY) return;
    this.term.write(ansi.hideCursor);
    this.draw();
    this.timer ??= setInterval(() => {
      this.frame = (this.frame + 1) % FRAMES.length;
      this.draw();
    }, TICK_MS);
  }

  update(partial: Partial<LiveStatus>): void {
    if (!this.status) return;
    this.status = { ...this.status, ...partial };
    this.draw();
  }

  /** Erases the line and stops redrawing; `start` begins again. */
  stop(): void {
    this.erase();
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.status && this.term.isTTY) this.term.write(ansi.showCursor);
    this.status = undefined;
  }

  /** Temporarily hands the terminal to something else (an approval prompt). */
  pause(): LiveStatus | undefined {
    const status = this.status;
    this.stop();
    return status;
  }

  resume(status: LiveStatus | undefined, startedAt?: number): void {
    if (!status) return;
    this.start(status);
    if (startedAt !== undefined) this.startedAt = startedAt;
  }

  get since(): number {
    return this.startedAt;
  }

  private fit(text: string): string {
    const width = this.width();
    if (width === undefined) return text;
    return text
      .split("\n")
      .flatMap((line) => wrapToWidth(line, width, { indent: "auto" }))
      .join("\n");
  }

  private erase(): void {
    if (this.shownCells === 0) return;
    this.term.write(this.clearSequence());
    this.shownCells = 0;
  }

  /** Clears the rows the line takes: a narrowed terminal reflows it onto more, the cursor on the last. */
  private clearSequence(): string {
    const rows = Math.ceil(this.shownCells / Math.max(1, this.term.columns()));
    return rows > 1 ? `\r${ansi.up(rows - 1)}${ansi.clearBelow}` : ansi.clearLine;
  }

  private draw(): void {
    if (!this.status || !this.term.isTTY) return;
    const { tokensIn, tokensOut, hint } = this.status;
    const label = this.status.labelNow?.() ?? this.status.label;
    const seconds = Math.max(0, Math.floor((this.clock() - this.startedAt) / 1000));
    const parts = [`${seconds}s`];
    if (tokensIn) parts.push(`↑ ${compact(tokensIn)}`);
    if (tokensOut) parts.push(`↓ ${compact(tokensOut)} tokens`);
    parts.push(hint ?? this.interruptHint);
    // One column short of the width (a line that fills it would wrap and break the redraw), less
    // the spinner. A long label gives way first, so the time and the interrupt key stay in view.
    const budget = Math.max(1, this.term.columns() - 3);
    const details = ` (${parts.join(" · ")})`;
    const room = budget - cellWidth(details);
    const text = room >= 8 ? `${cutToWidth(`${label}…`, room)}${details}` : cutToWidth(`${label}…${details}`, budget);
    const clear = this.shownCells > 0 ? this.clearSequence() : ansi.clearLine;
    this.term.write(`${clear}${this.theme.cyan(FRAMES[this.frame] ?? "")} ${this.theme.dim(text)}`);
    this.shownCells = 2 + cellWidth(text);
  }
}
