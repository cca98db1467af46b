// Approval prompts in a real terminal: each of the three answers does what it says, edits offer
// "all edits this session", and the prompt honours NO_COLOR.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { reply, toolResults, type FakeServer } from "../fake-anthropic/index.ts";
import { hasTmux, rawLogPath, terminalHarness, type TmuxTerminal } from "../helpers/tmux.ts";

const { fake, open, workspace } = terminalHarness();
const SGR = /\x1b\[[0-9;]*m/;

function resultsOf(server: FakeServer, index: number) {
  const request = server.requests[index];
  if (!request) throw new Error(`request #${index + 1} was never sent`);
  return toolResults(request);
}

async function prompt(terminal: TmuxTerminal, text: string): Promise<void> {
  await terminal.waitFor("/help for help", "the banner");
  terminal.type(text);
  terminal.keys("Enter");
}

function count(text: string, part: string): number {
  return text.split(part).length - 1;
}

describe.skipIf(!hasTmux)("approval prompts", () => {
  test("Yes runs the command once; the same command asks again next time", async () => {
    const command = "echo approved > yes.txt";
    const server = await fake([
      reply().text("Writing.").toolUse("Bash", { command, description: "Write yes.txt" }),
      reply().text("Again.").toolUse("Bash", { command, description: "Write yes.txt" }),
      reply().text("Done twice."),
    ]);
    const { dir, configDir } = workspace();
    const terminal = open({ cwd: dir, configDir, baseURL: server.url, rawLog: rawLogPath(dir) });
    await prompt(terminal, "write yes.txt");
    const asking = await terminal.waitFor("Run this command?");
    expect(asking).toContain(command);
    expect(asking).toContain(`Yes, and don't ask again for Bash(echo approved) in ${dir}`);
    expect(asking).toContain("No, and tell the model why");
    terminal.keys("Enter");
    await terminal.waitFor((screen) => count(screen, "Run this command?") === 2, "the second prompt");
    expect(readFileSync(join(dir, "yes.txt"), "utf8")).toBe("approved\n");
    terminal.keys("Enter");
    await terminal.waitFor("Done twice.");
    expect(resultsOf(server, 1)[0]?.isError).toBe(false);
    expect(resultsOf(server, 2)[0]?.isError).toBe(false);
    expect(existsSync(join(dir, ".clew", "settings.local.json"))).toBe(false);
    expect(server.violations).toEqual([]);
    // NO_COLOR holds for the prompt library's output too.
    expect(terminal.raw()).toContain("Run this command?");
    expect(terminal.raw()).not.toMatch(SGR);
  });

  test("Yes, and don't ask again saves the narrowest rule to .clew/settings.local.json", async () => {
    const server = await fake([
      reply().text("Touching.").toolUse("Bash", { command: "touch first.txt", description: "Create a file" }),
      reply().text("Once more.").toolUse("Bash", { command: "touch first.txt", description: "Create a file" }),
      reply().text("Both done."),
    ]);
    const { dir, configDir } = workspace();
    const terminal = open({ cwd: dir, configDir, baseURL: server.url });
    await prompt(terminal, "touch the file");
    await terminal.waitFor("Run this command?");
    terminal.keys("Down", "Enter");
    await terminal.waitFor("Both done.");
    const screen = terminal.screen();
    expect(count(screen, "Run this command?")).toBe(1);
    expect(screen).toContain("Saved Bash(touch first.txt) to .clew/settings.local.json");
    const saved = JSON.parse(readFileSync(join(dir, ".clew", "settings.local.json"), "utf8")) as { permissions: { allow: string[] } };
    expect(saved.permissions.allow).toEqual(["Bash(touch first.txt)"]);
    expect(existsSync(join(dir, "first.txt"))).toBe(true);
    expect(resultsOf(server, 2)[0]?.isError).toBe(false);

    terminal.type("/permissions");
    terminal.keys("Enter");
    await terminal.waitFor("Granted in this session");
    expect(terminal.after("> /permissions")).toContain("Bash(touch first.txt)");
  });

  test("No, and tell the model why: the typed reason goes back as the tool result and nothing runs", async () => {
    const server = await fake([
      reply().text("Deleting.").toolUse("Bash", { command: "rm -f keep.txt", description: "Delete the file" }),
      reply().text("Understood, keeping it."),
    ]);
    const { dir, configDir } = workspace();
    Bun.write(join(dir, "keep.txt"), "precious\n");
    const terminal = open({ cwd: dir, configDir, baseURL: server.url });
    await prompt(terminal, "clean up");
    await terminal.waitFor("Run this command?");
    terminal.keys("Down", "Down", "Enter");
    await terminal.waitFor("What should the model do instead?");
    terminal.type("keep it, it is precious");
    terminal.keys("Enter");
    await terminal.waitFor("Understood, keeping it.");
    expect(readFileSync(join(dir, "keep.txt"), "utf8")).toBe("precious\n");
    const [result] = resultsOf(server, 1);
    expect(result?.isError).toBe(true);
    expect(result?.text).toContain("The user rejected Bash command `rm -f keep.txt`.");
    expect(result?.text).toContain("The user said: keep it, it is precious");
    expect(terminal.screen()).toContain("The user rejected Bash command `rm -f keep.txt`.");
    expect(server.violations).toEqual([]);
  });

  test("an edit shows its diff and offers all edits for this session", async () => {
    const server = await fake([
      reply().text("Creating.").toolUse("Write", { file_path: "a.txt", content: "one\ntwo\n" }),
      reply().text("Changing.").toolUse("Edit", { file_path: "a.txt", old_string: "two", new_string: "three" }),
      reply().text("Edited."),
    ]);
    const { dir, configDir } = workspace();
    const terminal = open({ cwd: dir, configDir, baseURL: server.url });
    await prompt(terminal, "make a.txt");
    const asking = await terminal.waitFor("Write a.txt?");
    expect(asking).toContain("+one");
    expect(asking).toContain("+two");
    expect(asking).toContain("Yes, allow all edits during this session");
    terminal.keys("Down", "Enter");
    await terminal.waitFor("Edited.");
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("one\nthree\n");
    const screen = terminal.screen();
    expect(screen).not.toContain("Make this edit to a.txt?");
    // The edit that needed no prompt shows its diff on completion.
    expect(screen).toContain("-two");
    expect(screen).toContain("+three");
    expect(existsSync(join(dir, ".clew", "settings.local.json"))).toBe(false);
  });

  test("Esc at the prompt denies the call and stops the turn", async () => {
    const server = await fake([reply().text("Trying.").toolUse("Bash", { command: "touch nope.txt" }), reply().text("After the stop.")]);
    const { dir, configDir } = workspace();
    const terminal = open({ cwd: dir, configDir, baseURL: server.url });
    await prompt(terminal, "try it");
    await terminal.waitFor("Run this command?");
    terminal.keys("Escape");
    await terminal.waitFor("Interrupted");
    expect(existsSync(join(dir, "nope.txt"))).toBe(false);
    expect(server.requests.length).toBe(1);
    terminal.type("next");
    terminal.keys("Enter");
    await terminal.waitFor("After the stop.");
    const [result] = resultsOf(server, 1);
    expect(result?.isError).toBe(true);
    expect(server.violations).toEqual([]);
  });
});
