/**
 * Where prompts come from. On a terminal: raw keys into the line editor, with Esc/Ctrl+C/
 * Shift+Tab routed to the caller while a turn runs, and the terminal handed over (suspended)
 * while another prompt library or an editor owns it. Elsewhere (piped stdin, a log): plain line
 * reading, a trailing `\` joining lines.
 */
import type { Readable } from "node:stream";
import type { EditorEvent, LineEditor } from "./editor.ts";
import { KeyDecoder, type Key } from "./keys.ts";
import { ansi, type Terminal } from "./terminal.ts";

export type InputEvent = Extract<EditorEvent, { kind: "submit" | "eof" | "interrupt" }>;

export interface PromptSource {
  /** Waits for the next prompt (or Ctrl+C at an empty prompt, or end of input). */
  read(): Promise<InputEvent>;
  /** One plain answer line, for questions asked without a prompt library. */
  readLine(): Promise<string | undefined>;
  close(): void;
}

/** The parts of a TTY stdin the editor needs (process.stdin in the app, a fake in tests). */
export interface RawInput {
  setRawMode(mode: boolean): unknown;
  on(event: "data", listener: (chunk: Buffer | string) => void): unknown;
  off(event: "data", listener: (chunk: Buffer | string) => void): unknown;
  once?(event: "end", listener: () => void): unknown;
  resume(): unknown;
  pause(): unknown;
}

/** How long a lone Esc waits for the rest of a sequence before it counts as the Esc key. */
const ESCAPE_WAIT_MS = 40;
/** Esc twice within this on an empty prompt opens the rewind list. */
const DOUBLE_ESCAPE_MS = 800;
/** What Esc Esc on an empty prompt submits. */
export const DOUBLE_ESCAPE_COMMAND = "/rewind";

let prefill: string | undefined;

/** Text the next prompt starts with (a prompt given back by a rewind); one terminal per process. */
export function prefillNextPrompt(text: string): void {
  prefill = text;
}

export class TtyInput implements PromptSource {
  private readonly decoder = new KeyDecoder();
  private escapeTimer: ReturnType<typeof setTimeout> | undefined;
  private waiting: ((event: InputEvent) => void) | undefined;
  private attached = false;
  /** Keys while no prompt is shown (a turn runs); return true when handled. */
  busyKey: ((key: Key) => boolean) | undefined;
  onShiftTab: (() => void) | undefined;
  /** The terminal went away (its stdin ended): the session must end, not wait for keys. */
  onGone: (() => void) | undefined;
  private gone = false;
  private lastEscapeAt = 0;

  constructor(
    private readonly stdin: RawInput,
    private readonly term: Terminal,
    readonly editor: LineEditor,
  ) {}

  start(): void {
    this.attach();
    this.stdin.once?.("end", () => {
      this.gone = true;
      const waiting = this.waiting;
      this.waiting = undefined;
      waiting?.({ kind: "eof" });
      this.onGone?.();
    });
    this.term.write(ansi.pasteOn);
  }

  read(): Promise<InputEvent> {
    if (this.gone) return Promise.resolve({ kind: "eof" });
    if (prefill !== undefined && this.editor.text === "") this.editor.key({ kind: "paste", text: prefill });
    prefill = undefined;
    this.editor.begin();
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  /** A line typed at a bare prompt (used only when no prompt library is available). */
  readLine(): Promise<string | undefined> {
    return this.read().then((event) => (event.kind === "submit" ? event.text : undefined));
  }

  /** Gives the terminal to someone else (a @clack/prompts prompt, $EDITOR) until `resume`. */
  suspend(): void {
    if (!this.attached) return;
    this.stdin.off("data", this.onData);
    this.stdin.setRawMode(false);
    // Stop reading fd 0, so a child given the terminal (an editor) gets every key.
    this.stdin.pause();
    this.attached = false;
  }

  resume(): void {
    this.attach();
  }

  close(): void {
    this.editor.finish();
    this.suspend();
    if (this.escapeTimer) clearTimeout(this.escapeTimer);
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.({ kind: "eof" });
    this.term.write(ansi.pasteOff);
    this.stdin.pause();
  }

  private attach(): void {
    if (this.attached) return;
    this.stdin.setRawMode(true);
    this.stdin.on("data", this.onData);
    this.stdin.resume();
    this.attached = true;
  }

  private readonly onData = (chunk: Buffer | string): void => {
    if (this.escapeTimer) clearTimeout(this.escapeTimer);
    for (const key of this.decoder.push(String(chunk))) this.dispatch(key);
    if (this.decoder.pending) {
      this.escapeTimer = setTimeout(() => {
        for (const key of this.decoder.flush()) this.dispatch(key);
      }, ESCAPE_WAIT_MS);
    }
  };

  private dispatch(key: Key): void {
    const waiting = this.waiting;
    if (!waiting) {
      if (this.busyKey?.(key)) return;
      this.editor.key(key);
      return;
    }
    if (key.kind === "key" && key.name === "escape" && this.editor.text === "") {
      const now = Date.now();
      const twice = now - this.lastEscapeAt <= DOUBLE_ESCAPE_MS;
      this.lastEscapeAt = twice ? 0 : now;
      if (!twice) return;
      this.editor.key({ kind: "paste", text: DOUBLE_ESCAPE_COMMAND });
      key = { kind: "key", name: "enter" };
    } else {
      this.lastEscapeAt = 0;
    }
    const event = this.editor.key(key);
    if (event.kind === "shiftTab") {
      this.onShiftTab?.();
      this.editor.redraw();
      return;
    }
    if (event.kind === "none" || (event.kind === "interrupt" && event.hadText)) return;
    this.waiting = undefined;
    waiting(event);
  }
}

/**
 * Line reading for a non-TTY stdin: each line (joined by trailing `\`) is one prompt. Lines are
 * split here rather than with node:readline, whose import would cost every start-up.
 */
export class PlainInput implements PromptSource {
  private readonly lines: string[] = [];
  private readonly waiters: Array<(line: string | undefined) => void> = [];
  private ended = false;
  private partial = "";
  private readonly decoder = new TextDecoder();

  constructor(
    private readonly stdin: Readable,
    /** Writes the prompt as read, so a log shows what was asked. */
    private readonly echo: ((text: string) => void) | undefined,
    /** Shows that a prompt is awaited (a dumb terminal: it echoes what is typed itself). */
    private readonly ask?: () => void,
  ) {
    stdin.on("data", this.onData);
    stdin.once("end", this.onEnd);
  }

  private readonly onData = (chunk: Buffer | string): void => {
    this.partial += typeof chunk === "string" ? chunk : this.decoder.decode(chunk, { stream: true });
    const pieces = this.partial.split("\n");
    this.partial = pieces.pop() ?? "";
    for (const piece of pieces) this.deliver(piece.endsWith("\r") ? piece.slice(0, -1) : piece);
  };

  private readonly onEnd = (): void => {
    if (this.partial !== "") this.deliver(this.partial);
    this.partial = "";
    this.ended = true;
    for (const waiter of this.waiters.splice(0)) waiter(undefined);
  };

  private deliver(line: string): void {
    const waiter = this.waiters.shift();
    if (waiter) waiter(line);
    else this.lines.push(line);
  }

  readLine(): Promise<string | undefined> {
    const line = this.lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (this.ended) return Promise.resolve(undefined);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  async read(): Promise<InputEvent> {
    const parts: string[] = [];
    this.ask?.();
    for (;;) {
      const line = await this.readLine();
      if (line === undefined) {
        if (parts.length === 0) return { kind: "eof" };
        break;
      }
      if (line.endsWith("\\")) {
        parts.push(line.slice(0, -1));
        continue;
      }
      parts.push(line);
      if (parts.join("").trim() === "") {
        parts.length = 0;
        continue;
      }
      break;
    }
    const text = parts.join("\n");
    this.echo?.(text.split("\n").map((line, i) => `${i === 0 ? ">" : " "} ${line}`).join("\n"));
    return { kind: "submit", text };
  }

  close(): void {
    this.stdin.off("data", this.onData);
    this.stdin.off("end", this.onEnd);
    this.stdin.pause();
  }
}
