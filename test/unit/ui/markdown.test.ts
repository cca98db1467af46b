// Line-based Markdown styling: with colour the marks become styles; without, text is as written.
import { describe, expect, test } from "bun:test";
import { MarkdownLines } from "../../../src/ui/markdown.ts";
import { createTheme } from "../../../src/ui/theme.ts";

const color = createTheme(true);
const B = (text: string) => `\x1b[1m${text}\x1b[22m`;
const D = (text: string) => `\x1b[2m${text}\x1b[22m`;
const C = (text: string) => `\x1b[36m${text}\x1b[39m`;

describe("markdown lines", () => {
  test("headings, lists, inline code and bold", () => {
    const md = new MarkdownLines(color);
    expect(md.render("## Plan ##")).toBe(B("Plan"));
    expect(md.render("- use `bun test` **now**")).toBe(`${D("•")} use ${C("bun test")} ${B("now")}`);
    expect(md.render("  2. second")).toBe(`  ${D("2.")} second`);
    expect(md.render("> quoted")).toBe(D(`│ \x1b[3mquoted\x1b[23m`));
    expect(md.render("plain ** not bold")).toBe("plain ** not bold");
  });

  test("fenced code keeps its text and fence lines, and is not styled as Markdown", () => {
    const md = new MarkdownLines(color);
    expect(["```ts", "# not a heading", "- not a list", "```", "# heading"].map((line) => md.render(line))).toEqual([
      D("```ts"),
      C("# not a heading"),
      C("- not a list"),
      D("```"),
      B("heading"),
    ]);
  });

  test("a longer fence is closed only by one at least as long; reset ends an open fence", () => {
    const md = new MarkdownLines(color);
    expect(md.render("````")).toBe(D("````"));
    expect(md.render("```")).toBe(C("```"));
    md.reset();
    expect(md.render("**bold**")).toBe(B("bold"));
  });

  test("without colour every line is printed as written", () => {
    const md = new MarkdownLines(createTheme(false));
    const lines = ["# Title", "- item with `code`", "```", "x = 1", "```", "**b**"];
    expect(lines.map((line) => md.render(line))).toEqual(lines);
  });

  test("a rule is 40 cells, or the terminal's width when that is less", () => {
    expect(new MarkdownLines(color).render("---")).toBe(D("─".repeat(40)));
    expect(new MarkdownLines(color, () => 100).render("***")).toBe(D("─".repeat(40)));
    expect(new MarkdownLines(color, () => 24).render("- - -")).toBe(D("─".repeat(24)));
  });
});
