// The install logic in-process against a real git marketplace over file://: dependencies
// installed and enabled transitively, disable refused while depended upon, and what the
// session gets at start-up from enabledPluginRoots (verified, tampered, not installed).
import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runDisable, runInstall } from "../../src/app/plugin-install.ts";
import { addMarketplace } from "../../src/plugins/marketplaces/manager.ts";
import { marketplaceContext } from "../../src/app/plugin-ports.ts";
import { enabledPluginRoots } from "../../src/plugins/install/enabled.ts";
import { readEnvironment } from "../../src/settings/paths.ts";
import { gitRepoFrom } from "../helpers/git-repos.ts";

function setup() {
  const root = mkdtempSync(join(tmpdir(), "clew-install-int-"));
  const src = join(root, "src");
  const files: Record<string, string> = {
    ".claude-plugin/marketplace.json": JSON.stringify({ name: "team", owner: { name: "T" }, plugins: [{ name: "fmt", source: "./plugins/fmt" }, { name: "suite", source: "./plugins/suite" }] }),
    "plugins/fmt/.claude-plugin/plugin.json": JSON.stringify({ name: "fmt", version: "2.1.0" }),
    "plugins/fmt/commands/fmt.md": "Format.\n",
    "plugins/suite/.claude-plugin/plugin.json": JSON.stringify({ name: "suite", dependencies: [{ name: "fmt", version: "^2" }] }),
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(src, path, ".."), { recursive: true });
    writeFileSync(join(src, path), text);
  }
  const repo = gitRepoFrom(src, { parent: root });
  const home = join(root, "home");
  const project = join(root, "proj");
  mkdirSync(project, { recursive: true });
  const env = readEnvironment({ HOME: home, CLEW_CONFIG_DIR: home, PATH: process.env.PATH ?? "/usr/bin:/bin" }, project);
  return { repo, env, project, context: { env, projectDir: project } };
}

describe("plugin install, in-process", () => {
  test("dependencies are installed and enabled; disabling one that is depended upon is refused with the chained command", async () => {
    const s = setup();
    const added = await addMarketplace(s.repo.url, marketplaceContext(s.context));
    expect(added.ok).toBe(true);
    const outcome = await runInstall(s.context, "suite@team", "user");
    expect(outcome.ok && outcome.items.map((item) => [item.id, item.version, item.dependencyOf ?? null])).toEqual([
      ["suite@team", s.repo.commit.slice(0, 12), null],
      ["fmt@team", "2.1.0", "suite@team"],
    ]);
    expect(outcome.ok && outcome.warnings).toEqual([]);
    expect(JSON.parse(readFileSync(join(s.env.configDir, "settings.json"), "utf8"))).toEqual({ enabledPlugins: { "fmt@team": true, "suite@team": true } });
    expect(await runDisable(s.context, "fmt@team", {})).toEqual({
      ok: false,
      code: "plugin-depended-upon",
      error: "Plugin fmt@team is needed by suite@team, which is enabled. Disable it first: clew plugin disable suite@team && clew plugin disable fmt@team",
    });
  }, 30_000);

  test("enabledPluginRoots: verified roots, a tampered one refused while the other loads, enabled-but-missing named with the install command", async () => {
    const s = setup();
    await addMarketplace(s.repo.url, marketplaceContext(s.context));
    await runInstall(s.context, "suite@team", "user");
    const input = { enabledPlugins: { "fmt@team": true, "suite@team": true, "ghost@team": true, "off@team": false }, pluginsDir: s.env.pluginsDir, projectDir: s.project };
    const first = enabledPluginRoots(input);
    expect(first.map((item) => [item.id, item.verified, item.problem?.code ?? null])).toEqual([
      ["fmt@team", true, null],
      ["suite@team", true, null],
      ["ghost@team", false, "plugin-not-installed"],
    ]);
    expect(first[0]?.dataDir).toBe(join(s.env.pluginsDir, "data", "fmt-team"));
    expect(first[2]?.problem?.message).toContain("run `clew plugin install ghost@team`");
    writeFileSync(join(first[0]?.root ?? "", "commands", "fmt.md"), "Exfiltrate.\n");
    const second = enabledPluginRoots(input);
    expect(second.map((item) => [item.id, item.verified, item.problem?.code ?? null])).toEqual([
      ["fmt@team", false, "plugin-cache-mismatch"],
      ["suite@team", true, null],
      ["ghost@team", false, "plugin-not-installed"],
    ]);
    expect(second[0]?.problem?.message).toContain("Reinstall it with `clew plugin install fmt@team`");
  }, 30_000);
});
