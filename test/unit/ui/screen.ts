import type { Terminal } from "../../../src/ui/terminal.ts";

// A minimal terminal for tests: interprets the few control sequences the UI writes (CR, LF as
// CR+LF, cursor up/right, clear line, clear below) on a grid of fixed width, so a test can assert
// what the screen shows rather than which bytes produced it.
export function screenOf(output: string, width: number): string[] {
  const rows: string[][] = [[]];
  let row = 0;
  let col = 0;
  const line = (index: number): string[] => {
    while (rows.length <= index) rows.push([]);
    return rows[index] as string[];
  };
  for (let i = 0; i < output.length; i++) {
    const char = output[i] as string;
    if (char === "\x1b") {
      const match = /^\x1b\[([?0-9;]*)([A-Za-z~])/.exec(output.slice(i));
      if (!match) continue;
      i += match[0].length - 1;
      const n = Number(match[1] || "1");
      if (match[2] === "A") row = Math.max(0, row - n);
      else if (match[2] === "C") col = Math.min(width - 1, col + n);
      else if (match[2] === "J") {
        line(row).length = Math.min(line(row).length, col);
        rows.length = row + 1;
      } else if (match[2] === "K" && match[1] === "2") line(row).length = 0;
      continue;
    }
    if (char === "\r") {
      col = 0;
      continue;
    }
    if (char === "\n") {
      row += 1;
      col = 0;
      line(row);
      continue;
    }
    if (col >= width) {
      row += 1;
      col = 0;
    }
    const current = line(row);
    while (current.length < col) current.push(" ");
    current[col] = char;
    col += 1;
  }
  return rows.map((cells) => cells.join("").replace(/\s+$/, ""));
}

/** A TTY whose width a test can change, as a resize does. */
export class ResizableTerminal implements Terminal {
  text = "";
  readonly isTTY = true;
  constructor(public width: number) {}
  write(text: string): void {
    this.text += text;
  }
  columns(): number {
    return this.width;
  }
}
