// Lines clew draws fit the terminal in a real one (tmux) at 110 and 60 columns: none is wider
// than the screen (the terminal would then break it wherever the margin falls, mid-word),
// the model's text wraps between words, the hints and footer under the prompt are redrawn to
// fit after a resize, and a Bash approval shows the command once and one short line on why.
import { describe, expect, test } from "bun:test";
import { reply } from "../fake-anthropic/index.ts";
import { hasTmux, terminalHarness, type TmuxTerminal } from "../helpers/tmux.ts";

const { fake, open, workspace } = terminalHarness();

const HINTS = ["/help for help", "!cmd runs a shell command", "@path attaches a file", "#note adds to AGENTS.md", "shift+tab cycles the mode"] as const;
const PARAGRAPH =
  "Publishing needs a clean tree, so I checked the working directory first and it is clean; the version in package.json is new, the changelog names it, and the build output is fresh. 漢字の説明も折り返されるべきです 確認済み.";
const COMMAND = "npm publish --access public";
const DESCRIPTION = "Publish the package to the registry";

/** The screen as logical lines: capture-pane -J joins the rows the terminal wrapped itself. */
function linesOf(screen: string): string[] {
  return screen.replace(/\n$/, "").split("\n");
}

/** Lines wider than the terminal: each was wrapped by the terminal, not by clew. */
function tooWide(lines: string[], width: number): string[] {
  return lines.filter((line) => Bun.stringWidth(line) > width);
}

function count(text: string, part: string): number {
  return text.split(part).length - 1;
}

/** The rows under the empty prompt: the footer the editor draws and redraws. */
function underPrompt(screen: string): string[] {
  const lines = linesOf(screen);
  const prompt = lines.findLastIndex((line) => line === ">" || line.startsWith("> "));
  return prompt < 0 ? [] : lines.slice(prompt + 1).filter((line) => line !== "");
}

function resize(terminal: TmuxTerminal, width: number): void {
  // The helper keeps its tmux call private; bracket access is TypeScript's sanctioned way in.
  terminal["tmux"]("resize-window", "-t", "main", "-x", String(width), "-y", "40");
}

describe.skipIf(!hasTmux)("lines fit the terminal", () => {
  for (const width of [110, 60]) {
    test(`at ${width} columns: hints, the model's text, the tool line, the approval and the footer`, async () => {
      const server = await fake([reply().text(PARAGRAPH).toolUse("Bash", { command: COMMAND, description: DESCRIPTION }), reply().text("Published.")]);
      const { dir, configDir } = workspace();
      const terminal = open({ cwd: dir, configDir, baseURL: server.url, width });
      const start = await terminal.waitFor("shift+tab cycles the mode", "the hints under the prompt");
      expect(tooWide(linesOf(start), width)).toEqual([]);
      const footer = underPrompt(start);
      // Broken between hints, never inside one.
      for (const hint of HINTS) expect(footer.filter((line) => line.includes(hint))).toHaveLength(1);
      expect(footer.join(" · ")).toBe(HINTS.join(" · "));

      terminal.type("publish it");
      terminal.keys("Enter");
      const asking = await terminal.waitFor("Run this command?");
      const lines = linesOf(asking);
      expect(tooWide(lines, width)).toEqual([]);
      // The paragraph wraps between words: its rows joined by spaces give it back whole.
      const first = lines.findIndex((line) => line.startsWith("Publishing needs"));
      const toolLine = lines.findIndex((line) => line.startsWith("● Bash"));
      const rows = lines.slice(first, toolLine).filter((line) => line !== "");
      expect(rows.length).toBeGreaterThan(1);
      expect(rows.join(" ")).toBe(PARAGRAPH);

      // The command once (on the tool line), its description, and one line on why it asks.
      expect(count(asking, COMMAND)).toBe(1);
      expect(lines[toolLine]).toBe(`● Bash ${COMMAND}`);
      expect(lines.slice(toolLine + 1, toolLine + 4)).toEqual([`  ${DESCRIPTION}`, "  no rule allows this command", "│"]);
      expect(asking).not.toContain("needs approval");

      terminal.keys("Enter");
      const done = await terminal.waitFor(/✻ .* out/, "the turn footer");
      expect(done).toContain("Published.");
      expect(tooWide(linesOf(done), width)).toEqual([]);
      expect(server.violations).toEqual([]);
    });
  }

  test("--verbose shows the gate's whole reason, wrapped between words", async () => {
    const server = await fake([reply().text("Publishing.").toolUse("Bash", { command: COMMAND, description: DESCRIPTION }), reply().text("Published.")]);
    const { dir, configDir } = workspace();
    const terminal = open({ cwd: dir, configDir, baseURL: server.url, width: 60, args: ["--verbose"] });
    await terminal.waitFor("shift+tab cycles the mode");
    terminal.type("publish it");
    terminal.keys("Enter");
    const lines = linesOf(await terminal.waitFor("Run this command?"));
    expect(tooWide(lines, 60)).toEqual([]);
    const description = lines.indexOf(`  ${DESCRIPTION}`);
    const reason = lines.slice(description + 1, lines.indexOf("│", description));
    // The gate's words, as the model would get them (their wording belongs to permissions/).
    expect(reason.length).toBeGreaterThan(1);
    expect(reason.map((line) => line.trim()).join(" ")).toMatch(new RegExp(`^Bash command \`${COMMAND}\` needs approval: .+\\.$`));
    terminal.keys("Enter");
    await terminal.waitFor("Published.");
  });

  test("a command too long for one row is shown once, in full, wrapped between words on its tool line", async () => {
    const command = "git add src/release.ts && git commit -m 'prepare the release notes for the next version'";
    const server = await fake([reply().text("Committing.").toolUse("Bash", { command, description: "Commit the notes" }), reply().text("Committed.")]);
    const { dir, configDir } = workspace();
    const terminal = open({ cwd: dir, configDir, baseURL: server.url, width: 60 });
    await terminal.waitFor("shift+tab cycles the mode");
    terminal.type("commit");
    terminal.keys("Enter");
    const asking = await terminal.waitFor("Run this command?");
    const lines = linesOf(asking);
    expect(tooWide(lines, 60)).toEqual([]);
    const toolLine = lines.findIndex((line) => line.startsWith("● Bash"));
    const description = lines.indexOf("  Commit the notes");
    expect(description).toBeGreaterThan(toolLine + 1);
    const rows = lines.slice(toolLine, description);
    expect(rows.map((line) => line.replace(/^(● Bash | {2})/, "")).join(" ")).toBe(command);
    expect(count(asking, "git commit -m")).toBe(1);
    expect(asking).not.toContain("…");
    expect(lines[description + 1]).toBe("  no rule allows any of these commands");
    expect(lines[description + 2]).toBe("│");
    terminal.keys("Escape");
    await terminal.waitFor("Interrupted");
  });

  test("after a resize the footer and hints are redrawn to the new width, and so is what follows", async () => {
    const server = await fake([reply().text(PARAGRAPH)]);
    const { dir, configDir } = workspace();
    const terminal = open({ cwd: dir, configDir, baseURL: server.url, width: 110, args: ["--permission-mode", "acceptEdits"] });
    const wide = underPrompt(await terminal.waitFor("shift+tab cycles the mode", "the hints"));
    expect(wide).toEqual(["⏵⏵ accept edits on (shift+tab to cycle)", HINTS.slice(0, 4).join(" · "), HINTS[4]]);

    resize(terminal, 60);
    const narrow = await terminal.waitFor((screen) => underPrompt(screen).length === 4, "the footer redrawn at 60 columns");
    expect(underPrompt(narrow)).toEqual(["⏵⏵ accept edits on (shift+tab to cycle)", HINTS.slice(0, 2).join(" · "), HINTS.slice(2, 4).join(" · "), HINTS[4]]);
    resize(terminal, 110);
    const back = await terminal.waitFor((screen) => underPrompt(screen).length === 3, "the footer redrawn at 110 columns");
    expect(underPrompt(back)).toEqual(wide);

    resize(terminal, 60);
    await terminal.waitFor((screen) => underPrompt(screen).length === 4, "the footer redrawn at 60 columns again");
    terminal.type("go on");
    terminal.keys("Enter");
    const done = await terminal.waitFor(/✻ .* out/, "the turn footer");
    const after = linesOf(done.slice(done.lastIndexOf("> go on")));
    expect(tooWide(after, 60)).toEqual([]);
    const answer = after.slice(1, after.findIndex((line) => line.startsWith("✻ ")));
    expect(answer.filter((line) => line !== "").join(" ")).toBe(PARAGRAPH);
    // Once a prompt was sent the hints are gone; the mode stays.
    expect(underPrompt(terminal.screen())).toEqual(["⏵⏵ accept edits on (shift+tab to cycle)"]);
  });

  test("the status line leaves nothing behind when the terminal narrows under it", async () => {
    const text = Array.from({ length: 40 }, (_, i) => `Line ${i + 1} of a slow answer.`).join("\n");
    const server = await fake([reply().text(text)], 40);
    const { dir, configDir } = workspace();
    const terminal = open({ cwd: dir, configDir, baseURL: server.url, width: 110 });
    await terminal.waitFor("/help for help");
    terminal.type("slowly");
    terminal.keys("Enter");
    await terminal.waitFor(/Writing… \(\d+s · ↓ \d+ tokens · esc to interrupt\)/, "the status line with tokens");
    resize(terminal, 40);
    const done = await terminal.waitFor(/✻ .* out/, "the turn footer");
    expect(done).toContain("Line 40 of a slow answer.");
    // A status line reflowed onto two rows and erased as one would leave its first row here.
    expect(linesOf(done).filter((line) => /Writing…|Thinking…|esc to/.test(line))).toEqual([]);
  });
});
