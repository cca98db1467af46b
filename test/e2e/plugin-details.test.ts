// `clew plugin details` reports what a session loads: components found through the plugin's own
// manifest paths (a skills path that is itself a skill, a custom commands file), hooks and servers.
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";

describe("clew plugin details", () => {
  test("components behind custom manifest paths are listed, with hooks and MCP servers", async () => {
    const market = tempDirectory("clew-details-market-");
    const plugin = join(market, "plugins/release");
    mkdirSync(join(market, ".claude-plugin"), { recursive: true });
    mkdirSync(join(plugin, ".claude-plugin"), { recursive: true });
    mkdirSync(join(plugin, "skills"), { recursive: true });
    mkdirSync(join(plugin, "extra"), { recursive: true });
    mkdirSync(join(plugin, "hooks"), { recursive: true });
    writeFileSync(join(market, ".claude-plugin/marketplace.json"), JSON.stringify({ name: "tools", owner: { name: "t" }, plugins: [{ name: "release", source: "./plugins/release" }] }));
    writeFileSync(join(plugin, ".claude-plugin/plugin.json"), JSON.stringify({ name: "release", version: "1.0.0", skills: ["./skills"], commands: ["./extra/ship.md"] }));
    writeFileSync(join(plugin, "skills/SKILL.md"), "---\nname: release-notes\ndescription: Writes release notes\n---\nWrite them.\n");
    writeFileSync(join(plugin, "extra/ship.md"), "---\ndescription: Ship it\n---\nShip.\n");
    writeFileSync(join(plugin, "hooks/hooks.json"), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: "true" }, { type: "command", command: "true" }] }] } }));
    writeFileSync(join(plugin, ".mcp.json"), JSON.stringify({ mcpServers: { tracker: { command: "tracker" } } }));
    const configDir = tempDirectory("clew-config-");
    const cwd = tempDirectory("clew-project-");
    expect((await runClew(["plugin", "marketplace", "add", market], { cwd, configDir })).code).toBe(0);
    expect((await runClew(["plugin", "install", "release@tools"], { cwd, configDir })).code).toBe(0);
    const run = await runClew(["plugin", "details", "release@tools", "--json"], { cwd, configDir });
    expect(run.code).toBe(0);
    const details = JSON.parse(run.stdout) as { components: Array<{ kind: string; name: string; description: string }>; hooks: Record<string, number>; mcpServers: string[]; mcpTokens: unknown };
    expect(details.components.map((item) => [item.kind, item.name, item.description]).sort()).toEqual([
      ["command", "release:ship", "Ship it"],
      ["skill", "release:release-notes", "Writes release notes"],
    ]);
    expect(details.hooks).toEqual({ Stop: 2 });
    expect(details.mcpServers).toEqual(["tracker"]);
    expect(typeof details.mcpTokens).toBe("string");
  }, 60_000);
});
