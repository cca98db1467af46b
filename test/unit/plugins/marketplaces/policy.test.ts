import { describe, expect, test } from "bun:test";
import { gitEnvironment } from "../../../../src/util/git-environment.ts";
import { describeGitError, hostOf } from "../../../../src/plugins/git/remote.ts";
import { autoUpdateDue } from "../../../../src/plugins/marketplaces/auto-update.ts";
import { defaultAutoUpdate, isReservedName, reservedNameRefusal } from "../../../../src/plugins/marketplaces/reserved.ts";
import type { KnownMarketplaces } from "../../../../src/plugins/marketplaces/state.ts";

describe("reserved names (§2.1)", () => {
  test("reserved and impersonating names are refused from third-party sources, accepted from anthropics/*", () => {
    expect(["claude-plugins-official", "knowledge-work-plugins", "official-claude-plugins", "anthropic-plugins-v2"].map(isReservedName)).toEqual([true, true, true, true]);
    expect(["claude-code-workflows", "superpowers-dev", "laurigates-claude-plugins"].map(isReservedName)).toEqual([false, false, false]);
    expect(reservedNameRefusal("claude-plugins-official", { source: "git", url: "file:///tmp/x.git" })).toContain("reserved");
    expect(reservedNameRefusal("claude-plugins-official", { source: "github", repo: "anthropics/claude-plugins-official" })).toBeUndefined();
    expect(reservedNameRefusal("claude-plugins-official", { source: "git", url: "git@github.com:anthropics/claude-plugins-official.git" })).toBeUndefined();
    expect(reservedNameRefusal("claude-plugins-official", { source: "github", repo: "anthropics-fan/claude-plugins-official" })).toContain("reserved");
  });

  test("auto-update is on by default only for official marketplaces from their source", () => {
    expect(defaultAutoUpdate("claude-plugins-official", { source: "github", repo: "anthropics/claude-plugins-official" })).toBe(true);
    expect(defaultAutoUpdate("northwind", { source: "github", repo: "northwind/market" })).toBe(false);
  });
});

describe("autoUpdateDue", () => {
  const now = new Date("2026-12-01T12:00:00.000Z");
  const state: KnownMarketplaces = {
    official: { source: { source: "github", repo: "anthropics/claude-plugins-official" }, installLocation: "/x", lastUpdated: "2026-11-30T00:00:00.000Z" },
    "claude-plugins-official": { source: { source: "github", repo: "anthropics/claude-plugins-official" }, installLocation: "/x", lastUpdated: "2026-11-30T00:00:00.000Z" },
    fresh: { source: { source: "git", url: "file:///r.git" }, installLocation: "/x", lastUpdated: "2026-12-01T11:59:00.000Z", autoUpdate: true },
    stale: { source: { source: "git", url: "file:///r.git" }, installLocation: "/x", lastUpdated: "2026-12-01T09:00:00.000Z", autoUpdate: true },
    off: { source: { source: "git", url: "file:///r.git" }, installLocation: "/x", lastUpdated: "2026-01-01T00:00:00.000Z" },
    local: { source: { source: "directory", path: "/m" }, installLocation: "/m", lastUpdated: "2026-01-01T00:00:00.000Z", autoUpdate: true },
  };
  test("picks auto-updating remote marketplaces not refreshed within the interval", () => {
    expect(autoUpdateDue(state, now)).toEqual(["claude-plugins-official", "stale"]);
  });
  test("DISABLE_AUTOUPDATER turns it off unless FORCE_AUTOUPDATE_PLUGINS", () => {
    expect(autoUpdateDue(state, now, { disabled: true, forced: false })).toEqual([]);
    expect(autoUpdateDue(state, now, { disabled: true, forced: true })).toEqual(["claude-plugins-official", "stale"]);
  });
});

describe("git environment", () => {
  test("the user's variables pass through, each guarded one allowed with exactly its category", () => {
    const prepared = gitEnvironment({ PATH: "/bin", GIT_SSH_COMMAND: "ssh -i key", EDITOR: "vi", SSH_AUTH_SOCK: "/run/agent" });
    expect(prepared.env).toEqual({ PATH: "/bin", GIT_SSH_COMMAND: "ssh -i key", EDITOR: "vi", SSH_AUTH_SOCK: "/run/agent" });
    expect(prepared.unsafe).toEqual({ allowUnsafeSshCommand: true, allowUnsafeEditor: true });
    expect(prepared.allowEnvironment.sort()).toEqual(["EDITOR", "GIT_SSH_COMMAND", "PATH", "SSH_AUTH_SOCK"]);
  });

  test("extra config for one command follows the user's GIT_CONFIG_* entries and enables their categories", () => {
    const prepared = gitEnvironment({ GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "credential.helper", GIT_CONFIG_VALUE_0: "store" }, [["http.https://github.com/.extraHeader", "Authorization: Basic eA=="]], true);
    expect(prepared.env).toEqual({
      GIT_CONFIG_COUNT: "2",
      GIT_CONFIG_KEY_0: "credential.helper",
      GIT_CONFIG_VALUE_0: "store",
      GIT_CONFIG_KEY_1: "http.https://github.com/.extraHeader",
      GIT_CONFIG_VALUE_1: "Authorization: Basic eA==",
      GIT_TERMINAL_PROMPT: "0",
    });
    expect(prepared.unsafe).toEqual({ allowUnsafeConfigEnvCount: true, allowUnsafeCredentialHelper: true });
  });

  test("auth failures name the host and what to try", () => {
    expect(hostOf("git@git.example.com:team/m.git")).toBe("git.example.com");
    const github = describeGitError(new Error("fatal: could not read Username for 'https://github.com': terminal prompts disabled"), "https://github.com/o/r.git", "clone");
    expect(github.code).toBe("auth");
    expect(github.message).toContain("github.com");
    expect(github.message).toContain("gh auth login");
    expect(github.message).toContain("GITHUB_TOKEN");
    const ssh = describeGitError(new Error("git@git.example.com: Permission denied (publickey)."), "git@git.example.com:team/m.git", "clone");
    expect(ssh.code).toBe("auth");
    expect(ssh.message).toContain("git.example.com");
    expect(ssh.message).toContain("ssh-agent");
  });
});
