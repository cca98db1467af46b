/**
 * Holds a text stream in a fixed character budget: the first half of the budget keeps the head,
 * the second half keeps the most recent tail, and everything in between is only counted. A
 * command that prints 50 MB therefore costs the same memory as one that prints 30 kB, and the
 * model still sees how the output started and how it ended.
 */
import { appendFileSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";

export function truncationMarker(droppedChars: number, savedAt?: string): string {
  const where = savedAt ? `; the full output is saved at ${savedAt}` : "";
  return `\n... [${droppedChars} characters truncated${where}] ...\n`;
}

export class BoundedText {
  private readonly headMax: number;
  private readonly tailMax: number;
  private head = "";
  private tail: string[] = [];
  private tailLength = 0;
  private dropped = 0;
  private spilling = false;

  /**
   * With `spillPath`, output that outgrows the budget is also streamed to that file in full
   * (written from the start, appended chunk by chunk), so it stays readable without being held
   * in memory or sent to the model.
   */
  constructor(
    maxChars: number,
    private readonly spillPath?: string,
  ) {
    const budget = Math.max(0, Math.floor(maxChars));
    this.headMax = Math.ceil(budget / 2);
    this.tailMax = budget - this.headMax;
  }

  append(chunk: string): void {
    this.spill(chunk);
    let rest = chunk;
    const room = this.headMax - this.head.length;
    if (room > 0) {
      this.head += rest.slice(0, room);
      rest = rest.slice(room);
    }
    if (rest.length === 0) return;
    this.tail.push(rest);
    this.tailLength += rest.length;
    this.trimTail();
  }

  /** Characters dropped from the middle so far. */
  get droppedChars(): number {
    return this.dropped;
  }

  get isEmpty(): boolean {
    return this.head.length === 0 && this.tailLength === 0 && this.dropped === 0;
  }

  /** Head, a marker naming how much was cut (if anything was) and where it was saved, and tail. */
  text(): string {
    const tail = this.tail.join("");
    if (this.dropped === 0) return this.head + tail;
    return this.head + truncationMarker(this.dropped, this.spilling ? this.spillPath : undefined) + tail;
  }

  private spill(chunk: string): void {
    if (!this.spillPath) return;
    try {
      if (!this.spilling) {
        if (this.head.length + this.tailLength + chunk.length <= this.headMax + this.tailMax || this.dropped > 0) return;
        // Nothing has been dropped yet, so what is held is the whole output so far.
        mkdirSync(dirname(this.spillPath), { recursive: true, mode: 0o700 });
        appendFileSync(this.spillPath, this.head + this.tail.join(""), { mode: 0o600 });
        this.spilling = true;
      }
      appendFileSync(this.spillPath, chunk);
    } catch {
      // A full or read-only disk costs only the saved copy; the bounded text is still returned.
    }
  }

  /** Returns `text()` and starts over empty: background jobs hand out only output not yet read. */
  take(): string {
    const text = this.text();
    this.head = "";
    this.tail = [];
    this.tailLength = 0;
    this.dropped = 0;
    return text;
  }

  private trimTail(): void {
    // Drop whole chunks first (cheap), then cut into the oldest remaining one.
    let first = this.tail[0];
    while (first !== undefined && this.tailLength - first.length >= this.tailMax) {
      this.tail.shift();
      this.tailLength -= first.length;
      this.dropped += first.length;
      first = this.tail[0];
    }
    const excess = this.tailLength - this.tailMax;
    if (first !== undefined && excess > 0) {
      this.tail[0] = first.slice(excess);
      this.tailLength -= excess;
      this.dropped += excess;
    }
  }
}
