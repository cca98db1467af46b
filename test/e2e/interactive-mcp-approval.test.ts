// A project's .mcp.json in a real terminal: clew asks before starting each server it has not been
// told about; "don't ask again" is remembered for that definition (a changed one asks again), and
// "No" keeps the server's process from ever starting.
import { describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply } from "../fake-anthropic/index.ts";
import { hasTmux, terminalHarness } from "../helpers/tmux.ts";

const { fake, open, workspace } = terminalHarness();

function projectServer(dir: string, marker: string): void {
  writeFileSync(join(dir, ".mcp.json"), JSON.stringify({ mcpServers: { local: { command: "sh", args: ["-c", `touch ${marker}; sleep 30`] } } }));
}

describe.skipIf(!hasTmux)("project MCP servers in a terminal", () => {
  test("asked once per definition; a changed definition asks again; No starts nothing", async () => {
    const server = await fake([reply().text("one")]);
    const { dir, configDir } = workspace();
    projectServer(dir, "first-started");

    let terminal = open({ cwd: dir, configDir, baseURL: server.url });
    await terminal.waitFor('Use the MCP server "local"?');
    expect(terminal.screen().replace(/\s+/g, " ")).toContain('defines the MCP server "local", which would start: sh -c touch first-started; sleep 30');
    terminal.keys("Down");
    terminal.keys("Enter");
    await terminal.waitFor("/help for help");
    const deadline = Date.now() + 10_000;
    while (!existsSync(join(dir, "first-started")) && Date.now() < deadline) await Bun.sleep(100);
    expect(existsSync(join(dir, "first-started"))).toBe(true);
    terminal.kill();

    // The same definition again: no question.
    terminal = open({ cwd: dir, configDir, baseURL: server.url });
    await terminal.waitFor("/help for help");
    expect(terminal.screen()).not.toContain("Use the MCP server");
    terminal.kill();

    // A changed definition asks again; No keeps its process from starting, and is remembered.
    projectServer(dir, "second-started");
    terminal = open({ cwd: dir, configDir, baseURL: server.url });
    await terminal.waitFor('Use the MCP server "local"?');
    terminal.keys("Down");
    terminal.keys("Down");
    terminal.keys("Enter");
    await terminal.waitFor("/help for help");
    terminal.type("hello");
    terminal.keys("Enter");
    await terminal.waitFor("one");
    expect(existsSync(join(dir, "second-started"))).toBe(false);
    terminal.kill();
    terminal = open({ cwd: dir, configDir, baseURL: server.url });
    await terminal.waitFor("/help for help");
    expect(terminal.screen()).not.toContain("Use the MCP server");
    terminal.kill();
  });
});
