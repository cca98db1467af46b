// Fitting lines to the terminal: widths in cells, cutting with an ellipsis, wrapping at spaces,
// packing " · " items; colour codes take no room and survive a break.
import { describe, expect, test } from "bun:test";
import { cellWidth, cutToWidth, wrapItems, wrapToWidth } from "../../../src/ui/fit.ts";
import { stripAnsi } from "../../../src/ui/terminal.ts";
import { createTheme } from "../../../src/ui/theme.ts";

const colour = createTheme(true);
const DIM = "\x1b[2m";
const RESET = "\x1b[0m";

/** Every line within the width, and the words as they were: nothing split, nothing lost. */
function wrapsBetweenWords(lines: string[], original: string, width: number): void {
  for (const line of lines) expect(cellWidth(line)).toBeLessThanOrEqual(width);
  expect(lines.map((line) => stripAnsi(line).trim()).join(" ")).toBe(original.trim().replace(/ +/g, " "));
}

describe("cell width", () => {
  test("escape sequences count 0, wide and emoji characters 2, a combining mark 0, a tab to its stop", () => {
    expect(cellWidth(`${DIM}dim${RESET}`)).toBe(3);
    expect(cellWidth("\x1b]8;;https://x.dev\x07link\x1b]8;;\x07")).toBe(4);
    expect(cellWidth("漢字")).toBe(4);
    expect(cellWidth("👍🏽 ok")).toBe(5);
    expect(cellWidth("e\u0301")).toBe(1);
    expect(cellWidth("ab\tc")).toBe(9);
  });
});

describe("cutting to one line", () => {
  test("text that fits is left alone", () => {
    expect(cutToWidth("npm test", 8)).toBe("npm test");
    expect(cutToWidth(colour.bold("npm test"), 8)).toBe(colour.bold("npm test"));
  });

  test("a cut ends after the last whole word, with an ellipsis", () => {
    expect(cutToWidth("npm publish --access public", 21)).toBe("npm publish --access…");
    expect(cutToWidth("npm publish --access public", 14)).toBe("npm publish…");
  });

  test("a single long word is cut inside: nothing else fits", () => {
    expect(cutToWidth("supercalifragilistic", 8)).toBe("superca…");
    // A word boundary that would keep less than half the line is not worth it.
    expect(cutToWidth("a verylongwordindeed", 10)).toBe("a verylon…");
  });

  test("measured in cells: a wide character that would straddle the edge is left out", () => {
    expect(cutToWidth("漢字漢字", 5)).toBe("漢字…");
    expect(cellWidth(cutToWidth("漢字漢字", 6))).toBeLessThanOrEqual(6);
    expect(cutToWidth("👍🏽👍🏽👍🏽", 4)).toBe("👍🏽…");
  });

  test("colour is kept and closed after the ellipsis", () => {
    const cut = cutToWidth(colour.cyan("colour text here"), 9);
    expect(stripAnsi(cut)).toBe("colour…");
    expect(cut.startsWith("\x1b[36m")).toBe(true);
    expect(cut.endsWith(RESET)).toBe(true);
  });

  test("several lines become one; very narrow widths still give at most that many cells", () => {
    expect(cutToWidth("first\nsecond", 40)).toBe("first ⏎ second");
    expect(cutToWidth("abc", 1)).toBe("…");
    expect(cutToWidth("abc", 0)).toBe("");
    expect(cutToWidth("漢字", 1)).toBe("…");
  });
});

describe("wrapping at spaces", () => {
  test("a line that fits stays one line", () => {
    expect(wrapToWidth("short line", 10)).toEqual(["short line"]);
  });

  test("breaks fall between words; the spaces at a break are dropped", () => {
    const text = "/help for help · !cmd runs a shell command · @path attaches a file · #note adds to AGENTS.md";
    const lines = wrapToWidth(text, 40);
    expect(lines).toEqual(["/help for help · !cmd runs a shell", "command · @path attaches a file · #note", "adds to AGENTS.md"]);
    wrapsBetweenWords(lines, text, 40);
  });

  test("the line's own indentation stays; continuation lines hang under a list marker", () => {
    expect(wrapToWidth("  indented text wraps", 10)).toEqual(["  indented", "text wraps"]);
    expect(wrapToWidth("- a list item that is long enough to wrap", 20, { indent: "auto" })).toEqual(["- a list item that", "  is long enough to", "  wrap"]);
    expect(wrapToWidth("  ⎿ Error: the file was changed since it was read", 24, { indent: "auto" })).toEqual([
      "  ⎿ Error: the file was",
      "    changed since it was",
      "    read",
    ]);
    expect(wrapToWidth("12. numbered items hang too", 14, { indent: "auto" })).toEqual(["12. numbered", "    items hang", "    too"]);
  });

  test("a marker behind colour codes is found, and the colour carries over the break", () => {
    const line = `${colour.dim("•")} ${colour.bold("bold words that run on")}`;
    const lines = wrapToWidth(line, 13, { indent: "auto" });
    expect(lines.map(stripAnsi)).toEqual(["• bold words", "  that run on"]);
    // Closed at the end of the first row, reopened after the indent of the next.
    expect(lines[0]?.endsWith(RESET)).toBe(true);
    expect(lines[1]?.startsWith("  \x1b[1m")).toBe(true);
  });

  test("dim text over three lines is dim on each", () => {
    const lines = wrapToWidth(colour.dim("dim words that wrap over lines"), 10);
    expect(lines.map(stripAnsi)).toEqual(["dim words", "that wrap", "over lines"]);
    for (const line of lines) expect(line.startsWith(DIM)).toBe(true);
  });

  test("wide characters are measured in cells", () => {
    const lines = wrapToWidth("漢字の 説明も 折り返される", 8);
    expect(lines).toEqual(["漢字の", "説明も", "折り返さ", "れる"]);
    for (const line of lines) expect(cellWidth(line)).toBeLessThanOrEqual(8);
  });

  test("only a word longer than a whole line is split, where the margin falls", () => {
    expect(wrapToWidth("see https://example.com/a/very/long/path now", 12)).toEqual(["see https://", "example.com/", "a/very/long/", "path now"]);
    expect(wrapToWidth("averyveryverylongword short", 8)).toEqual(["averyver", "yverylon", "gword", "short"]);
  });

  test("very narrow widths: one cell per line, a wide character alone on its row", () => {
    expect(wrapToWidth("abc", 1)).toEqual(["a", "b", "c"]);
    expect(wrapToWidth("ab cd", 2)).toEqual(["ab", "cd"]);
    expect(wrapToWidth("漢字", 1)).toEqual(["漢", "字"]);
    expect(wrapToWidth("x y", 0)).toEqual(["x", "y"]);
  });

  test("prose wraps at every width without splitting a word", () => {
    const text = "Publishing needs a clean tree, so I checked the working directory first and it is clean.";
    for (let width = 12; width <= 90; width += 1) wrapsBetweenWords(wrapToWidth(text, width), text, width);
  });
});

describe("packing items", () => {
  const hints = ["/help for help", "!cmd runs a shell command", "@path attaches a file", "#note adds to AGENTS.md", "shift+tab cycles the mode"] as const;

  test("as many items to a line as fit, broken only between items", () => {
    expect(wrapItems(hints, 109)).toEqual([hints.slice(0, 4).join(" · "), hints[4]]);
    expect(wrapItems(hints, 59)).toEqual([hints.slice(0, 2).join(" · "), hints.slice(2, 4).join(" · "), hints[4]]);
    expect(wrapItems(hints, 200)).toEqual([hints.join(" · ")]);
  });

  test("an item wider than the line is wrapped at its spaces", () => {
    expect(wrapItems(["3s", "a long item that cannot fit", "end"], 12)).toEqual(["3s", "a long item", "that cannot", "fit · end"]);
  });

  test("styled items are measured without their codes", () => {
    const lines = wrapItems([colour.dim("one"), colour.dim("two"), colour.dim("three")], 9);
    expect(lines.map(stripAnsi)).toEqual(["one · two", "three"]);
  });
});
