// Rewind in a real terminal: Esc Esc on an empty prompt (or /rewind) lists the prompts with what
// each turn changed; restoring code and conversation puts the files back, keeps a file edited by
// hand when the user says so, gives the prompt back in the input box and sends the next prompt
// without the rewound turns; restoring the code only can put hand-edited files back too, never
// deleting a file the user created, and leaves the conversation as it was.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply } from "../fake-anthropic/index.ts";
import { waitFor } from "../helpers/scenario.ts";
import { hasTmux, lastUserMessageText, terminalHarness, type TmuxTerminal } from "../helpers/tmux.ts";
import { gitOutput, treeDigest, turnRecorded } from "../helpers/tree-digest.ts";

const { fake, open, workspace } = terminalHarness();


function files(dir: string, paths: string[]): Record<string, string | null> {
  return Object.fromEntries(paths.map((path) => [path, existsSync(join(dir, path)) ? readFileSync(join(dir, path), "utf8") : null]));
}

/** A git project; two prompts whose Bash calls change a.txt, remove b.txt, then create c.txt; notes.md edited by hand between them. */
async function twoTurns(extra: ReturnType<typeof reply>[] = []) {
  const { dir, configDir } = workspace();
  writeFileSync(join(dir, "a.txt"), "alpha\n");
  writeFileSync(join(dir, "b.txt"), "bravo\n");
  writeFileSync(join(dir, "notes.md"), "# notes\n");
  gitOutput(dir, "init", "-q");
  gitOutput(dir, "add", ".");
  gitOutput(dir, "commit", "-qm", "start");
  const gitBefore = treeDigest(join(dir, ".git"));
  const server = await fake([
    reply().toolUse("Bash", { command: "echo changed > a.txt && rm b.txt", description: "Change a, remove b" }),
    reply().text("Turn one done."),
    reply().toolUse("Bash", { command: "echo new > c.txt", description: "Make c" }),
    reply().text("Turn two done."),
    ...extra,
  ]);
  const terminal = open({ cwd: dir, configDir, baseURL: server.url, args: ["--permission-mode", "bypassPermissions"] });
  await terminal.waitFor("/help for help");
  terminal.type("change a");
  terminal.keys("Enter");
  await terminal.waitFor("Turn one done.");
  await turnRecorded(configDir, 1);
  writeFileSync(join(dir, "notes.md"), "# notes\nby hand\n");
  terminal.type("make c");
  terminal.keys("Enter");
  await terminal.waitFor("Turn two done.");
  await turnRecorded(configDir, 2);
  return { dir, server, terminal, gitBefore };
}

async function pick(terminal: TmuxTerminal, question: string, downs: number): Promise<void> {
  await terminal.waitFor(question);
  for (let i = 0; i < downs; i++) terminal.keys("Down");
  terminal.keys("Enter");
}

describe.skipIf(!hasTmux)("rewind in a terminal", () => {
  test("Esc Esc lists the prompts; code and conversation go back, a hand edit is kept, the prompt comes back to the input box", async () => {
    const { dir, server, terminal, gitBefore } = await twoTurns([reply().text("Fresh start.")]);
    terminal.keys("Escape", "Escape");
    await terminal.waitFor("Rewind to just before which prompt?");
    const list = terminal.screen();
    expect(list).toContain("2. make c");
    expect(list).toContain("1 file +1 −0");
    expect(list).toContain("1. change a");
    await pick(terminal, "Rewind to just before which prompt?", 1);
    await pick(terminal, "Prompt 1: change a", 0);
    await terminal.waitFor("Changed by hand since prompt 1: notes.md");
    await pick(terminal, "Restore them too?", 0);
    await terminal.waitFor("Conversation rewound to before prompt 1");
    const screen = terminal.screen();
    expect(screen).toContain("Restored 2 files: a.txt, b.txt");
    expect(screen).toContain("Removed 1 file created since: c.txt");
    expect(screen).toContain("Kept 1 file changed by hand since: notes.md");
    expect(files(dir, ["a.txt", "b.txt", "c.txt", "notes.md"])).toEqual({ "a.txt": "alpha\n", "b.txt": "bravo\n", "c.txt": null, "notes.md": "# notes\nby hand\n" });
    expect(treeDigest(join(dir, ".git"))).toEqual(gitBefore);

    // The prompt is back in the input box; sent again as edited, it is the conversation's first.
    await terminal.waitFor((text) => /messages? kept\)\.\s+> change a\n/.test(text), "the prompt given back");
    terminal.type(" again");
    terminal.keys("Enter");
    await terminal.waitFor("Fresh start.");
    expect(server.violations).toEqual([]);
    const last = server.requests[server.requests.length - 1];
    const sent = JSON.stringify(last?.body.messages);
    expect(sent).not.toContain("Turn one done.");
    expect(sent).not.toContain("make c");
    expect(lastUserMessageText(server)).toContain("change a again");
  });

  test("/rewind → code only: hand-edited files go back when asked, a file created by hand stays, the conversation is kept", async () => {
    const { dir, server, terminal } = await twoTurns([reply().text("Noted.")]);
    // By hand, after the last turn: a new file of the user's.
    writeFileSync(join(dir, "mine.txt"), "mine\n");
    terminal.type("/rewind");
    terminal.keys("Enter");
    await pick(terminal, "Rewind to just before which prompt?", 1);
    await terminal.waitFor("Restore code only");
    await pick(terminal, "Prompt 1: change a", 2);
    await terminal.waitFor(/Changed by hand since prompt 1: .*mine\.txt/);
    await pick(terminal, "Restore them too?", 1);
    await terminal.waitFor("the model is told the files went back.");
    expect(files(dir, ["a.txt", "b.txt", "c.txt", "notes.md", "mine.txt"])).toEqual({ "a.txt": "alpha\n", "b.txt": "bravo\n", "c.txt": null, "notes.md": "# notes\n", "mine.txt": "mine\n" });
    expect(terminal.screen()).toContain("Kept 1 file changed by hand since: mine.txt");

    terminal.type("what now?");
    terminal.keys("Enter");
    await terminal.waitFor("Noted.");
    const sent = JSON.stringify(server.requests[server.requests.length - 1]?.body.messages);
    expect(sent).toContain("Turn two done.");
    expect(sent).toContain("The user rewound the files to just before their prompt 1");
    expect(server.violations).toEqual([]);
  });

  test("a checkpoint that cannot be taken is said once, the session goes on, and /rewind says why there is nothing", async () => {
    const { dir, configDir } = workspace();
    const server = await fake([reply().text("First answer."), reply().text("Second answer.")]);
    const terminal = open({ cwd: dir, configDir, baseURL: server.url });
    await terminal.waitFor("/help for help");
    // The project's state folder exists once the session is open; a file where the checkpoint repository goes breaks it.
    const [project] = [...new Bun.Glob("*").scanSync({ cwd: join(configDir, "projects"), onlyFiles: false })];
    writeFileSync(join(configDir, "projects", project ?? "missing", "checkpoints.git"), "not a repository\n");
    terminal.type("hello");
    terminal.keys("Enter");
    await terminal.waitFor("First answer.");
    terminal.type("again");
    terminal.keys("Enter");
    await terminal.waitFor("Second answer.");
    const screen = terminal.screen().replace(/\s+/g, " ");
    expect(screen.split("clew: checkpoints are off for this session:").length).toBe(2);
    // Said during the first turn (the snapshot starts once its first request is out), before the second prompt.
    const said = screen.indexOf("checkpoints.git' (rewind will not be able to restore files).");
    expect(said).toBeGreaterThan(screen.indexOf("> hello"));
    expect(said).toBeLessThan(screen.indexOf("> again"));
    terminal.type("/rewind");
    terminal.keys("Enter");
    await terminal.waitFor("Checkpoints are off:");
    expect(server.violations).toEqual([]);
  });

  test("/rewind → summarise from here: the later turns become a summary, the first prompt stays as it was", async () => {
    const { server, terminal } = await twoTurns([reply().text("Summary: made c.txt."), reply().text("Carrying on.")]);
    terminal.type("/rewind 2");
    terminal.keys("Enter");
    await pick(terminal, "Prompt 2: make c", 3);
    await terminal.waitFor("Summarised the conversation from prompt 2 on");
    terminal.type("go on");
    terminal.keys("Enter");
    await terminal.waitFor("Carrying on.");
    await waitFor(() => server.requests.length === 6 || undefined, "the request after the summary");
    const messages = (server.requests[5]?.body.messages ?? []) as Array<{ role: string; content: Array<{ type: string; text?: string }> }>;
    // The first turn as it was, then one summary of the second (compaction keeps its newest messages too).
    expect(messages.slice(0, 4).map((message) => `${message.role}:${message.content.map((block) => block.text ?? block.type).join("|")}`)).toEqual([
      "user:change a|<system-reminder>\nToday's date is " + new Date().toISOString().slice(0, 10) + ".\n</system-reminder>",
      "assistant:tool_use",
      "user:tool_result",
      "assistant:Turn one done.",
    ]);
    const summary = messages[4]?.content[0]?.text ?? "";
    expect(summary).toContain("Summary: made c.txt.");
    expect(summary).toContain("<user-message>\nmake c\n</user-message>");
    expect(summary).not.toContain("change a");
    expect(server.violations).toEqual([]);
  });
});
