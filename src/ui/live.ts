/**
 * The one line that is redrawn in place: spinner, elapsed time, tokens, "esc to interrupt".
 * Only on a TTY; it is erased before anything is committed, so it never reaches the scrollback.
 * Everything the UI commits goes through `print`, which keeps that promise.
 */
import { ansi, clip, type Terminal } from "./terminal.ts";
import type { Theme } from "./theme.ts";

export interface LiveStatus {
  label: string;
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
  private shown = false;
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

  /** Commits text (one or more lines) above the live line. */
  print(text: string): void {
    this.erase();
    this.term.write(text.endsWith("\n") ? text : `${text}\n`);
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

  private erase(): void {
    if (!this.shown) return;
    this.term.write(ansi.clearLine);
    this.shown = false;
  }

  private draw(): void {
    if (!this.status || !this.term.isTTY) return;
    const { label, tokensIn, tokensOut, hint } = this.status;
    const seconds = Math.max(0, Math.floor((this.clock() - this.startedAt) / 1000));
    const parts = [`${seconds}s`];
    if (tokensIn) parts.push(`↑ ${compact(tokensIn)}`);
    if (tokensOut) parts.push(`↓ ${compact(tokensOut)} tokens`);
    parts.push(hint ?? this.interruptHint);
    // One column short of the width: a line that fills it would wrap and break the redraw.
    const text = clip(`${FRAMES[this.frame]} ${label}… (${parts.join(" · ")})`, Math.max(10, this.term.columns() - 1));
    this.term.write(`${ansi.clearLine}${this.theme.cyan(text.slice(0, 1))}${this.theme.dim(text.slice(1))}`);
    this.shown = true;
  }
}
