import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { setUpPermissions, startingMode } from "../../../src/app/permission-setup.ts";
import { loadSettings } from "../../../src/settings/load.ts";
import { ClewError } from "../../../src/util/errors.ts";
import { tempDir } from "../../helpers/tool-session.ts";

function settingsWith(files: Record<string, unknown>) {
  const dir = tempDir();
  for (const [path, value] of Object.entries(files)) {
    const full = join(dir, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, JSON.stringify(value));
  }
  return loadSettings({ startDir: dir, configDir: join(dir, ".config"), managedDirs: [], homeDir: dir, trusted: true });
}

describe("starting permission mode", () => {
  test("the flag wins over settings; settings over the default", () => {
    const settings = settingsWith({ ".clew/settings.local.json": { permissions: { defaultMode: "acceptEdits" } } });
    expect(startingMode(undefined, settings)).toBe("acceptEdits");
    expect(startingMode("plan", settings)).toBe("plan");
    expect(startingMode(undefined, settingsWith({}))).toBe("default");
  });

  test("bypass is refused when policy disables it, and as root outside a sandbox", () => {
    const disabled = settingsWith({ ".clew/settings.local.json": { permissions: { disableBypassPermissionsMode: "disable" } } });
    expect(() => startingMode("bypassPermissions", disabled)).toThrow(ClewError);
    const plain = settingsWith({});
    expect(() => startingMode("bypassPermissions", plain, true)).toThrow(/root\/sudo/);
    expect(startingMode("bypassPermissions", plain, false)).toBe("bypassPermissions");
    expect(startingMode("acceptEdits", plain, true)).toBe("acceptEdits");
  });
});

describe("rules present but not applied, as the gate reports them", () => {
  test("a broken file's allow rule (kept running with keepDenyOnError, as the interactive UI does): the denial names the file, the line and the fix", async () => {
    const dir = tempDir();
    const file = join(dir, ".clew/settings.local.json");
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, '{ "permissions": {\n  "allow": ["Bash(make *)"],\n  "deny": ["Read(./.env)"],\n} }\n');
    const loaded = loadSettings({ startDir: dir, configDir: join(dir, ".config"), managedDirs: [], homeDir: dir, trusted: true, keepDenyOnError: true });
    expect(loaded.rules.map((rule) => `${rule.kind} ${rule.text}`)).toEqual(["deny Read(./.env)"]);
    const setup = setUpPermissions({ settings: loaded, flagMode: undefined, unsandboxedRoot: false, cwd: dir, homeDir: dir, tools: [], ask: undefined });
    const decision = await setup.gate.check({ toolName: "Bash", access: "exec", subject: "make build", input: { command: "make build" }, toolUseId: "t1" });
    expect(decision.behavior).toBe("deny");
    const reason = decision.behavior === "deny" ? decision.reason : "";
    expect(reason).toContain(`The allow rule Bash(make *) in ${file} would allow it but is not in force: its settings file does not parse at line 4, column 1`);
    expect(reason).toContain(`to apply it, fix ${file}.`);
  });
});
