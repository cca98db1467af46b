// The Bash sandbox in a real terminal: a command the sandbox contains runs without an approval
// prompt; without bwrap the start-up says so and the same command asks as before; /sandbox
// shows the state and the boundary.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, toolResults } from "../fake-anthropic/index.ts";
import { tempDirectory } from "../helpers/clew-process.ts";
import { hasTmux, terminalHarness } from "../helpers/tmux.ts";

const { fake, open, workspace } = terminalHarness();
const hasBwrap = process.platform === "linux" && Bun.which("bwrap") !== null;

function sandboxOn(configDir: string, extra: Record<string, unknown> = {}): void {
  writeFileSync(join(configDir, "settings.json"), JSON.stringify({ sandbox: { enabled: true, ...extra } }));
}

describe.skipIf(!hasTmux)("the Bash sandbox in a terminal", () => {
  test.skipIf(!hasBwrap)("a sandboxed command runs without a prompt; /sandbox shows the boundary", async () => {
    const server = await fake([reply().text("Writing.").toolUse("Bash", { command: "echo boxed > boxed.txt", description: "Write a file" }), reply().text("Wrote it.")]);
    const { dir, configDir } = workspace();
    sandboxOn(configDir, { network: { allowedDomains: ["*.example.com"] }, filesystem: { denyRead: ["~/.ssh"] } });
    const terminal = open({ cwd: dir, configDir, baseURL: server.url });
    await terminal.waitFor("/help for help", "the banner");
    terminal.type("write the file");
    terminal.keys("Enter");
    await terminal.waitFor("Wrote it.");
    expect(terminal.screen()).not.toContain("Run this command?");
    expect(readFileSync(join(dir, "boxed.txt"), "utf8")).toBe("boxed\n");
    const second = server.requests[1];
    expect(second && toolResults(second).map((result) => result.isError)).toEqual([false]);

    terminal.type("/sandbox");
    terminal.keys("Enter");
    await terminal.waitFor("Network, allowed hosts");
    const shown = terminal.after("> /sandbox");
    expect(shown).toContain("Sandbox: on: Bash commands run in the OS sandbox");
    expect(shown).toContain(`Writable: ${dir}`);
    expect(shown).toContain(`Unreadable (denyRead): ${configDir}/.ssh`);
    expect(shown).toContain("Network, allowed hosts: *.example.com");

    terminal.type("/sandbox off");
    terminal.keys("Enter");
    await terminal.waitFor("Set sandbox.enabled to false");
    expect(JSON.parse(readFileSync(join(dir, ".clew", "settings.local.json"), "utf8"))).toEqual({ sandbox: { enabled: false } });
    expect(server.violations).toEqual([]);
  });

  test("without bwrap the start-up says so, and the command asks as before", async () => {
    const bin = tempDirectory("clew-sbx-bin-");
    for (const name of ["bash", "sh", "env", "cat", "echo", "ls", "git"]) {
      const target = Bun.which(name);
      if (target) symlinkSync(target, join(bin, name));
    }
    const server = await fake([reply().text("Writing.").toolUse("Bash", { command: "echo plain > plain.txt", description: "Write a file" }), reply().text("Wrote it.")]);
    const { dir, configDir } = workspace();
    sandboxOn(configDir);
    const terminal = open({ cwd: dir, configDir, baseURL: server.url, env: { PATH: bin } });
    await terminal.waitFor("/help for help", "the banner");
    expect(terminal.screen()).toContain("sandbox.enabled is set but the sandbox cannot start: bubblewrap (bwrap) is not on PATH");
    terminal.type("write the file");
    terminal.keys("Enter");
    await terminal.waitFor("Run this command?");
    expect(existsSync(join(dir, "plain.txt"))).toBe(false);
    terminal.keys("Enter");
    await terminal.waitFor("Wrote it.");
    expect(readFileSync(join(dir, "plain.txt"), "utf8")).toBe("plain\n");
  });
});
