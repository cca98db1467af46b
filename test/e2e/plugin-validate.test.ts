// `clew plugin validate` on the compiled binary: the --json shape teams read in CI, the human
// report's last line, exit codes, --strict, and a path relative to the working directory.
import { describe, expect, test } from "bun:test";
import { join, resolve } from "node:path";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";

const FIXTURES = resolve(import.meta.dir, "../fixtures/plugins");

function validate(args: string[], cwd = FIXTURES) {
  const configDir = tempDirectory("clew-validate-");
  return runClew(["plugin", "validate", ...args], { cwd, configDir });
}

const lastLine = (text: string): string => text.trimEnd().split("\n").at(-1) ?? "";

describe("clew plugin validate", () => {
  test("--json on a marketplace: the documented report shape, exit 0 with only warnings", async () => {
    const run = await validate([join(FIXTURES, "bare-mcp-json"), "--json"]);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(Object.keys(report).sort()).toEqual(["counts", "issues", "kind", "marketplace", "passed", "path", "strict"]);
    expect(report).toMatchObject({ kind: "marketplace", strict: false, passed: true, counts: { error: 0, warning: 1, note: 0 }, issues: [] });
    expect(Object.keys(report.marketplace).sort()).toEqual(["description", "file", "issues", "name", "nestedMarketplaces", "ownerName", "pluginCount", "plugins", "totals", "valid"]);
    expect(report.marketplace.totals).toEqual({ loaded: 2, remote: 0, invalid: 0, skills: 1, commands: 1, agents: 0, hookHandlers: 0, mcpServers: 1, lspServers: 0 });
    expect(report.marketplace.plugins[1]).toEqual({
      index: 1,
      name: "tracker",
      sourceKind: "relative",
      source: "./plugins/tracker",
      strict: null,
      hasManifest: true,
      manifestName: "tracker",
      status: "loaded",
      root: "plugins/tracker",
      skills: [],
      commands: [],
      agents: [],
      outputStyles: [],
      hookEvents: {},
      hookHandlers: 0,
      mcpServers: ["tracker"],
      lspServers: [],
      bin: false,
      dependencies: [],
      issues: [{ level: "warning", code: "mcp-bare-map", file: "plugins/tracker/.mcp.json", message: expect.stringContaining('without the "mcpServers" wrapper') }],
    });
  });

  test("--strict turns the warning into a failure: exit 1, and the JSON says so", async () => {
    const run = await validate([join(FIXTURES, "bare-mcp-json"), "--json", "--strict"]);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ strict: true, passed: false, counts: { error: 0, warning: 1 } });
    const human = await validate([join(FIXTURES, "bare-mcp-json"), "--strict"]);
    expect(human.code).toBe(1);
    expect(human.stdout).toContain("✘ Validation failed: 1 error (--strict: warnings count as errors)\n  ! warning [mcp-bare-map] plugins/tracker/.mcp.json:");
  });

  test("errors: exit 1, the report ends with them; passes and warnings end with their ✔ line", async () => {
    const failing = await validate(["duplicate-hooks"]);
    expect(failing.code).toBe(1);
    expect(failing.stdout).toContain("plugins[1] dup: loaded — 0 skills, 0 commands, 0 agents, 3 hook handlers\n");
    expect(lastLine(failing.stdout)).toStartWith("  ✘ error [hooks-duplicate-file] plugins/dup/.claude-plugin/plugin.json (hooks): ");
    const warned = await validate(["unknown-field"]);
    expect(warned.code).toBe(0);
    expect(lastLine(warned.stdout)).toBe("✔ Validation passed with warnings");
    // A single plugin folder (no marketplace.json) is validated as a plugin.
    const plugin = await validate(["plugins/good"], join(FIXTURES, "bad-yaml"));
    expect(plugin.code).toBe(0);
    expect(plugin.stdout).toBe(`Validating plugin "good" (${join(FIXTURES, "bad-yaml/plugins/good")})\n  good: loaded — 1 skill, 1 command, 0 agents\n✔ Validation passed\n`);
  });

  test("nothing to validate, or no path: exit 1 with what to give", async () => {
    const empty = await validate([tempDirectory("clew-empty-"), "--json"]);
    expect(empty.code).toBe(1);
    expect(JSON.parse(empty.stdout)).toMatchObject({ kind: "none", passed: false, issues: [{ level: "error", code: "no-manifest" }] });
    const none = await validate([]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("usage: clew plugin validate <path> [--json] [--strict]");
  });
});
