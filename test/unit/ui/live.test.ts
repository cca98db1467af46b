// The live status line: drawn and redrawn only on a TTY, erased before anything is committed,
// so the scrollback never holds it.
import { describe, expect, test } from "bun:test";
import { LiveLine } from "../../../src/ui/live.ts";
import { BufferTerminal } from "../../../src/ui/terminal.ts";
import { createTheme } from "../../../src/ui/theme.ts";
import { ResizableTerminal, screenOf } from "./screen.ts";

const rows = (output: string): string[] => screenOf(output, 200);

describe("live line", () => {
  test("on a TTY: shown while running, erased before each committed line and on stop", () => {
    const term = new BufferTerminal(true, 80);
    let now = 0;
    const live = new LiveLine(term, createTheme(false), () => now);
    live.start({ label: "Thinking" });
    now = 3200;
    live.update({ tokensIn: 12_000, tokensOut: 340 });
    expect(rows(term.text).at(-1)).toBe("⠋ Thinking… (3s · ↑ 12.0k · ↓ 340 tokens · esc to interrupt)");
    live.print("committed line");
    expect(rows(term.text)).toEqual(["committed line", "⠋ Thinking… (3s · ↑ 12.0k · ↓ 340 tokens · esc to interrupt)"]);
    live.stop();
    expect(rows(term.text)).toEqual(["committed line", ""]);
    expect(term.text.startsWith("\x1b[?25l")).toBe(true);
    expect(term.text.endsWith("\x1b[?25h")).toBe(true);
  });

  test("never wider than the terminal (a wrapped line could not be redrawn)", () => {
    const term = new BufferTerminal(true, 30);
    const live = new LiveLine(term, createTheme(false), () => 0);
    live.start({ label: "Running a tool with a very long name" });
    expect(Bun.stringWidth(rows(term.text).at(-1) ?? "")).toBeLessThanOrEqual(29);
    live.stop();
  });

  test("not a TTY: only committed lines, no control codes", () => {
    const term = new BufferTerminal(false);
    const live = new LiveLine(term, createTheme(false), () => 0);
    live.start({ label: "Thinking" });
    live.update({ tokensOut: 5 });
    live.print("one");
    live.pause();
    live.resume({ label: "Again" });
    live.print("two");
    live.stop();
    expect(term.text).toBe("one\ntwo\n");
  });

  test("committed lines are wrapped between words to the width the terminal has when each is printed", () => {
    const term = new ResizableTerminal(30);
    const live = new LiveLine(term, createTheme(false), () => 0);
    live.print("  ⎿ the result of a tool that needs more than one row");
    term.width = 20;
    live.print("a second line printed after the terminal narrowed");
    expect(screenOf(term.text, 30)).toEqual([
      "  ⎿ the result of a tool that",
      "    needs more than one row",
      "a second line",
      "printed after the",
      "terminal narrowed",
      "",
    ]);
  });

  test("after the terminal narrows, the erase covers every row the reflowed line now takes", () => {
    const term = new ResizableTerminal(80);
    const live = new LiveLine(term, createTheme(false), () => 0);
    live.start({ label: "Running a tool whose label is long enough to need most of the row" });
    const drawn = rows(term.text).at(-1) ?? "";
    expect(Bun.stringWidth(drawn)).toBeGreaterThan(40);
    term.text = "";
    term.width = 40;
    live.refresh();
    // The 79 cells were reflowed onto two rows with the cursor on the second: up one, clear below.
    expect(term.text.startsWith("\r\x1b[1A\x1b[J")).toBe(true);
    const redrawn = term.text.slice("\r\x1b[1A\x1b[J".length);
    // The label gives way first: the time and how to interrupt stay in view.
    expect(redrawn).toBe("⠋ Running a… (0s · esc to interrupt)");
    live.stop();
  });
});
