/**
 * Raw terminal input → keys. Handles the sequences a line editor needs (arrows, Home/End,
 * Delete, Shift+Tab, Alt+Enter), bracketed paste (one `paste` key however many chunks it spans)
 * and a lone Esc, which is told apart from the start of a sequence by the caller's timeout.
 */
export type KeyName =
  | "enter"
  | "newline"
  | "backspace"
  | "delete"
  | "left"
  | "right"
  | "up"
  | "down"
  | "home"
  | "end"
  | "wordLeft"
  | "wordRight"
  | "deleteWordBack"
  | "tab"
  | "shiftTab"
  | "escape"
  | "ctrlA"
  | "ctrlC"
  | "ctrlD"
  | "ctrlE"
  | "ctrlK"
  | "ctrlL"
  | "ctrlU";

export type Key = { kind: "text"; text: string } | { kind: "paste"; text: string } | { kind: "key"; name: KeyName };

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

const SEQUENCES: Record<string, KeyName> = {
  "\x1b[A": "up",
  "\x1b[B": "down",
  "\x1b[C": "right",
  "\x1b[D": "left",
  "\x1bOA": "up",
  "\x1bOB": "down",
  "\x1bOC": "right",
  "\x1bOD": "left",
  "\x1b[H": "home",
  "\x1b[F": "end",
  "\x1bOH": "home",
  "\x1bOF": "end",
  "\x1b[1~": "home",
  "\x1b[4~": "end",
  "\x1b[7~": "home",
  "\x1b[8~": "end",
  "\x1b[3~": "delete",
  "\x1b[Z": "shiftTab",
  "\x1b[1;5C": "wordRight",
  "\x1b[1;5D": "wordLeft",
  "\x1b[1;3C": "wordRight",
  "\x1b[1;3D": "wordLeft",
  "\x1bf": "wordRight",
  "\x1bb": "wordLeft",
  "\x1b\r": "newline",
  "\x1b\n": "newline",
  "\x1b\x7f": "deleteWordBack",
};

const CONTROLS: Record<string, KeyName> = {
  "\r": "enter",
  "\n": "newline",
  "\x7f": "backspace",
  "\b": "backspace",
  "\t": "tab",
  "\x01": "ctrlA",
  "\x03": "ctrlC",
  "\x04": "ctrlD",
  "\x05": "ctrlE",
  "\x0b": "ctrlK",
  "\x0c": "ctrlL",
  "\x15": "ctrlU",
  "\x17": "deleteWordBack",
  "\x02": "left",
  "\x06": "right",
  "\x10": "up",
  "\x0e": "down",
};

/** Length of a CSI/SS3 sequence at the start of `text`, or 0 when it is incomplete. */
function sequenceLength(text: string): number {
  if (text.startsWith("\x1bO")) return text.length >= 3 ? 3 : 0;
  if (!text.startsWith("\x1b[")) return text.length >= 2 ? 2 : 0;
  for (let i = 2; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x40 && code <= 0x7e) return i + 1;
  }
  return 0;
}

export class KeyDecoder {
  private buffer = "";
  private paste: string | undefined;

  /** Keys in `chunk`; an incomplete sequence at the end waits for the next chunk (or `flush`). */
  push(chunk: string): Key[] {
    this.buffer += chunk;
    const keys: Key[] = [];
    let text = "";
    const endText = (): void => {
      if (text !== "") keys.push({ kind: "text", text });
      text = "";
    };
    while (this.buffer.length > 0) {
      if (this.paste !== undefined) {
        const end = this.buffer.indexOf(PASTE_END);
        if (end < 0) {
          // Keep a possible partial end marker for the next chunk.
          const keep = partialSuffix(this.buffer, PASTE_END);
          this.paste += this.buffer.slice(0, this.buffer.length - keep);
          this.buffer = this.buffer.slice(this.buffer.length - keep);
          break;
        }
        keys.push({ kind: "paste", text: (this.paste + this.buffer.slice(0, end)).replace(/\r\n?/g, "\n") });
        this.paste = undefined;
        this.buffer = this.buffer.slice(end + PASTE_END.length);
        continue;
      }
      const char = this.buffer[0] as string;
      if (char === "\x1b") {
        if (this.buffer.startsWith(PASTE_START)) {
          endText();
          this.paste = "";
          this.buffer = this.buffer.slice(PASTE_START.length);
          continue;
        }
        if (this.buffer.length === 1) break; // lone Esc or the start of a sequence: wait
        // Esc followed by Esc (pressed twice quickly, or sent together): the first was a key of its own.
        if (this.buffer[1] === "\x1b") {
          endText();
          keys.push({ kind: "key", name: "escape" });
          this.buffer = this.buffer.slice(1);
          continue;
        }
        const length = sequenceLength(this.buffer);
        if (length === 0) break;
        const sequence = this.buffer.slice(0, length);
        this.buffer = this.buffer.slice(length);
        const name = SEQUENCES[sequence];
        endText();
        // Unknown sequences (F-keys, Alt+letter) are dropped rather than typed as text.
        if (name) keys.push({ kind: "key", name });
        continue;
      }
      const control = CONTROLS[char];
      this.buffer = this.buffer.slice(1);
      if (control) {
        endText();
        keys.push({ kind: "key", name: control });
      } else if (char >= " " || char.length > 1 || char.charCodeAt(0) > 0x7f) {
        text += char;
      }
    }
    endText();
    return keys;
  }

  /** Whether a lone Esc (or an incomplete sequence) is waiting. */
  get pending(): boolean {
    return this.paste === undefined && this.buffer.startsWith("\x1b");
  }

  /** Called after a short quiet period: whatever is waiting was a real Esc press. */
  flush(): Key[] {
    if (!this.pending) return [];
    const rest = this.buffer.slice(1);
    this.buffer = "";
    return [{ kind: "key", name: "escape" }, ...this.push(rest)];
  }
}

function partialSuffix(text: string, marker: string): number {
  for (let length = Math.min(marker.length - 1, text.length); length > 0; length--) {
    if (marker.startsWith(text.slice(text.length - length))) return length;
  }
  return 0;
}
