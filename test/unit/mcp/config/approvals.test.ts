// Whether a project server may start (spec §2.4): a rejection beats every approval; settings
// approve; the user's remembered answer counts for the exact definition only; otherwise the
// server waits — for an answer in a trusted folder, for trust in an untrusted one. The shared
// project settings cannot approve the repository's own servers until the folder is trusted.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { approvalsPath, rememberProjectChoice, resetProjectChoices } from "../../../../src/mcp/config/approvals.ts";
import { loadSettings } from "../../../../src/settings/load.ts";
import { mcpSpace } from "./fixture.ts";

function project(servers: Record<string, unknown> = { alpha: { command: "a" }, beta: { command: "b" } }) {
  const space = mcpSpace();
  space.write("repo/app/.mcp.json", { mcpServers: servers });
  space.write("home/.clew/clew.json", { mcpServers: { mine: { command: "m" } } });
  return space;
}

function approvals(space: ReturnType<typeof mcpSpace>, overrides: Parameters<ReturnType<typeof mcpSpace>["load"]>[0] = {}) {
  return Object.fromEntries(space.load(overrides).servers.map((s) => [s.name, s.approval]));
}

describe("project server approval", () => {
  test("pending in a trusted folder, untrusted in an untrusted one; other scopes are always approved", () => {
    const space = project();
    expect(approvals(space)).toEqual({ alpha: "pending", beta: "pending", mine: "approved" });
    expect(approvals(space, { trusted: false })).toEqual({ alpha: "untrusted", beta: "untrusted", mine: "approved" });
  });

  test("enabledMcpjsonServers and enableAllProjectMcpServers approve; disabledMcpjsonServers beats both", () => {
    const space = project();
    expect(approvals(space, { settings: { enabledMcpjsonServers: ["alpha"] } })).toEqual({ alpha: "approved", beta: "pending", mine: "approved" });
    expect(approvals(space, { settings: { enableAllProjectMcpServers: true } })).toEqual({ alpha: "approved", beta: "approved", mine: "approved" });
    expect(approvals(space, { settings: { enableAllProjectMcpServers: true, enabledMcpjsonServers: ["beta"], disabledMcpjsonServers: ["beta", "mine"] } })).toEqual({
      alpha: "approved",
      beta: "rejected",
      mine: "approved",
    });
  });

  test("a remembered answer counts for that folder and definition; a changed definition asks again; reset forgets", () => {
    const space = project();
    const [alpha, beta] = space.load().servers;
    if (!alpha || !beta) throw new Error("expected two project servers");
    expect(alpha.folder).toBe(space.cwd);
    const at = new Date("2026-12-01T10:00:00.000Z");
    rememberProjectChoice(space.configDir, space.cwd, "alpha", alpha.hash, "approved", at);
    rememberProjectChoice(space.configDir, space.cwd, "beta", beta.hash, "rejected", at);
    expect(JSON.parse(readFileSync(approvalsPath(space.configDir), "utf8"))).toEqual({
      folders: { [space.cwd]: { alpha: { choice: "approved", hash: alpha.hash, at: at.toISOString() }, beta: { choice: "rejected", hash: beta.hash, at: at.toISOString() } } },
    });
    expect(approvals(space)).toEqual({ alpha: "approved", beta: "rejected", mine: "approved" });
    // The user's own answer counts in an untrusted folder too, and a settings rejection still wins.
    expect(approvals(space, { trusted: false, settings: { disabledMcpjsonServers: ["alpha"] } })).toEqual({ alpha: "rejected", beta: "rejected", mine: "approved" });

    space.write("repo/app/.mcp.json", { mcpServers: { alpha: { command: "a", args: ["--changed"] }, beta: { command: "b" } } });
    expect(approvals(space)).toEqual({ alpha: "pending", beta: "rejected", mine: "approved" });

    expect(resetProjectChoices(space.configDir, join(space.cwd, "."))).toBe(2);
    expect(approvals(space)).toEqual({ alpha: "pending", beta: "pending", mine: "approved" });
    expect(resetProjectChoices(space.configDir, space.cwd)).toBe(0);
  });

  test("a broken approvals store remembers nothing", () => {
    const space = project();
    space.write("home/.clew/mcp-approvals.json", "{ not json");
    expect(approvals(space)).toEqual({ alpha: "pending", beta: "pending", mine: "approved" });
  });

  test("through loadSettings: the shared project settings approve only in a trusted folder; local settings and rejections always count", () => {
    const space = project({ alpha: { command: "a" }, beta: { command: "b" }, gamma: { command: "g" } });
    space.write("repo/app/.claude/settings.json", { enableAllProjectMcpServers: true, enabledMcpjsonServers: ["alpha"], disabledMcpjsonServers: ["gamma"] });
    space.write("repo/app/.clew/settings.local.json", { enabledMcpjsonServers: ["beta"] });
    const forTrust = (trusted: boolean) => {
      const loaded = loadSettings({ startDir: space.cwd, configDir: space.configDir, managedDirs: [], trusted });
      const { enableAllProjectMcpServers, enabledMcpjsonServers, disabledMcpjsonServers } = loaded.settings;
      return { approvals: approvals(space, { trusted, settings: { enableAllProjectMcpServers, enabledMcpjsonServers, disabledMcpjsonServers } }), problems: loaded.problems };
    };
    const untrusted = forTrust(false);
    expect(untrusted.approvals).toEqual({ alpha: "untrusted", beta: "approved", gamma: "rejected", mine: "approved" });
    expect(untrusted.problems.map((p) => p.message)).toContainEqual(expect.stringContaining("enableAllProjectMcpServers, enabledMcpjsonServers from this file are not applied"));
    expect(forTrust(true).approvals).toEqual({ alpha: "approved", beta: "approved", gamma: "rejected", mine: "approved" });
  });
});
