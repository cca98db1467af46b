// `clew plugin marketplace …` through the compiled binary, with a temp HOME/CLEW_CONFIG_DIR and
// real git repositories over file://.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runClew } from "../helpers/clew-process.ts";
import { commitFile, gitRepoFrom } from "../helpers/git-repos.ts";

function marketFolder(name: string, plugins: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), "market-src-"));
  mkdirSync(join(dir, ".claude-plugin"));
  writeFileSync(join(dir, ".claude-plugin/marketplace.json"), JSON.stringify({ name, owner: { name: "Tests" }, plugins: plugins.map((plugin) => ({ name: plugin, source: `./plugins/${plugin}` })) }));
  return dir;
}

describe("clew plugin marketplace", () => {
  test("add, list --json, update, remove against a file:// repository", async () => {
    const configDir = mkdtempSync(join(tmpdir(), "clew-home-"));
    const run = (args: string[]) => runClew(["plugin", "marketplace", ...args], { cwd: configDir, configDir });
    const repo = gitRepoFrom(marketFolder("e2e-market", ["alpha", "beta"]));

    const added = await run(["add", repo.url]);
    expect({ code: added.code, stdout: added.stdout }).toEqual({ code: 0, stdout: "✔ Successfully added marketplace: e2e-market (2 plugins)\n" });
    const location = join(configDir, "plugins/marketplaces/e2e-market");
    expect(existsSync(join(location, ".claude-plugin/marketplace.json"))).toBe(true);

    const listed = await run(["list", "--json"]);
    expect(listed.code).toBe(0);
    const entries = JSON.parse(listed.stdout) as Array<Record<string, unknown>>;
    expect(entries).toEqual([
      { name: "e2e-market", source: "git", url: repo.url, installLocation: location, lastUpdated: entries[0]?.lastUpdated, autoUpdate: false, commit: repo.commit, pluginCount: 2 },
    ]);

    const human = await run(["list"]);
    expect(human.stdout).toBe(`Configured marketplaces:\n\n  ❯ e2e-market\n    Source: Git (${repo.url})\n    Plugins: 2\n`);

    const next = commitFile(repo, { "README.md": "more\n" });
    const updated = await run(["update", "e2e-market"]);
    expect({ code: updated.code, stdout: updated.stdout }).toEqual({ code: 0, stdout: `✔ Successfully updated marketplace: e2e-market (now at ${next.commit.slice(0, 12)})\n` });

    renameSync(repo.bare, `${repo.bare}.gone`);
    const failed = await run(["update"]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("✘ Failed to update marketplace 'e2e-market'");
    expect(failed.stderr).toContain("Kept the last good copy");
    expect(existsSync(join(location, "README.md"))).toBe(true);

    const removed = await run(["rm", "e2e-market"]);
    expect({ code: removed.code, stdout: removed.stdout }).toEqual({ code: 0, stdout: "✔ Successfully removed marketplace: e2e-market\n" });
    expect(existsSync(location)).toBe(false);
    expect(JSON.parse(readFileSync(join(configDir, "plugins/known_marketplaces.json"), "utf8"))).toEqual({});
  });

  test("a reserved name is refused, a bad source explains itself, an unknown name lists the known ones", async () => {
    const configDir = mkdtempSync(join(tmpdir(), "clew-home-"));
    const run = (args: string[]) => runClew(["plugin", "marketplace", ...args], { cwd: configDir, configDir });
    const reserved = await run(["add", gitRepoFrom(marketFolder("anthropic-marketplace", [])).url]);
    expect(reserved.code).toBe(1);
    expect(reserved.stderr).toContain("'anthropic-marketplace' is reserved");
    const bad = await run(["add", "gitlab.com/group/project"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("not a valid owner/repo");
    const unknown = await run(["remove", "nope"]);
    expect({ code: unknown.code, stderr: unknown.stderr }).toEqual({ code: 1, stderr: "✘ Marketplace 'nope' not found. No marketplaces are added yet; add one with `clew plugin marketplace add <source>`.\n" });
    const empty = await run(["list"]);
    expect(empty.stdout).toBe("No marketplaces configured. Add one with `clew plugin marketplace add <source>`.\n");
  });

  test("a local folder is added in place", async () => {
    const configDir = mkdtempSync(join(tmpdir(), "clew-home-"));
    const folder = marketFolder("folder-market", ["alpha"]);
    const added = await runClew(["plugin", "marketplace", "add", folder], { cwd: configDir, configDir });
    expect(added.stdout).toBe("✔ Successfully added marketplace: folder-market (1 plugin)\n");
    const listed = JSON.parse((await runClew(["plugin", "marketplace", "list", "--json"], { cwd: configDir, configDir })).stdout) as Array<Record<string, unknown>>;
    expect(listed.map((entry) => ({ source: entry.source, path: entry.path, installLocation: entry.installLocation }))).toEqual([{ source: "directory", path: folder, installLocation: folder }]);
  });
});
