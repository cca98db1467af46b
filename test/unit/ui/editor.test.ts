// The prompt line editor: editing, history, completion, multi-line input, and what it draws.
import { describe, expect, test } from "bun:test";
import { LineEditor, type EditorOptions } from "../../../src/ui/editor.ts";
import { KeyDecoder } from "../../../src/ui/keys.ts";
import { BufferTerminal } from "../../../src/ui/terminal.ts";
import { createTheme } from "../../../src/ui/theme.ts";
import { ResizableTerminal, screenOf } from "./screen.ts";

function editor(options: Partial<EditorOptions> = {}, tty = true, width = 40) {
  const term = new BufferTerminal(tty, width);
  const history = options.history ?? [];
  const edit = new LineEditor(term, createTheme(false), { prompt: "> ", continuation: "  ", history, ...options });
  const decoder = new KeyDecoder();
  const type = (raw: string) => decoder.push(raw).map((key) => edit.key(key));
  return { term, edit, type, history };
}

describe("line editor", () => {
  test("typing, moving and deleting", () => {
    const { edit, type } = editor();
    edit.begin();
    type("hello world");
    type("\x1b[D\x1b[D\x1b[D\x1b[D\x1b[D");
    type("big ");
    expect(edit.text).toBe("hello big world");
    type("\x17");
    expect(edit.text).toBe("hello world");
    type("\x01\x1b[3~");
    expect(edit.text).toBe("ello world");
    type("\x05\x7f\x7f");
    expect(edit.text).toBe("ello wor");
    type("\x01\x0b");
    expect(edit.text).toBe("");
  });

  test("Enter submits and records history; Up/Down walk it and keep the draft", () => {
    const { edit, type, history } = editor({ history: ["older"] });
    edit.begin();
    type("first");
    expect(type("\r")).toEqual([{ kind: "submit", text: "first" }]);
    expect(history).toEqual(["older", "first"]);
    edit.begin();
    type("draft");
    type("\x1b[A");
    expect(edit.text).toBe("first");
    type("\x1b[A");
    expect(edit.text).toBe("older");
    type("\x1b[B\x1b[B");
    expect(edit.text).toBe("draft");
  });

  test("a trailing backslash, Alt+Enter and a paste make multi-line input", () => {
    const { edit, type, term } = editor();
    edit.begin();
    type("one \\");
    expect(type("\r")).toEqual([{ kind: "none" }]);
    type("two\x1b\rthree");
    type("\x1b[200~four\nfive\x1b[201~");
    expect(edit.text).toBe("one \ntwo\nthreefour\nfive");
    expect(type("\r")).toEqual([{ kind: "submit", text: "one \ntwo\nthreefour\nfive" }]);
    expect(screenOf(term.text, 40)).toEqual(["> one", "  two", "  threefour", "  five", ""]);
  });

  test("Ctrl+C clears the text first, then reports an empty interrupt; Ctrl+D at an empty prompt is end of input", () => {
    const { edit, type } = editor();
    edit.begin();
    type("something");
    expect(type("\x03")).toEqual([{ kind: "interrupt", hadText: true }]);
    expect(edit.text).toBe("");
    expect(type("\x03")).toEqual([{ kind: "interrupt", hadText: false }]);
    expect(type("\x04")).toEqual([{ kind: "eof" }]);
  });

  test("Tab completes a unique candidate, a common prefix, and lists the rest", () => {
    const candidates = ["/compact ", "/config ", "/context "];
    const { edit, type, term } = editor({
      complete: (buffer, cursor) => ({ start: 0, end: cursor, candidates: candidates.filter((c) => c.startsWith(buffer.slice(0, cursor))) }),
    });
    edit.begin();
    type("/co");
    type("\t");
    expect(edit.text).toBe("/co");
    expect(term.text).toContain("/compact   /config   /context ");
    type("m\t");
    expect(edit.text).toBe("/compact ");
  });

  test("type-ahead while hidden edits the buffer without drawing, and Enter waits for the prompt", () => {
    const { edit, type, term } = editor();
    type("typed early");
    expect(type("\r")).toEqual([{ kind: "none" }]);
    expect(term.text).toBe("");
    edit.begin();
    expect(term.text).toContain("> typed early");
  });

  test("the footer is drawn while editing and left out of the submitted line", () => {
    const { edit, type, term } = editor({ footer: () => ["⏵⏵ accept edits on"] });
    edit.begin();
    expect(term.text).toContain("⏵⏵ accept edits on");
    expect(screenOf(term.text, 40)).toEqual([">", "⏵⏵ accept edits on"]);
    type("go\r");
    expect(screenOf(term.text, 40)).toEqual(["> go", ""]);
  });

  test("without a TTY nothing is redrawn: the submitted line is written once", () => {
    const { edit, type, term } = editor({}, false);
    edit.begin();
    type("plain\r");
    expect(term.text).toBe("> plain\n");
  });

  test("a line longer than the terminal wraps and the cursor row is tracked", () => {
    const { edit, type, term } = editor({}, true, 10);
    edit.begin();
    type("abcdefghijklmnop");
    expect(screenOf(term.text, 10)).toEqual(["> abcdefgh", "ijklmnop"]);
    type("\x01XY");
    // A full last row: the cursor moves onto the next row rather than waiting at the margin.
    expect(screenOf(term.text, 10)).toEqual(["> XYabcdef", "ghijklmnop", ""]);
    type("q");
    // Exactly three rows now: the editor keeps its place instead of drifting down the screen.
    expect(screenOf(term.text, 10)).toEqual(["> XYqabcde", "fghijklmno", "p"]);
  });

  test("footer lines break between their items to fit, and again at each redraw's width", () => {
    const term = new ResizableTerminal(60);
    const footer = ["⏵⏵ accept edits on (shift+tab to cycle)", "/help for help · !cmd runs a shell command · @path attaches a file · #note adds to AGENTS.md"] as const;
    const edit = new LineEditor(term, createTheme(false), { prompt: "> ", continuation: "  ", history: [], footer: () => footer });
    edit.begin();
    expect(screenOf(term.text, 60)).toEqual([">", footer[0], "/help for help · !cmd runs a shell command", "@path attaches a file · #note adds to AGENTS.md"]);
    term.text = "";
    term.width = 40;
    edit.redraw();
    expect(screenOf(term.text, 40)).toEqual([">", footer[0], "/help for help", "!cmd runs a shell command", "@path attaches a file", "#note adds to AGENTS.md"]);
  });

  test("after a resize the prompt is erased from the row the terminal's reflow put it on", () => {
    const term = new ResizableTerminal(20);
    const edit = new LineEditor(term, createTheme(false), { prompt: "> ", continuation: "  ", history: [] });
    edit.begin();
    for (const key of new KeyDecoder().push("abcdefghijklmnop")) edit.key(key);
    // 18 cells on one row; at 10 columns the terminal reflows them onto two, the cursor on the second.
    term.text = "";
    term.width = 10;
    edit.redraw();
    expect(term.text.startsWith("\r\x1b[1A\x1b[J")).toBe(true);
    expect(screenOf(term.text.slice("\r\x1b[1A".length), 10)).toEqual(["> abcdefgh", "ijklmnop"]);
  });
});
