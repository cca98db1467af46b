// "Allow always" writes one rule into .clew/settings.local.json without disturbing anything else.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { addLocalAllowRule, localSettingsPath } from "../../../src/settings/local-writer.ts";
import { SettingsError } from "../../../src/settings/problems.ts";
import { layout } from "./fixture.ts";

describe("addLocalAllowRule", () => {
  test("creates .clew/settings.local.json when there is none", () => {
    const space = layout();
    expect(addLocalAllowRule(space.startDir, "Bash(npm test)")).toEqual({ file: localSettingsPath(space.startDir), added: true });
    expect(readFileSync(localSettingsPath(space.startDir), "utf8")).toBe('{\n  "permissions": {\n    "allow": [\n      "Bash(npm test)"\n    ]\n  }\n}\n');
  });

  test("keeps every other key, the key order and the user's formatting, and never adds a rule twice", () => {
    const space = layout();
    const original = [
      "{",
      '    "model": "opus",',
      '    "env": {"A": "1"},',
      '    "permissions": {',
      '        "deny": ["WebFetch"],',
      '        "allow": ["Read"]',
      "    },",
      '    "futureKey": [1, 2, 3]',
      "}",
      "",
    ].join("\n");
    const file = space.write("local.json", original);
    expect(addLocalAllowRule(space.startDir, "Bash(npm test)").added).toBe(true);
    expect(addLocalAllowRule(space.startDir, "Bash(npm test)").added).toBe(false);
    expect(addLocalAllowRule(space.startDir, "Read").added).toBe(false);
    const text = readFileSync(file, "utf8");
    expect(text).toBe(original.replace('"allow": ["Read"]', '"allow": ["Read",\n            "Bash(npm test)"]'));
    expect(JSON.parse(text)).toEqual({ model: "opus", env: { A: "1" }, permissions: { deny: ["WebFetch"], allow: ["Read", "Bash(npm test)"] }, futureKey: [1, 2, 3] });
    expect(readdirSync(join(space.startDir, ".clew"))).toEqual(["settings.local.json"]);
    expect(space.load().settings.permissions.allow).toEqual(["Read", "Bash(npm test)"]);
  });

  test("adds a permissions section when the file has none", () => {
    const space = layout();
    const file = space.write("local.json", '{\n  "outputStyle": "Learning"\n}\n');
    addLocalAllowRule(space.startDir, "Edit(src/**)");
    expect(readFileSync(file, "utf8")).toBe('{\n  "outputStyle": "Learning",\n  "permissions": {\n    "allow": [\n      "Edit(src/**)"\n    ]\n  }\n}\n');
  });

  test("a file that doesn't parse is left untouched", () => {
    const space = layout();
    const file = space.write("local.json", '{"permissions": {"allow": [,]}}');
    expect(() => addLocalAllowRule(space.startDir, "Read")).toThrow(SettingsError);
    expect(readFileSync(file, "utf8")).toBe('{"permissions": {"allow": [,]}}');
  });
});
