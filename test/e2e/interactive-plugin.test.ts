// /plugin in a real terminal: a marketplace added from a local folder, a plugin found by searching
// its description, installed with a scope choice, listed as enabled, and its skill in the next
// session (after /clear) — the running conversation's prompt is left alone.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply } from "../fake-anthropic/index.ts";
import { tempDirectory } from "../helpers/clew-process.ts";
import { hasTmux, terminalHarness } from "../helpers/tmux.ts";

const { fake, open, workspace } = terminalHarness();

function marketplace(): string {
  const root = tempDirectory("clew-market-");
  mkdirSync(join(root, ".claude-plugin"), { recursive: true });
  mkdirSync(join(root, "plugins/greeter/skills/greet"), { recursive: true });
  writeFileSync(join(root, ".claude-plugin/marketplace.json"), JSON.stringify({ name: "team-tools", owner: { name: "team" }, plugins: [{ name: "greeter", source: "./plugins/greeter", description: "Friendly greetings for release notes" }] }));
  writeFileSync(join(root, "plugins/greeter/skills/greet/SKILL.md"), "---\nname: greet\ndescription: Greets the reader of release notes\n---\nSay hello.\n");
  return root;
}

describe.skipIf(!hasTmux)("/plugin", () => {
  test("add a marketplace, search, install at user scope, list; the skill loads in the next session", async () => {
    const server = await fake([reply().text("first"), reply().text("second")]);
    const { dir, configDir } = workspace();
    const terminal = open({ cwd: dir, configDir, baseURL: server.url });
    await terminal.waitFor("/help for help");
    terminal.type(`/plugin marketplace add ${marketplace()}`);
    terminal.keys("Enter");
    await terminal.waitFor("Added marketplace team-tools (1 plugins)");
    terminal.type("/plugin search release notes");
    terminal.keys("Enter");
    await terminal.waitFor("greeter@team-tools");
    terminal.keys("Enter");
    await terminal.waitFor("Install for");
    terminal.keys("Enter");
    await terminal.waitFor("Installed greeter@team-tools.");
    expect(JSON.parse(readFileSync(join(configDir, "settings.json"), "utf8")).enabledPlugins).toEqual({ "greeter@team-tools": true });
    terminal.type("/plugin list");
    terminal.keys("Enter");
    await terminal.waitFor("greeter@team-tools");
    expect(terminal.screen()).toMatch(/greeter@team-tools .*user.* enabled/);
    // The running session was not changed; a new one has the plugin's skill.
    terminal.type("hello");
    terminal.keys("Enter");
    await terminal.waitFor("first");
    expect(JSON.stringify(server.requests[0]?.body.system)).not.toContain("greeter:greet");
    terminal.type("/clear");
    terminal.keys("Enter");
    await terminal.waitFor("New conversation.");
    terminal.type("hello again");
    terminal.keys("Enter");
    await terminal.waitFor("second");
    expect(JSON.stringify(server.requests[1]?.body.system)).toContain("greeter:greet");
    expect(existsSync(join(configDir, "plugins/installed_plugins.json"))).toBe(true);
  });
});
