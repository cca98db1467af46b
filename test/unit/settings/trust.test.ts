// The trust store: a directory is trusted when it or a parent was trusted; the home directory
// and the root can't be trusted wholesale; a broken store trusts nothing.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isTrusted, trustDirectory, trustStorePath } from "../../../src/settings/trust.ts";
import { layout } from "./fixture.ts";

describe("trust store", () => {
  test("trusting a directory trusts it and everything below, not its siblings or parents", () => {
    const space = layout();
    const project = join(space.root, "projects", "app");
    mkdirSync(join(project, "pkg", "deep"), { recursive: true });
    expect(isTrusted(space.configDir, project)).toBe(false);
    const at = new Date("2026-01-02T03:04:05.000Z");
    expect(trustDirectory(space.configDir, project, { homeDir: space.homeDir, now: at })).toBe(project);
    expect(JSON.parse(readFileSync(trustStorePath(space.configDir), "utf8"))).toEqual({ [project]: { trusted: true, at: at.toISOString() } });
    expect(isTrusted(space.configDir, project)).toBe(true);
    expect(isTrusted(space.configDir, join(project, "pkg", "deep"))).toBe(true);
    expect(isTrusted(space.configDir, join(space.root, "projects"))).toBe(false);
    expect(isTrusted(space.configDir, join(space.root, "projects", "other"))).toBe(false);
  });

  test("a symlink to a trusted directory is trusted through its target", () => {
    const space = layout();
    const real = join(space.root, "real");
    mkdirSync(real);
    symlinkSync(real, join(space.root, "link"));
    trustDirectory(space.configDir, real);
    expect(isTrusted(space.configDir, join(space.root, "link"))).toBe(true);
  });

  test("the home directory and / cannot be trusted", () => {
    const space = layout();
    expect(() => trustDirectory(space.configDir, space.homeDir, { homeDir: space.homeDir })).toThrow(expect.objectContaining({ code: "usage" }));
    expect(() => trustDirectory(space.configDir, "/")).toThrow(expect.objectContaining({ code: "usage" }));
    writeFileSync(trustStorePath(space.configDir), JSON.stringify({ "/": { trusted: true, at: "" } }));
    expect(isTrusted(space.configDir, space.startDir)).toBe(false);
  });

  test("an unreadable store trusts nothing", () => {
    const space = layout();
    writeFileSync(trustStorePath(space.configDir), "{ not json");
    expect(isTrusted(space.configDir, space.startDir)).toBe(false);
    trustDirectory(space.configDir, space.startDir);
    expect(isTrusted(space.configDir, space.startDir)).toBe(true);
  });
});
