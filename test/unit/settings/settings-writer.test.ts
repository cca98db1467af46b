// One key path set or removed in a settings file, everything else kept; broken files refused.
import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SettingsError } from "../../../src/settings/problems.ts";
import { readSettingsValue, removeSettingsValue, setSettingsValue, settingsFileFor } from "../../../src/settings/settings-writer.ts";

function temp(): string {
  return mkdtempSync(join(tmpdir(), "clew-settings-writer-"));
}

describe("settings writer", () => {
  test("creates the file (and its folder) with just the key", () => {
    const file = join(temp(), ".clew", "settings.json");
    expect(setSettingsValue(file, ["enabledPlugins", "fmt@team"], true)).toEqual({ file, changed: true });
    expect(readFileSync(file, "utf8")).toBe('{\n  "enabledPlugins": {\n    "fmt@team": true\n  }\n}\n');
  });

  test("keeps other keys, their order, comments-free formatting and compact objects; a second set is no change", () => {
    const file = join(temp(), "settings.json");
    const original = '{\n    "model": "opus",\n    "env": {"A": "1"},\n    "enabledPlugins": {\n        "other@x": false\n    }\n}\n';
    writeFileSync(file, original);
    setSettingsValue(file, ["enabledPlugins", "fmt@team"], true);
    expect(readFileSync(file, "utf8")).toBe('{\n    "model": "opus",\n    "env": {"A": "1"},\n    "enabledPlugins": {\n        "other@x": false,\n        "fmt@team": true\n    }\n}\n');
    expect(setSettingsValue(file, ["enabledPlugins", "fmt@team"], true)).toEqual({ file, changed: false });
  });

  test("removal drops the key and the object it leaves empty; removing nothing is no change", () => {
    const file = join(temp(), "settings.json");
    writeFileSync(file, '{\n  "model": "opus",\n  "enabledPlugins": {\n    "fmt@team": true\n  }\n}\n');
    expect(removeSettingsValue(file, ["enabledPlugins", "fmt@team"])).toEqual({ file, changed: true });
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ model: "opus" });
    expect(removeSettingsValue(file, ["enabledPlugins", "fmt@team"])).toEqual({ file, changed: false });
    expect(removeSettingsValue(join(temp(), "none.json"), ["a"])).toEqual({ file: expect.stringContaining("none.json"), changed: false });
  });

  test("a file that does not parse is refused with its line and left untouched", () => {
    const file = join(temp(), "settings.json");
    const broken = '{\n  "model": "opus",\n  "enabledPlugins": { "a@b": true,, }\n}\n';
    writeFileSync(file, broken);
    let caught: unknown;
    try {
      setSettingsValue(file, ["enabledPlugins", "fmt@team"], true);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SettingsError);
    expect((caught as SettingsError).problem).toMatchObject({ file, line: 3, severity: "error" });
    expect((caught as SettingsError).message).toContain("nothing was written");
    expect(readFileSync(file, "utf8")).toBe(broken);
  });

  test("a parent that is not an object is refused, not replaced", () => {
    const file = join(temp(), "settings.json");
    writeFileSync(file, '{ "enabledPlugins": ["fmt@team"] }');
    expect(() => setSettingsValue(file, ["enabledPlugins", "fmt@team"], true)).toThrow("enabledPlugins there is not an object");
    expect(readSettingsValue(file, ["enabledPlugins"])).toEqual(["fmt@team"]);
  });

  test("scope → file: user config dir; project .clew/ when it exists, .claude/ when only it exists", () => {
    const project = temp();
    expect(settingsFileFor("user", "/cfg", project)).toBe("/cfg/settings.json");
    expect(settingsFileFor("project", "/cfg", project)).toBe(join(project, ".clew", "settings.json"));
    mkdirSync(join(project, ".claude"));
    expect(settingsFileFor("project", "/cfg", project)).toBe(join(project, ".claude", "settings.json"));
    expect(settingsFileFor("local", "/cfg", project)).toBe(join(project, ".claude", "settings.local.json"));
    mkdirSync(join(project, ".clew"));
    expect(settingsFileFor("local", "/cfg", project)).toBe(join(project, ".clew", "settings.local.json"));
  });
});
