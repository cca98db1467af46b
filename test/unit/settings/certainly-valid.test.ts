// The start-up shortcut may only ever say "valid" where zod says valid: every typed key is tried
// with every value from the settings fixtures and a set of right and wrong values, and the
// shortcut must also actually fire for the common files (flag layers, a hooks section).
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { certainlyValid } from "../../../src/settings/schema/certainly-valid.ts";
import { settingsKeyJsonSchemas } from "../../../src/settings/schema/json-schemas.macro.ts";
import { SETTINGS_KEYS, settingsKeySchema } from "../../../src/settings/schema/settings.ts";
import { validateSettingsFile } from "../../../src/settings/validate.ts";

const SCHEMAS = settingsKeyJsonSchemas();
const FIXTURES = join(import.meta.dir, "../../fixtures");

function jsonFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return jsonFiles(path);
    return name.endsWith(".json") ? [path] : [];
  });
}

const command = (extra: Record<string, unknown> = {}) => ({ type: "command", command: "true", ...extra });
const CANDIDATES: unknown[] = [
  null, true, false, 0, 1, -1, 1.5, 30, 100_000, 1_000_000, 2 ** 60, "", "x", "default", "manual", "bypassPermissions", "auto",
  "disable", "low", "xhigh", "command", [], ["a"], [1], ["a", 1], [{}], {}, { a: "b" }, { a: 1 }, { a: true },
  { allow: ["Bash(ls)"], deny: ["Read(./.env)"] }, { defaultMode: "plan" }, { defaultMode: "bogus" }, { deny: "Read(x)" },
  { additionalDirectories: ["../lib"] }, { disableBypassPermissionsMode: "disable" }, { disableBypassPermissionsMode: true },
  { PreToolUse: [{ matcher: "Bash", hooks: [command()] }] },
  { Stop: [{ hooks: [command({ timeout: 10, once: true })] }] },
  { Stop: [{ hooks: [command({ timeout: 0 })] }] },
  { Stop: [{ hooks: [command({ timeout: -5 })] }] },
  { Stop: [{ hooks: [command({ shell: "zsh" })] }] },
  { Stop: [{ hooks: [{ type: "command" }] }] },
  { Stop: [{ hooks: [{ type: "nope", command: "true" }] }] },
  { Stop: [{ hooks: [{ command: "true" }] }] },
  { Stop: [{ hooks: [{ type: "http", url: "https://example.com", headers: { a: "b" } }] }] },
  { Stop: [{ hooks: [{ type: "http", url: "https://example.com", headers: { a: 1 } }] }] },
  { Stop: [{ hooks: [{ type: "prompt", prompt: "p", continueOnBlock: "yes" }] }] },
  { Stop: [{ matcher: 1, hooks: [] }] }, { Stop: "x" }, { Stop: [{}] },
  { type: "command", command: "status.sh", padding: 2 }, { type: "command", command: "status.sh", refreshInterval: 0 },
  { commit: "c", pr: "p", sessionUrl: false }, { commit: 1 },
  { "a@b": true, "c@d": false }, { "a@b": "yes" },
  { m: { source: { source: "github", repo: "o/r" }, autoUpdate: true } }, { m: { source: { source: "git" } } },
  { m: { source: { source: "svn", url: "u" } } }, { m: { source: { source: "url", url: "u", headers: { k: "v" } } } },
];

describe("the certainly-valid shortcut", () => {
  test("never says valid where zod says invalid, for every typed key and value tried", () => {
    const fixtureValues = jsonFiles(FIXTURES).flatMap((file) => {
      try {
        const value: unknown = JSON.parse(readFileSync(file, "utf8"));
        return typeof value === "object" && value !== null && !Array.isArray(value) ? Object.values(value) : [];
      } catch {
        return [];
      }
    });
    const wrong: string[] = [];
    let valid = 0;
    let tried = 0;
    for (const key of SETTINGS_KEYS) {
      const schema = SCHEMAS[key];
      const zod = settingsKeySchema(key);
      expect(schema && zod).toBeTruthy();
      if (!schema || !zod) continue;
      for (const value of [...CANDIDATES, ...fixtureValues]) {
        tried += 1;
        if (!certainlyValid(schema, value)) continue;
        valid += 1;
        if (!zod.safeParse(value).success) wrong.push(`${key}: ${JSON.stringify(value)}`);
      }
    }
    expect(wrong).toEqual([]);
    // Not vacuous: the shortcut accepts a good share of what it is shown.
    expect(tried).toBeGreaterThan(1000);
    expect(valid).toBeGreaterThan(50);
  });

  test("it fires for clew's own flag layers and for a settings file with hooks, and the result is what zod gives", () => {
    const files: Record<string, unknown>[] = [
      { permissions: { defaultMode: "bypassPermissions" } },
      { model: "sonnet" },
      { permissions: { allow: ["Bash(npm test *)"], deny: ["Read(./.env)"], additionalDirectories: ["/tmp/x"] } },
      {
        hooks: {
          PreToolUse: [{ matcher: "Bash", hooks: [command()] }],
          PostToolUse: [{ matcher: "Edit|Write", hooks: [command({ timeout: 10 })] }],
          Stop: [{ hooks: [command()] }],
        },
        env: { DEBUG: "1" },
        unknownKeyFromClaudeCode: { anything: [1, 2] },
      },
      { enabledPlugins: Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`plugin-${i}@market-${i % 7}`, i % 3 !== 0])) },
    ];
    for (const data of files) {
      for (const [key, value] of Object.entries(data)) {
        const schema = SCHEMAS[key];
        if (schema) expect(certainlyValid(schema, value)).toBe(true);
      }
      expect(validateSettingsFile({ value: data, locate: () => undefined }, "settings.json")).toEqual({ data, problems: [] });
    }
  });

  test("a record of plain values takes its one-typeof path and still rejects a single wrong entry", () => {
    const schema = SCHEMAS.enabledPlugins;
    expect(schema).toBeDefined();
    if (!schema) return;
    const many = Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`p${i}@m`, true]));
    expect(certainlyValid(schema, many)).toBe(true);
    expect(certainlyValid(schema, { ...many, "late@m": "yes" })).toBe(false);
    expect(certainlyValid(schema, { ...many, "late@m": null })).toBe(false);
    expect(settingsKeySchema("enabledPlugins")?.safeParse({ ...many, "late@m": "yes" }).success).toBe(false);
  });

  test("a schema keyword it does not know makes it defer to zod", () => {
    expect(certainlyValid({ type: "string", pattern: "^a" }, "abc")).toBe(false);
    expect(certainlyValid({ type: "string", minLength: 1 }, "abc")).toBe(false);
    expect(certainlyValid({ allOf: [{ type: "string" }] }, "abc")).toBe(false);
    expect(certainlyValid({ type: "integer", minimum: 1 }, 1.5)).toBe(false);
    expect(certainlyValid({ type: "integer", minimum: 1 }, 2 ** 60)).toBe(false);
  });
});
