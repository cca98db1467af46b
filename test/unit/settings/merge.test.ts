// The merged result and the origin of every leaf, from fixture layers copied into temp dirs.
import { describe, expect, test } from "bun:test";
import { loadSettings } from "../../../src/settings/load.ts";
import { mergeLayers } from "../../../src/settings/merge.ts";
import { layout, originLabels, readFixture } from "./fixture.ts";

describe("merging layers", () => {
  test("five layers: scalars from the strongest, arrays concatenated strongest first, env by key", () => {
    const space = layout("five-layers");
    const flags = readFixture("five-layers", "flags.json") as { model: string; allowedTools: string[]; disallowedTools: string[] };
    const loaded = space.load({ cli: { settings: space.path("cli.json"), ...flags } });
    expect(loaded.settings).toEqual(readFixture("five-layers", "expected.json") as typeof loaded.settings);
    expect(originLabels(space, loaded)).toEqual(readFixture("five-layers", "origins.json") as Record<string, string>);
    expect(loaded.problems).toEqual([]);
    expect(Object.isFrozen(loaded.settings)).toBe(true);
    expect(Object.isFrozen(loaded.settings.permissions.allow)).toBe(true);
  });

  test("array exceptions: fallbackModel whole, managed availableModels as-is, marketplaces whole by name, hooks deduped", () => {
    const space = layout("arrays-and-exceptions");
    const loaded = space.load();
    expect(loaded.settings).toEqual(readFixture("arrays-and-exceptions", "expected.json") as typeof loaded.settings);
    expect(originLabels(space, loaded)).toEqual(readFixture("arrays-and-exceptions", "origins.json") as Record<string, string>);
  });

  test(".clew and .claude are both read and .clew wins a clash", () => {
    const space = layout("clew-and-claude");
    const loaded = space.load();
    expect(loaded.settings).toEqual(readFixture("clew-and-claude", "expected.json") as typeof loaded.settings);
    expect(originLabels(space, loaded)).toEqual(readFixture("clew-and-claude", "origins.json") as Record<string, string>);
  });

  test("availableModels merges normally when managed settings don't set it", () => {
    const space = layout();
    space.write("user.json", JSON.stringify({ availableModels: ["sonnet"] }));
    space.write("project.json", JSON.stringify({ availableModels: ["opus", "sonnet"] }));
    expect(space.load().settings.availableModels).toEqual(["opus", "sonnet"]);
  });

  test("a stronger layer with a different shape for a key replaces it whole", () => {
    const result = mergeLayers([
      { data: { custom: "text" }, origin: { scope: "project", file: "/p" } },
      { data: { custom: ["a", "b"] }, origin: { scope: "user", file: "/u" } },
    ]);
    expect(result.value).toEqual({ custom: "text" });
    expect(Object.fromEntries(result.origins.entries())).toEqual({ custom: { scope: "project", file: "/p" } });
  });

  test("an object only one layer fills (the defaults' {} aside) keeps every key and each leaf's origin", () => {
    const user = { scope: "user", file: "/u" } as const;
    const result = mergeLayers([
      { data: { enabledPlugins: { "fmt@team": true, "odd name@team": false }, env: { A: "1", NESTED: "x" } }, origin: user },
      { data: { enabledPlugins: {}, env: {} }, origin: { scope: "default" } },
    ]);
    expect(result.value).toEqual({ enabledPlugins: { "fmt@team": true, "odd name@team": false }, env: { A: "1", NESTED: "x" } });
    expect(Object.fromEntries(result.origins.entries())).toEqual({
      'enabledPlugins["fmt@team"]': user,
      'enabledPlugins["odd name@team"]': user,
      "env.A": user,
      "env.NESTED": user,
    });
  });

  test("--setting-sources reads only the named file scopes; managed and --settings are always read", () => {
    const space = layout("five-layers");
    const loaded = space.load({ cli: { settingSources: ["project"], settings: space.path("cli.json") } });
    expect(loaded.settings.permissions.deny).toEqual(["WebFetch", "Read(./secrets/**)", "Bash(curl:*)"]);
    expect(loaded.settings.permissions.allow).toEqual(["Edit(src/**)", "Bash(npm test)"]);
    expect(loaded.settings.model).toBe("cli-settings-model");
    expect(loaded.settings.env).toEqual({ ORG: "acme", SHARED: "managed", PROJECT_ONLY: "1" });
    expect(loaded.settings.language).toBeUndefined();
    expect(loaded.files).not.toContain(space.path("user.json"));
  });

  test("an unknown --setting-sources value is a usage error", () => {
    const space = layout();
    expect(() => space.load({ cli: { settingSources: ["user", "team"] } })).toThrow(expect.objectContaining({ code: "usage" }));
  });

  test("flags become command-line settings, above --settings", () => {
    const space = layout();
    const loaded = space.load({
      cli: {
        settings: JSON.stringify({ model: "inline", permissions: { defaultMode: "plan" } }),
        model: "flag",
        permissionMode: "acceptEdits",
        addDirs: ["../lib", "/abs"],
      },
    });
    expect(loaded.settings.model).toBe("flag");
    expect(loaded.settings.permissions.defaultMode).toBe("acceptEdits");
    expect(loaded.settings.permissions.additionalDirectories).toEqual([`${space.root}/lib`, "/abs"]);
    expect(originLabels(space, loaded)).toMatchObject({
      model: "cli:--model",
      "permissions.defaultMode": "cli:--permission-mode",
      "permissions.additionalDirectories[0]": "cli:--add-dir",
    });
  });

  test("rules carry their scope, file and `/` anchor (spec §4.4)", () => {
    const space = layout("five-layers");
    const loaded = space.load({ cli: { settings: space.path("cli.json"), allowedTools: ["Glob"] } });
    const find = (text: string, scope: string) => loaded.rules.find((rule) => rule.text === text && rule.source.scope === scope);
    expect(find("WebFetch", "managed")).toEqual({ text: "WebFetch", kind: "deny", source: { scope: "managed", file: space.path("managed.json"), root: space.managedDir } });
    expect(find("WebFetch", "user")?.source).toEqual({ scope: "user", file: space.path("user.json"), root: space.configDir });
    expect(find("Edit(src/**)", "project")?.source).toEqual({ scope: "project", file: space.path("project.json"), root: space.startDir });
    expect(find("Bash(npm test)", "local")?.source).toEqual({ scope: "local", file: space.path("local.json"), root: space.startDir });
    expect(find("Bash(git push:*)", "cli")).toEqual({ text: "Bash(git push:*)", kind: "ask", source: { scope: "cli", file: space.path("cli.json"), root: `${space.root}/cli` } });
    expect(find("Glob", "cli")).toEqual({ text: "Glob", kind: "allow", source: { scope: "cli", root: space.startDir } });
    expect(loaded.rules.filter((rule) => rule.kind === "deny").map((rule) => rule.text)).toEqual([
      "WebFetch", "Read(./secrets/**)", "Bash(curl:*)", "WebFetch",
    ]);
  });

  test("started in the home directory, ~/.clew/settings.json is read once, as user settings", () => {
    const space = layout();
    space.write("user.json", JSON.stringify({ permissions: { allow: ["Read"] } }));
    const loaded = loadSettings({ startDir: space.homeDir, configDir: space.configDir, homeDir: space.homeDir, managedDirs: [space.managedDir] });
    expect(loaded.rules).toEqual([{ text: "Read", kind: "allow", source: { scope: "user", file: space.path("user.json"), root: space.configDir } }]);
  });
});
