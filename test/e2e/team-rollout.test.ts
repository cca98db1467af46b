// Team rollout: a project's settings name a marketplace (extraKnownMarketplaces) and a plugin
// (enabledPlugins). Headless runs name what is missing and `clew plugin sync`; sync installs it
// and writes clew.lock; interactive clew in a trusted folder shows one consent screen (the
// marketplace, the plugin with its commit and what it can run) and installs on a yes.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startFakeAnthropic, type RecordedRequest } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";
import { hasTmux, terminalHarness } from "../helpers/tmux.ts";

const { fake, open, workspace } = terminalHarness();

function teamMarketplace(): string {
  const root = tempDirectory("clew-team-market-");
  mkdirSync(join(root, ".claude-plugin"), { recursive: true });
  mkdirSync(join(root, "plugins/greeter/skills/greet"), { recursive: true });
  mkdirSync(join(root, "plugins/greeter/hooks"), { recursive: true });
  writeFileSync(join(root, ".claude-plugin/marketplace.json"), JSON.stringify({ name: "team", owner: { name: "team" }, plugins: [{ name: "greeter", source: "./plugins/greeter", description: "Greetings" }] }));
  writeFileSync(join(root, "plugins/greeter/skills/greet/SKILL.md"), "---\nname: greet\ndescription: Greets the reader\n---\nSay hello.\n");
  writeFileSync(join(root, "plugins/greeter/hooks/hooks.json"), JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: "command", command: "true" }] }] } }));
  const git = (...args: string[]) => Bun.spawnSync(["git", "-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd: root, stdout: "ignore", stderr: "ignore" });
  git("init", "-q");
  git("add", ".");
  git("commit", "-qm", "team plugins");
  return root;
}

function project(dir: string, market: string): void {
  mkdirSync(join(dir, ".claude"), { recursive: true });
  writeFileSync(join(dir, ".claude/settings.json"), JSON.stringify({ extraKnownMarketplaces: { team: { source: { source: "directory", path: market } } }, enabledPlugins: { "greeter@team": true } }));
}

describe("team rollout", () => {
  test("headless: one line names what is missing and clew plugin sync; sync installs it and writes clew.lock", async () => {
    const dir = tempDirectory("clew-team-project-");
    const configDir = tempDirectory("clew-config-");
    project(dir, teamMarketplace());
    expect((await runClew(["trust"], { cwd: dir, configDir })).code).toBe(0);
    const server = await startFakeAnthropic({ script: [reply().text("one"), reply().text("two")] });
    try {
      const before = await runClew(["-p", "hi"], { cwd: dir, baseURL: server.url, configDir });
      expect(before.code).toBe(0);
      const lines = before.stderr.split("\n").filter((line) => line.includes("clew plugin sync"));
      expect(lines).toEqual(["clew: this project asks for marketplaces team and plugins greeter@team, which are not installed; run `clew plugin sync` here to install them (and write clew.lock)"]);
      expect(JSON.stringify((server.requests[0] as RecordedRequest).body.system)).not.toContain("greeter:greet");
      const sync = await runClew(["plugin", "sync"], { cwd: dir, configDir });
      expect(sync.code).toBe(0);
      expect(existsSync(join(dir, "clew.lock"))).toBe(true);
      expect(Object.keys((JSON.parse(readFileSync(join(dir, "clew.lock"), "utf8")) as { plugins: Record<string, unknown> }).plugins)).toEqual(["greeter@team"]);
      const after = await runClew(["-p", "hi"], { cwd: dir, baseURL: server.url, configDir });
      expect(after.code).toBe(0);
      expect(after.stderr).not.toContain("clew plugin sync");
      expect(JSON.stringify((server.requests[1] as RecordedRequest).body.system)).toContain("greeter:greet");
    } finally {
      await server.close();
    }
  }, 60_000);

  test.skipIf(!hasTmux)("interactive, trusted folder: one consent screen lists the marketplace and the plugin with what it can run; yes installs", async () => {
    const server = await fake([reply().text("hello there")]);
    const { dir, configDir } = workspace();
    project(dir, teamMarketplace());
    expect((await runClew(["trust"], { cwd: dir, configDir })).code).toBe(0);
    const terminal = open({ cwd: dir, configDir, baseURL: server.url });
    await terminal.waitFor("Install them (at project scope, recorded in clew.lock)?");
    const screen = terminal.screen().replace(/\s+/g, " ");
    expect(screen).toContain("marketplace team @ ");
    expect(screen).toContain("plugin greeter@team @ ");
    expect(screen).toContain("can run: hooks on SessionStart");
    terminal.keys("Enter");
    await terminal.waitFor("/help for help");
    terminal.type("hi");
    terminal.keys("Enter");
    await terminal.waitFor("hello there");
    expect(JSON.stringify(server.requests[0]?.body.system)).toContain("greeter:greet");
    expect(existsSync(join(dir, "clew.lock"))).toBe(true);
  });
});
