// On a terminal every committed line fits its width: the model's text wraps between words (list
// items hang under their marker), a tool line is cut to one row, the turn footer breaks between
// its items. Piped output is left as written.
import { describe, expect, test } from "bun:test";
import type { AgentEvent } from "../../../src/loop/events.ts";
import type { Renderer } from "../../../src/ui/renderer.ts";
import { assistant, outcome, render, turnStart, usage } from "./fixture.ts";
import { screenOf } from "./screen.ts";

const delta = (text: string): AgentEvent => ({ type: "text_delta", text });
const WIDTH = 40;
const PARAGRAPH = "The build passes on every platform we support, and the release notes name each change.";
const COMMAND = "npm run release -- --tag next --registry http://127.0.0.1:4873/";

function rows(output: string): string[] {
  return screenOf(output, WIDTH);
}

describe("renderer on a narrow terminal", () => {
  test("text wraps between words, list items hang, tool lines are cut, the footer breaks between items", () => {
    const events: AgentEvent[] = [
      turnStart,
      delta(`${PARAGRAPH}\n\n- a list item long enough that it has to wrap\n`),
      assistant("…"),
      { type: "tool_start", id: "t1", name: "Bash", input: { command: COMMAND } },
      { type: "tool_end", id: "t1", name: "Bash", isError: false, content: `published ${"x".repeat(60)}\nExit code 0`, display: { summary: "exit 0" } },
      { type: "turn_end", outcome: outcome({ usage: usage({ inputTokens: 12_345, outputTokens: 678, cacheReadInputTokens: 9_000, cacheCreationInputTokens: 1_000 }) }) },
    ];
    const screen = rows(render(events, { tty: true, width: WIDTH }));
    expect(screen).toEqual([
      "",
      "The build passes on every platform we",
      "support, and the release notes name each",
      "change.",
      "",
      "- a list item long enough that it has to",
      "  wrap",
      "",
      "● Bash npm run release -- --tag next…",
      "  ⎿ exit 0",
      `    published ${"x".repeat(25)}…`,
      "",
      "✻ 12.3k in · 678 out · 9k cache read",
      "1k cache write · $13.02 · 7.5s",
      "",
    ]);
    for (const row of screen) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(WIDTH);
  });

  test("before an approval the tool line shows the command in full: a cut line is drawn again, wrapped", () => {
    const start = (id: string, command: string): AgentEvent => ({ type: "tool_start", id, name: "Bash", input: { command } });
    const shown = (events: AgentEvent[], id: string, text: string, tty = true) => {
      let answer = false;
      const output = render(events, { tty, width: WIDTH, after: (renderer: Renderer) => (answer = renderer.showInFull(id, text)) });
      return { answer, screen: tty ? rows(output) : output.split("\n") };
    };
    expect(shown([start("short", "npm publish")], "short", "npm publish")).toEqual({ answer: true, screen: ["", "● Bash npm publish", ""] });
    expect(shown([start("cut", COMMAND)], "cut", COMMAND)).toEqual({
      answer: true,
      screen: ["", "● Bash npm run release -- --tag next", "  --registry http://127.0.0.1:4873/", ""],
    });
    expect(shown([start("lines", "make\nmake test")], "lines", "make\nmake test")).toEqual({ answer: true, screen: ["", "● Bash make", "  make test", ""] });
    // Another line came after it: the prompt must show the command itself.
    expect(shown([start("a", "npm publish"), start("b", "npm test")], "a", "npm publish").answer).toBe(false);
    // Piped output cannot be redrawn: a command the line shows only in part is not shown in full.
    expect(shown([start("piped", COMMAND)], "piped", COMMAND, false).answer).toBe(true);
    expect(shown([start("piped", "make\nmake test")], "piped", "make\nmake test", false)).toEqual({ answer: false, screen: ["", "● Bash make ⏎ make test", ""] });
  });

  test("piped output is not fitted to any width", () => {
    const output = render([turnStart, delta(`${PARAGRAPH}\n`), assistant("…"), { type: "tool_start", id: "t", name: "Bash", input: { command: COMMAND } }]);
    expect(output).toBe(`\n${PARAGRAPH}\n\n● Bash ${COMMAND}\n`);
  });
});
