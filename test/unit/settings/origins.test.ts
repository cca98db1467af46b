// The origins record: leaves one by one, and blocks of an object one layer set with plain values.
import { describe, expect, test } from "bun:test";
import { OriginsBuilder } from "../../../src/settings/origins.ts";
import type { SettingsOrigin } from "../../../src/settings/types.ts";
import { layout } from "./fixture.ts";

const user = { scope: "user", file: "/home/u/.clew/settings.json" } as const;
const project = { scope: "project", file: "/work/.clew/settings.json" } as const;

function sample(): OriginsBuilder {
  const origins = new OriginsBuilder();
  origins.set("model", project);
  origins.block("enabledPlugins", { "fmt@team": true, plain: false, 'quote"d@x': true, __proto__x: true }, user);
  origins.set("permissions.allow[0]", project);
  origins.block("env", { A: "1" }, project);
  return origins;
}

describe("the origins record", () => {
  test("lists a block's leaves where the merge met it, each key path as appendKeySegment writes it", () => {
    expect(Object.entries(sample().record())).toEqual([
      ["model", project],
      ['enabledPlugins["fmt@team"]', user],
      ["enabledPlugins.plain", user],
      ['enabledPlugins["quote\\"d@x"]', user],
      ["enabledPlugins.__proto__x", user],
      ["permissions.allow[0]", project],
      ["env.A", project],
    ]);
  });

  test("answers for a key path by name without listing, and only for leaves that exist", () => {
    const record = sample().record();
    expect(record['enabledPlugins["fmt@team"]']).toEqual(user);
    expect(record["enabledPlugins.plain"]).toEqual(user);
    expect(record['enabledPlugins["quote\\"d@x"]']).toEqual(user);
    expect(record.model).toEqual(project);
    // Not a leaf, a leaf written another way than the listing writes it, a leaf that does not exist.
    expect([record.enabledPlugins, record['enabledPlugins["plain"]'], record['enabledPlugins["gone@team"]'], record.disableAllHooks]).toEqual([undefined, undefined, undefined, undefined]);
    expect(["model" in record, 'enabledPlugins["fmt@team"]' in record, "enabledPluginsX" in record]).toEqual([true, true, false]);
  });

  test("is read-only like a frozen object", () => {
    const record = sample().record() as Record<string, unknown>;
    expect(() => {
      record.model = user;
    }).toThrow(TypeError);
    expect(() => delete record.model).toThrow(TypeError);
    expect(() => Object.defineProperty(record, "extra", { value: user })).toThrow(TypeError);
    expect(record.model).toEqual(project);
    expect(Object.isFrozen(new OriginsBuilder().record())).toBe(true);
  });

  test("600 enabled plugins in one file: every id has its origin, `clew config --origins` order kept", () => {
    const space = layout();
    const ids = Array.from({ length: 600 }, (_, i) => `plugin-${i}@market-${i % 7}`);
    const file = space.write("user.json", JSON.stringify({ model: "opus", enabledPlugins: Object.fromEntries(ids.map((id) => [id, true])), env: { A: "1" } }));
    const loaded = space.load();
    const origin: SettingsOrigin = { scope: "user", file };
    expect(Object.entries(loaded.origins).filter(([, from]) => from.scope !== "default")).toEqual([["model", origin], ...ids.map((id): [string, SettingsOrigin] => [`enabledPlugins[${JSON.stringify(id)}]`, origin]), ["env.A", origin]]);
    expect(loaded.origins[`enabledPlugins["plugin-599@market-4"]`]).toEqual(origin);
    expect(loaded.settings.enabledPlugins).toEqual(Object.fromEntries(ids.map((id) => [id, true])));
    expect(Object.isFrozen(loaded.settings.enabledPlugins)).toBe(true);
  });
});
