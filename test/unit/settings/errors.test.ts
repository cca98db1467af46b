// A broken file never fails open: it stops the run with file:line, or (keepDenyOnError) keeps only
// its deny/ask rules. A file with one bad entry loses that entry only.
import { describe, expect, test } from "bun:test";
import { formatProblem, SettingsError } from "../../../src/settings/problems.ts";
import { layout, type Layout } from "./fixture.ts";

const BROKEN = `{
  "permissions": {
    "deny": ["Bash(rm -rf:*)", "Read(./.env)"],
    "ask": ["Bash(git push:*)"],
    "allow": ["Bash(curl:*)"],
  }
}
`;

function loadError(space: Layout, options: Parameters<Layout["load"]>[0] = {}): SettingsError {
  try {
    space.load(options);
  } catch (error) {
    if (error instanceof SettingsError) return error;
    throw error;
  }
  throw new Error("expected a SettingsError");
}

describe("a file that does not parse", () => {
  const layers = ["managed.json", "user.json", "project.json", "project-claude.json", "local.json", "local-claude.json", "cli.json"];
  for (const layer of layers) {
    test(`${layer}: the error names the file, line and column`, () => {
      const space = layout();
      const file = space.write(layer, BROKEN);
      const error = loadError(space, layer === "cli.json" ? { cli: { settings: file } } : {});
      expect(error.code).toBe("config");
      expect(error.problem).toEqual({
        file,
        line: 6,
        column: 3,
        keyPath: "permissions",
        message: "invalid JSON (in permissions): trailing commas are not allowed (settings files are strict JSON)",
        severity: "error",
      });
      const shown = layer === "user.json" ? "~/.clew/settings.json" : file;
      expect(error.message).toBe(`clew: ${shown}:6:3: invalid JSON (in permissions): trailing commas are not allowed (settings files are strict JSON)`);
    });
  }

  test("inline --settings JSON names the flag", () => {
    const space = layout();
    const error = loadError(space, { cli: { settings: '{"model": "x" // pick\n}' } });
    expect(error.problem).toMatchObject({ file: "--settings", line: 1, column: 15 });
    expect(error.problem.message).toContain("comments are not allowed");
  });

  test("paths under the home directory are shown with ~", () => {
    const space = layout();
    space.write("user.json", '{\n  "model": "opus",\n  "permissions": {"allow": ["Read"] "deny": []}\n}');
    const error = loadError(space);
    expect(error.message).toBe("clew: ~/.clew/settings.json:3:37: invalid JSON (in permissions.deny): expected ','");
  });

  test("a JSON value that is not an object is an error too", () => {
    const space = layout();
    space.write("project.json", '["Bash"]');
    expect(loadError(space).problem).toMatchObject({ file: space.path("project.json"), line: 1, message: "a settings file must contain a JSON object ({ … })" });
  });

  test("a missing --settings file and an oversized one are errors; a missing layer file is not", () => {
    const space = layout();
    expect(loadError(space, { cli: { settings: "nope.json" } }).problem).toMatchObject({ file: `${space.startDir}/nope.json`, message: "file not found (--settings)" });
    space.write("cli.json", `{"model": "${"x".repeat(2 * 1024 * 1024)}"}`);
    expect(loadError(space, { cli: { settings: space.path("cli.json") } }).problem.message).toMatch(/^settings file is larger than 2 MiB/);
    expect(space.load().problems).toEqual([]);
  });

  test("an empty file says nothing and is not an error", () => {
    const space = layout();
    space.write("project.json", "\n");
    expect(space.load().problems).toEqual([]);
  });
});

describe("keepDenyOnError", () => {
  test("a broken project file keeps its deny and ask rules, loses its allow rules, and a user deny stays", () => {
    const space = layout();
    space.write("project.json", BROKEN);
    space.write("user.json", JSON.stringify({ permissions: { deny: ["WebFetch"], allow: ["Read"] } }));
    const loaded = space.load({ keepDenyOnError: true });
    expect(loaded.settings.permissions.deny).toEqual(["Bash(rm -rf:*)", "Read(./.env)", "WebFetch"]);
    expect(loaded.settings.permissions.ask).toEqual(["Bash(git push:*)"]);
    expect(loaded.settings.permissions.allow).toEqual(["Read"]);
    expect(loaded.rules.map((rule) => `${rule.kind} ${rule.text} ${rule.source.scope}`)).toEqual([
      "deny Bash(rm -rf:*) project",
      "deny Read(./.env) project",
      "ask Bash(git push:*) project",
      "deny WebFetch user",
      "allow Read user",
    ]);
    expect(loaded.problems).toEqual([
      {
        file: space.path("project.json"),
        line: 6,
        column: 3,
        keyPath: "permissions",
        message:
          "invalid JSON (in permissions): trailing commas are not allowed (settings files are strict JSON); " +
          "kept 2 deny and 1 ask rules from it; everything else in it is ignored until it is fixed",
        severity: "error",
      },
    ]);
  });

  test("a truncated file still gives up the deny rules before the break", () => {
    const space = layout();
    space.write("local.json", '{"model": "x", "permissions": {"deny": ["Bash(sudo:*)", "Edit(/etc/**)"');
    const loaded = space.load({ keepDenyOnError: true });
    expect(loaded.settings.permissions.deny).toEqual(["Bash(sudo:*)", "Edit(/etc/**)"]);
    expect(loaded.settings.model).toBeUndefined();
  });

  test("a broken managed file keeps its deny rules above everything else", () => {
    const space = layout();
    space.write("managed.json", '{"permissions": {"deny": ["WebSearch"]}, "model": }');
    const loaded = space.load({ keepDenyOnError: true });
    expect(loaded.rules).toEqual([{ text: "WebSearch", kind: "deny", source: { scope: "managed", file: space.path("managed.json"), root: space.managedDir } }]);
    expect(loaded.problems[0]?.severity).toBe("error");
  });
});

describe("a file that parses but has invalid entries", () => {
  test("self-update settings of the wrong kind are reported and not applied, so a pin is never half-read", () => {
    const space = layout();
    space.write("user.json", '{ "autoUpdates": "no", "autoUpdatesChannel": "beta", "pinnedVersion": "latest", "agent": "reviewer" }');
    const loaded = space.load();
    expect(loaded.settings.autoUpdates).toBeUndefined();
    expect(loaded.settings.autoUpdatesChannel).toBeUndefined();
    expect(loaded.settings.pinnedVersion).toBeUndefined();
    expect(loaded.settings.agent).toBe("reviewer");
    expect(loaded.problems.map((problem) => formatProblem(problem, space.homeDir))).toEqual([
      "~/.clew/settings.json:1:18: autoUpdates must be true or false (got string)",
      "~/.clew/settings.json:1:46: autoUpdatesChannel must be one of \"latest\", \"stable\" (got \"beta\")",
      "~/.clew/settings.json:1:71: pinnedVersion is invalid: must be a version such as 1.2.3",
    ]);
  });

  test("only the bad entries are skipped, each with file, line and key path", () => {
    const space = layout();
    const file = space.write(
      "user.json",
      [
        "{",
        '  "model": "opus",',
        '  "permissions": {',
        '    "allow": ["Read", 42, "Edit"],',
        '    "deny": ["Bash(rm:*)", false, "WebFetch"],',
        '    "defaultMode": "yolo"',
        "  },",
        '  "env": { "GOOD": "1", "BAD": 2 },',
        '  "cleanupPeriodDays": 0,',
        '  "hooks": { "PreToolUse": [{ "matcher": "Bash", "hooks": [{ "type": "shell", "command": "x" }, { "type": "command", "command": "ok.sh" }] }] },',
        '  "someFutureKey": { "kept": true }',
        "}",
      ].join("\n"),
    );
    const loaded = space.load();
    expect(loaded.settings.permissions.allow).toEqual(["Read", "Edit"]);
    expect(loaded.settings.permissions.deny).toEqual(["Bash(rm:*)", "WebFetch"]);
    expect(loaded.settings.permissions.defaultMode).toBeUndefined();
    expect(loaded.settings.env).toEqual({ GOOD: "1" });
    expect(loaded.settings.cleanupPeriodDays).toBe(30);
    expect(loaded.settings.hooks).toEqual({ PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "ok.sh" }] }] });
    expect(loaded.settings.someFutureKey).toEqual({ kept: true });
    expect(loaded.settings.model).toBe("opus");
    expect(loaded.problems.map((problem) => formatProblem(problem, space.homeDir))).toEqual([
      "~/.clew/settings.json:4:23: permissions.allow[1] must be a string (got number)",
      "~/.clew/settings.json:5:28: permissions.deny[1] must be a string (got boolean)",
      '~/.clew/settings.json:6:20: permissions.defaultMode must be one of "default", "manual", "acceptEdits", "plan", "auto", "dontAsk", "bypassPermissions" (got "yolo")',
      "~/.clew/settings.json:8:32: env.BAD must be a string (got number)",
      "~/.clew/settings.json:9:24: cleanupPeriodDays must be at least 1 (got 0)",
      '~/.clew/settings.json:10:70: hooks.PreToolUse[0].hooks[0].type must be one of "command", "http", "mcp_tool", "prompt", "agent" (got "shell"); ignoring hooks.PreToolUse[0].hooks[0]',
    ]);
    expect(loaded.problems.every((problem) => problem.severity === "warning" && problem.file === file)).toBe(true);
  });

  test("a single string where the deny list belongs is kept as one deny rule", () => {
    const space = layout();
    space.write("project.json", JSON.stringify({ permissions: { deny: "Bash(rm:*)", allow: "Bash" } }));
    const loaded = space.load();
    expect(loaded.settings.permissions.deny).toEqual(["Bash(rm:*)"]);
    expect(loaded.settings.permissions.allow).toEqual([]);
    expect(loaded.problems.map((problem) => problem.message)).toEqual([
      "permissions.deny should be an array of rules (got a single string); using it as one rule",
      "permissions.allow must be an array (got string)",
    ]);
  });

  test("unknown hook events are kept but reported; $schema is dropped", () => {
    const space = layout();
    space.write("project.json", JSON.stringify({ $schema: "x", hooks: { beforeSubmitPrompt: [{ hooks: [{ type: "command", command: "c" }] }] } }));
    const loaded = space.load();
    expect(loaded.settings.hooks).toEqual({ beforeSubmitPrompt: [{ hooks: [{ type: "command", command: "c" }] }] });
    expect(loaded.settings.$schema).toBeUndefined();
    expect(loaded.problems.map((problem) => problem.message)).toEqual([
      "hooks.beforeSubmitPrompt: unknown hook event 'beforeSubmitPrompt' (event names are case-sensitive); its hooks never run",
    ]);
  });

  test("a marketplace with an unknown source kind is skipped with one warning", () => {
    const space = layout();
    space.write("user.json", JSON.stringify({ extraKnownMarketplaces: { odd: { source: { source: "ftp" } }, ok: { source: { source: "github", repo: "a/b" } } } }));
    const loaded = space.load();
    expect(Object.keys(loaded.settings.extraKnownMarketplaces)).toEqual(["ok"]);
    expect(loaded.problems.map((problem) => problem.keyPath)).toEqual(["extraKnownMarketplaces.odd.source.source"]);
  });
});
