import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { startingMode } from "../../../src/app/permission-setup.ts";
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
