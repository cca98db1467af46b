// What a layer may not set: repository-controlled modes and keys (§2.5), managed-only keys,
// untrusted project grants (§2.6), managed-only rules (§2.2), and the security exceptions (§2.4).
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { managedFiles } from "../../../src/settings/sources.ts";
import { trustDirectory } from "../../../src/settings/trust.ts";
import { layout } from "./fixture.ts";

describe("keys a repository cannot set", () => {
  test("bypassPermissions from the project file is ignored with a notice; the user's mode applies", () => {
    const space = layout();
    const file = space.write("project.json", '{\n  "permissions": {\n    "defaultMode": "bypassPermissions",\n    "deny": ["WebFetch"]\n  }\n}');
    space.write("user.json", JSON.stringify({ permissions: { defaultMode: "acceptEdits" } }));
    const loaded = space.load();
    expect(loaded.settings.permissions.defaultMode).toBe("acceptEdits");
    expect(loaded.settings.permissions.deny).toEqual(["WebFetch"]);
    expect(loaded.problems).toEqual([
      {
        file,
        line: 3,
        column: 20,
        keyPath: "permissions.defaultMode",
        message:
          'permissions.defaultMode "bypassPermissions" is ignored in shared project settings: a repository cannot choose this starting mode; use --permission-mode or your user settings',
        severity: "notice",
      },
    ]);
  });

  test("auto from the local file, the dangerous-mode skips, sandbox loosening and gateway login are ignored", () => {
    const space = layout();
    space.write(
      "local.json",
      JSON.stringify({
        permissions: { defaultMode: "auto", allow: ["Read"] },
        skipDangerousModePermissionPrompt: true,
        autoMode: { enabled: true },
        sandbox: { enabled: true, network: { strictAllowlist: false, allowedDomains: ["x.dev"] } },
        forceLoginMethod: "gateway",
      }),
    );
    const loaded = space.load();
    expect(loaded.settings.permissions.defaultMode).toBeUndefined();
    expect(loaded.settings.permissions.allow).toEqual(["Read"]);
    expect(loaded.settings.sandbox).toEqual({ enabled: true, network: { allowedDomains: ["x.dev"] } });
    expect(loaded.settings.skipDangerousModePermissionPrompt).toBeUndefined();
    expect(loaded.settings.autoMode).toBeUndefined();
    expect(loaded.settings.forceLoginMethod).toBeUndefined();
    expect(loaded.problems.map((problem) => problem.keyPath)).toEqual([
      "permissions.defaultMode",
      "skipDangerousModePermissionPrompt",
      "autoMode",
      "sandbox.network.strictAllowlist",
      "forceLoginMethod",
    ]);
    expect(loaded.problems.every((problem) => problem.severity === "notice" && problem.file === space.path("local.json"))).toBe(true);
  });

  test("the same keys from user settings and the command line apply", () => {
    const space = layout();
    space.write("user.json", JSON.stringify({ skipDangerousModePermissionPrompt: true, forceLoginMethod: "console" }));
    const loaded = space.load({ cli: { permissionMode: "bypassPermissions" } });
    expect(loaded.settings.permissions.defaultMode).toBe("bypassPermissions");
    expect(loaded.settings.skipDangerousModePermissionPrompt).toBe(true);
    expect(loaded.problems).toEqual([]);
  });

  test("managed-only keys are ignored outside managed settings", () => {
    const space = layout();
    space.write("user.json", JSON.stringify({ allowManagedPermissionRulesOnly: true, strictKnownMarketplaces: [] }));
    space.write("managed.json", JSON.stringify({ allowManagedHooksOnly: true }));
    const loaded = space.load();
    expect(loaded.settings.allowManagedPermissionRulesOnly).toBeUndefined();
    expect(loaded.settings.strictKnownMarketplaces).toBeUndefined();
    expect(loaded.settings.allowManagedHooksOnly).toBe(true);
    expect(loaded.problems.map((problem) => problem.message)).toEqual([
      "allowManagedPermissionRulesOnly is ignored in user settings: only managed settings can set it",
      "strictKnownMarketplaces is ignored in user settings: only managed settings can set it",
    ]);
  });

  test("managed allowManagedPermissionRulesOnly silences every other layer's rules", () => {
    const space = layout();
    space.write("managed.json", JSON.stringify({ allowManagedPermissionRulesOnly: true, permissions: { deny: ["WebFetch"] } }));
    space.write("user.json", JSON.stringify({ permissions: { allow: ["Bash"], deny: ["Read"] } }));
    const loaded = space.load({ cli: { allowedTools: ["Edit"] } });
    expect(loaded.rules.map((rule) => `${rule.kind} ${rule.text}`)).toEqual(["deny WebFetch"]);
    expect(loaded.settings.permissions).toEqual({ deny: ["WebFetch"], allow: [], ask: [], additionalDirectories: [] });
    expect(loaded.problems.map((problem) => problem.file)).toEqual(["--allowedTools", space.path("user.json")]);
  });
});

describe("workspace trust", () => {
  function untrusted() {
    const space = layout();
    space.write("project.json", JSON.stringify({
      permissions: { allow: ["Bash"], deny: ["Read(.env)"], ask: ["WebFetch"], additionalDirectories: ["/"] },
      extraKnownMarketplaces: { evil: { source: { source: "github", repo: "evil/plugins" } } },
      env: { FROM_PROJECT: "1" },
    }));
    space.write("local.json", JSON.stringify({ permissions: { allow: ["Edit"] } }));
    return space;
  }

  test("in an untrusted folder project allow rules and directories are not applied; deny and ask are", () => {
    const space = untrusted();
    const loaded = space.load({ trusted: undefined });
    expect(loaded.trusted).toBe(false);
    expect(loaded.settings.permissions).toEqual({ deny: ["Read(.env)"], ask: ["WebFetch"], allow: ["Edit"], additionalDirectories: [] });
    expect(loaded.settings.extraKnownMarketplaces).toEqual({});
    expect(loaded.settings.env).toEqual({ FROM_PROJECT: "1" });
    expect(loaded.rules.map((rule) => `${rule.kind} ${rule.text} ${rule.source.scope}`)).toEqual([
      "allow Edit local",
      "deny Read(.env) project",
      "ask WebFetch project",
    ]);
    expect(loaded.problems).toEqual([
      expect.objectContaining({
        file: space.path("project.json"),
        severity: "warning",
        message:
          "this workspace has not been trusted, so permissions.allow, permissions.additionalDirectories, extraKnownMarketplaces from this file are not applied " +
          `(its deny and ask rules are). To trust it, run: clew trust "${space.startDir}"`,
      }),
    ]);
  });

  test("once the folder (or a parent) is trusted, project allow rules apply", () => {
    const space = untrusted();
    trustDirectory(space.configDir, space.root, { homeDir: space.homeDir });
    const loaded = space.load({ trusted: undefined });
    expect(loaded.trusted).toBe(true);
    expect(loaded.settings.permissions.allow).toEqual(["Edit", "Bash"]);
    expect(loaded.problems).toEqual([]);
  });
});

describe("security exceptions (§2.4)", () => {
  test("a stricter value from a weaker scope wins over managed", () => {
    const space = layout();
    space.write("managed.json", JSON.stringify({ disableClaudeAiConnectors: false, useAutoModeDuringPlan: true, remoteControlAtStartup: true }));
    space.write("user.json", JSON.stringify({ disableClaudeAiConnectors: true, useAutoModeDuringPlan: false }));
    space.write("local.json", JSON.stringify({ remoteControlAtStartup: false }));
    const loaded = space.load();
    expect(loaded.settings.disableClaudeAiConnectors).toBe(true);
    expect(loaded.settings.useAutoModeDuringPlan).toBe(false);
    expect(loaded.settings.remoteControlAtStartup).toBe(false);
    expect(loaded.origins.disableClaudeAiConnectors).toEqual({ scope: "user", file: space.path("user.json") });
  });

  test("useAutoModeDuringPlan: false from the shared project file is ignored", () => {
    const space = layout();
    space.write("project.json", JSON.stringify({ useAutoModeDuringPlan: false }));
    const loaded = space.load();
    expect(loaded.settings.useAutoModeDuringPlan).toBeUndefined();
    expect(loaded.problems.map((problem) => problem.keyPath)).toEqual(["useAutoModeDuringPlan"]);
  });
});

describe("managed settings locations", () => {
  function managedDir(root: string, name: string, files: Record<string, string>): string {
    const dir = join(root, name);
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(join(dir, file, ".."), { recursive: true });
      writeFileSync(join(dir, file), text);
    }
    mkdirSync(dir, { recursive: true });
    return dir;
  }

  test("the clew directory is used alone when it has a managed file; else Claude Code's", () => {
    const space = layout();
    const clew = managedDir(space.root, "etc-clew", {});
    const claude = managedDir(space.root, "etc-claude-code", { "managed-settings.json": "{}" });
    expect(managedFiles([clew, claude])).toEqual([join(claude, "managed-settings.json")]);
    writeFileSync(join(clew, "managed-settings.json"), "{}");
    expect(managedFiles([clew, claude])).toEqual([join(clew, "managed-settings.json")]);
  });

  test("drop-ins follow the main file in alphabetical order, later ones stronger; hidden and non-JSON files are skipped", () => {
    const space = layout();
    const dir = managedDir(space.root, "etc-clew", {
      "managed-settings.json": JSON.stringify({ model: "main", permissions: { deny: ["A"] } }),
      "managed-settings.d/20-second.json": JSON.stringify({ model: "second", permissions: { deny: ["C"] } }),
      "managed-settings.d/10-first.json": JSON.stringify({ model: "first", permissions: { deny: ["B"] } }),
      "managed-settings.d/.hidden.json": JSON.stringify({ model: "hidden" }),
      "managed-settings.d/notes.txt": "not json",
    });
    const loaded = space.load({ managedDirs: [dir] });
    expect(loaded.settings.model).toBe("second");
    expect(loaded.settings.permissions.deny).toEqual(["C", "B", "A"]);
    expect(loaded.origins.model).toEqual({ scope: "managed", file: join(dir, "managed-settings.d/20-second.json") });
  });
});
