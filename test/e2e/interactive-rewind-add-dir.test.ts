// `/rewind` in a real terminal for a session started with `--add-dir OTHER`: the list counts the
// changes in both folders, the question about hand edits names OTHER's file by its absolute path,
// and restoring code and conversation puts back the project's file and the one Bash removed in
// OTHER while the hand-edited one is kept; OTHER's own .git is untouched.
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply } from "../fake-anthropic/index.ts";
import { hasTmux, terminalHarness, type TmuxTerminal } from "../helpers/tmux.ts";
import { tempDirectory } from "../helpers/clew-process.ts";
import { gitOutput, treeDigest, turnRecorded } from "../helpers/tree-digest.ts";

const { fake, open, workspace } = terminalHarness();


async function pick(terminal: TmuxTerminal, question: string, downs: number): Promise<void> {
  await terminal.waitFor(question);
  for (let i = 0; i < downs; i++) terminal.keys("Down");
  terminal.keys("Enter");
}

describe.skipIf(!hasTmux)("rewind in a terminal across --add-dir folders", () => {
  test("/rewind restores the project's file and OTHER's removed file, keeps OTHER's hand edit, and says so by absolute path", async () => {
    const { dir, configDir } = workspace();
    const other = tempDirectory("clew-other-");
    writeFileSync(join(dir, "a.txt"), "alpha\n");
    writeFileSync(join(other, "o.txt"), "other\n");
    writeFileSync(join(other, "hand.txt"), "hand\n");
    gitOutput(other, "init", "-q");
    gitOutput(other, "add", ".");
    gitOutput(other, "commit", "-qm", "start");
    const gitBefore = treeDigest(join(other, ".git"));
    const server = await fake([
      reply().toolUse("Bash", { command: `echo changed > a.txt && rm ${join(other, "o.txt")}`, description: "Change a, remove o" }),
      reply().text("Turn one done."),
    ]);
    const terminal = open({ cwd: dir, configDir, baseURL: server.url, width: 220, args: ["--permission-mode", "bypassPermissions", "--add-dir", other] });
    await terminal.waitFor("/help for help");
    terminal.type("change things");
    terminal.keys("Enter");
    await terminal.waitFor("Turn one done.");
    await turnRecorded(configDir, 1);
    writeFileSync(join(other, "hand.txt"), "hand, edited\n");

    terminal.type("/rewind");
    terminal.keys("Enter");
    await terminal.waitFor("Rewind to just before which prompt?");
    expect(terminal.screen()).toContain("1. change things");
    expect(terminal.screen()).toContain("2 files +1 −2");
    await pick(terminal, "Rewind to just before which prompt?", 0);
    await pick(terminal, "Prompt 1: change things", 0);
    await terminal.waitFor(`Changed by hand since prompt 1: ${join(other, "hand.txt")}`);
    await pick(terminal, "Restore them too?", 0);
    await terminal.waitFor("Conversation rewound to before prompt 1");
    const screen = terminal.screen();
    expect(screen).toContain(`Restored 2 files: a.txt, ${join(other, "o.txt")}`);
    expect(screen).toContain(`Kept 1 file changed by hand since: ${join(other, "hand.txt")}`);
    expect([readFileSync(join(dir, "a.txt"), "utf8"), readFileSync(join(other, "o.txt"), "utf8"), readFileSync(join(other, "hand.txt"), "utf8")]).toEqual(["alpha\n", "other\n", "hand, edited\n"]);
    expect(treeDigest(join(other, ".git"))).toEqual(gitBefore);
    expect(server.violations).toEqual([]);
  });
});
