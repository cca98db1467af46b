// The interactive session in a real terminal (tmux) against the fake API: streaming output,
// /cost, colour rules, input prefixes, keys and exit. Permissions, interrupts and resume are in
// the sibling files.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startFakeAnthropic, type FakeServer, type ScriptStep } from "../fake-anthropic/index.ts";
import { runClew } from "../helpers/clew-process.ts";
import { hasTmux, lastUserMessageText as lastPrompt, rawLogPath, terminalHarness } from "../helpers/tmux.ts";

const { fake, open, workspace } = terminalHarness();
const servers: FakeServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

const SGR = /\x1b\[[0-9;]*m/;

describe.skipIf(!hasTmux)("interactive session in a terminal", () => {
  test("a prompt streams the model's text line by line, then a footer with tokens and cost", async () => {
    const lines = Array.from({ length: 8 }, (_, i) => `Line ${i + 1} of the answer.`);
    const server = await fake([reply().text(`# Plan\n\n${lines.join("\n")}\n\n- first point\n- second point`)], 60);
    const { dir, configDir } = workspace();
    const terminal = open({ cwd: dir, configDir, baseURL: server.url, noColor: false });
    await terminal.waitFor("/help for help", "the banner");
    terminal.type("explain the plan");
    terminal.keys("Enter");
    // Streaming: an early line is on screen while the turn is still running (status line shown).
    const during = await terminal.waitFor((screen) => screen.includes("Line 1 of the answer.") && screen.includes("esc to interrupt"), "a streamed line while the turn runs");
    expect(during).not.toContain("second point");
    const done = await terminal.waitFor(/✻ .* out · .*\$[0-9.]+ · [0-9.]+s/, "the turn footer");
    expect(done).toContain("> explain the plan");
    expect(done).toContain("Plan");
    expect(done).toContain("• first point");
    expect(done).not.toContain("esc to interrupt");
    expect(server.violations).toEqual([]);
    expect(lastPrompt(server)).toContain("explain the plan");
  });

  test("/cost shows the tokens the API reported and their price", async () => {
    const usage = { input_tokens: 1234, output_tokens: 567, cache_read_input_tokens: 8901, cache_creation_input_tokens: 2345 };
    const server = await fake([reply().text("Counted.").usage(usage)]);
    const { dir, configDir } = workspace();
    const terminal = open({ cwd: dir, configDir, baseURL: server.url });
    await terminal.waitFor("/help for help");
    terminal.type("count");
    terminal.keys("Enter");
    await terminal.waitFor("Counted.");
    await terminal.waitFor(/✻ 1\.2k in · 567 out · 8\.9k cache read · 2\.3k cache write/, "the footer with the reported usage");
    terminal.type("/cost");
    terminal.keys("Enter");
    const screen = await terminal.waitFor("Cache write", "the /cost table");
    const cost = terminal.after("> /cost");
    // claude-opus-5-5 list prices: $4 in, $20 out, $5 cache write, $0.20 cache read per million.
    expect(cost).toContain("Session cost: $0.03");
    expect(cost).toMatch(/Input:\s+1,234 tokens/);
    expect(cost).toMatch(/Output:\s+567 tokens/);
    expect(cost).toMatch(/Cache read:\s+8,901 tokens/);
    expect(cost).toMatch(/Cache write:\s+2,345 tokens/);
    expect(screen).toContain("claude-opus-5-5");
  });

  test("with NO_COLOR=1 nothing is coloured; without it the same output is", async () => {
    const script = (): ScriptStep[] => [
      reply().text("Running it.").toolUse("Bash", { command: "echo colourless", description: "Say a word" }),
      reply().text("## Done\n\n- the `echo` ran\n- **fine**"),
    ];
    for (const noColor of [true, false]) {
      const server = await fake(script());
      const { dir, configDir } = workspace();
      const terminal = open({ cwd: dir, configDir, baseURL: server.url, noColor, rawLog: rawLogPath(dir), args: ["--permission-mode", "bypassPermissions"] });
      await terminal.waitFor("/help for help");
      terminal.type("run echo");
      terminal.keys("Enter");
      await terminal.waitFor(/✻ .* out/, "the turn footer");
      const raw = terminal.raw();
      expect(raw).toContain("colourless");
      if (noColor) {
        expect(raw).not.toMatch(SGR);
        expect(terminal.styledScreen()).not.toMatch(SGR);
        expect(terminal.screen()).toContain("- the `echo` ran");
      } else {
        expect(raw).toMatch(SGR);
        expect(terminal.screen()).toContain("• the echo ran");
      }
      terminal.kill();
    }
  });

  test("@path attaches the file, !cmd output goes with the next prompt, #note appends to AGENTS.md", async () => {
    const server = await fake([reply().text("Seen the file."), reply().text("Seen the output.")]);
    const { dir, configDir } = workspace();
    writeFileSync(join(dir, "notes.txt"), "alpha\nbeta\n");
    const terminal = open({ cwd: dir, configDir, baseURL: server.url });
    await terminal.waitFor("/help for help");
    terminal.type("summarise @notes.txt please");
    terminal.keys("Enter");
    await terminal.waitFor("Seen the file.");
    expect(terminal.screen()).toContain("⎿ Attached notes.txt (2 lines)");
    const first = JSON.stringify(server.requests[0]?.body.messages);
    expect(first).toContain("alpha\\nbeta");
    expect(first).toContain("summarise @notes.txt please");

    terminal.type("!echo shell-said-this; exit 3");
    terminal.keys("Enter");
    await terminal.waitFor("⎿ exit 3");
    expect(terminal.screen()).toContain("shell-said-this");
    terminal.type("# always run the linter");
    terminal.keys("Enter");
    await terminal.waitFor("Noted in");
    expect(readFileSync(join(dir, "AGENTS.md"), "utf8")).toBe("- always run the linter\n");

    terminal.type("what did it print?");
    terminal.keys("Enter");
    await terminal.waitFor("Seen the output.");
    const second = JSON.stringify(server.requests[1]?.body.messages);
    expect(second).toContain("<bash-input>echo shell-said-this; exit 3</bash-input>");
    expect(second).toContain("shell-said-this");
    expect(server.requests.length).toBe(2);
  });

  test("slash commands complete with Tab; /help lists them; history persists per project; Ctrl+D exits", async () => {
    const server = await fake([reply().text("First answer.")]);
    const { dir, configDir } = workspace();
    const terminal = open({ cwd: dir, configDir, baseURL: server.url });
    await terminal.waitFor("/help for help");
    terminal.type("/he");
    terminal.keys("Tab");
    await terminal.waitFor("> /help ", "the completed command");
    terminal.keys("Enter");
    await terminal.waitFor("/resume [session id]");
    expect(terminal.screen()).toContain("/compact [instructions]");
    terminal.type("remember this prompt");
    terminal.keys("Enter");
    await terminal.waitFor("First answer.");
    terminal.keys("C-d");
    expect(await terminal.exitCode()).toBe(0);
    expect(terminal.screen()).toMatch(/Resume this conversation with: clew -r [0-9a-f-]{36}/);

    const again = open({ cwd: dir, configDir, baseURL: server.url });
    await again.waitFor("/help for help");
    again.keys("Up");
    await again.waitFor("> remember this prompt", "the prompt recalled from history");
    // The first Ctrl+C clears the typed text, the second arms exit, the third exits.
    again.keys("C-c");
    await again.waitFor((screen) => !screen.includes("> remember this prompt"), "the cleared prompt");
    expect(again.screen()).not.toContain("Press Ctrl+C again to exit");
    again.keys("C-c");
    await again.waitFor("Press Ctrl+C again to exit");
    again.keys("C-c");
    expect(await again.exitCode()).toBe(0);
  });

  test("a paste and a trailing backslash make one multi-line prompt", async () => {
    const server = await fake([reply().text("Got both.")]);
    const { dir, configDir } = workspace();
    const terminal = open({ cwd: dir, configDir, baseURL: server.url });
    await terminal.waitFor("/help for help");
    terminal.paste("first pasted line\nsecond pasted line");
    await terminal.waitFor("  second pasted line", "the pasted lines in the prompt");
    expect(server.requests.length).toBe(0);
    terminal.type(" \\");
    terminal.keys("Enter");
    terminal.type("typed third line");
    terminal.keys("Enter");
    await terminal.waitFor("Got both.");
    expect(lastPrompt(server)).toContain("first pasted line\nsecond pasted line \ntyped third line");
    expect(terminal.screen()).toContain("> first pasted line\n  second pasted line \n  typed third line");
  });

  test("Shift+Tab cycles the permission mode and the mode applies to the next tool call", async () => {
    const server = await fake([reply().text("Writing.").toolUse("Write", { file_path: "made.txt", content: "made\n" }), reply().text("Written.")]);
    const { dir, configDir } = workspace();
    const terminal = open({ cwd: dir, configDir, baseURL: server.url });
    await terminal.waitFor("/help for help");
    terminal.keys("BTab");
    await terminal.waitFor("accept edits on (shift+tab to cycle)");
    terminal.type("make the file");
    terminal.keys("Enter");
    await terminal.waitFor("Written.");
    expect(readFileSync(join(dir, "made.txt"), "utf8")).toBe("made\n");
    expect(terminal.screen()).not.toContain("Make this edit");
    terminal.keys("BTab");
    await terminal.waitFor("plan mode on");
    terminal.keys("BTab");
    await terminal.waitFor((screen) => !screen.trimEnd().endsWith("plan mode on (shift+tab to cycle)"), "the default mode (no mode line)");
  });
});

describe("interactive session without a terminal", () => {
  test("piped stdin is read line by line and the output has no escape codes", async () => {
    const server = await startFakeAnthropic({ script: [reply().text("# Title\n\n- **one**\n- `two`"), reply().text("Second reply.")] });
    servers.push(server);
    const { dir, configDir } = workspace();
    const run = await runClew([], { cwd: dir, configDir, baseURL: server.url, stdin: "first question\nsecond \\\nquestion continued\n/cost\n" });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain("\x1b");
    expect(run.stdout).toContain("> first question");
    expect(run.stdout).toContain("# Title\n\n- **one**\n- `two`");
    expect(run.stdout).toContain("> second \n  question continued");
    expect(run.stdout).toContain("Second reply.");
    expect(run.stdout).toMatch(/Input:\s+\d/);
    expect(lastPrompt(server)).toContain("second \nquestion continued");
    expect(existsSync(join(configDir, "projects"))).toBe(true);
  });
});
