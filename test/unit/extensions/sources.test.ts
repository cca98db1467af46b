import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { discoverSources, nestedSources, pluginSource } from "../../../src/extensions/sources.ts";
import type { ComponentSource, SourceScope } from "../../../src/extensions/types.ts";
import { tempDir } from "./helpers.ts";

function folder(scope: SourceScope, root: string, agents = true): ComponentSource {
  return { scope, root, skills: [join(root, "skills")], commands: [join(root, "commands")], agents: agents ? [join(root, "agents")] : [] };
}

describe("discoverSources", () => {
  test("managed, user, project folders from cwd up to the repository root (.clew before .claude), then --add-dir", () => {
    const base = tempDir();
    const repo = join(base, "repo");
    const cwd = join(repo, "apps/web");
    expect(discoverSources({ cwd, projectRoot: repo, userDir: join(base, ".clew"), managedDirs: ["/etc/clew"], addDirs: ["../../../shared"] })).toEqual([
      folder("managed", "/etc/clew/.clew"),
      folder("managed", "/etc/clew/.claude"),
      folder("user", join(base, ".clew")),
      folder("project", join(cwd, ".clew")),
      folder("project", join(cwd, ".claude")),
      folder("project", join(repo, "apps/.clew")),
      folder("project", join(repo, "apps/.claude")),
      folder("project", join(repo, ".clew")),
      folder("project", join(repo, ".claude")),
      folder("add-dir", join(base, "shared/.clew")),
      folder("add-dir", join(base, "shared/.claude")),
    ]);
  });

  test("without a repository root only the working directory is searched; the user folder is never also a project folder", () => {
    const home = tempDir();
    expect(discoverSources({ cwd: home, userDir: join(home, ".clew") })).toEqual([folder("user", join(home, ".clew")), folder("project", join(home, ".claude"))]);
  });

  test("a repository root that is not above the working directory is ignored", () => {
    const base = tempDir();
    const sources = discoverSources({ cwd: join(base, "a"), projectRoot: join(base, "b"), userDir: join(base, "u") });
    expect(sources.filter((source) => source.scope === "project").map((source) => source.root)).toEqual([join(base, "a/.clew"), join(base, "a/.claude")]);
  });
});

describe("nestedSources", () => {
  test("existing .clew/.claude folders between the working directory and a touched file, outermost first, skills and commands only", () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, "apps/.claude"), { recursive: true });
    mkdirSync(join(cwd, "apps/web/.clew"), { recursive: true });
    mkdirSync(join(cwd, "apps/web/src"), { recursive: true });
    writeFileSync(join(cwd, "apps/web/src/main.ts"), "");
    expect(nestedSources(cwd, "apps/web/src/main.ts")).toEqual([
      { ...folder("nested", join(cwd, "apps/.claude"), false), qualifier: "apps" },
      { ...folder("nested", join(cwd, "apps/web/.clew"), false), qualifier: "apps/web" },
    ]);
    expect(nestedSources(cwd, join(cwd, "README.md"))).toEqual([]);
    expect(nestedSources(cwd, "/etc/passwd")).toEqual([]);
  });
});

describe("pluginSource", () => {
  test("default folders; manifest skills add to skills/, commands and agents replace theirs", () => {
    const root = tempDir();
    expect(pluginSource({ root, name: "acme" })).toEqual({ scope: "plugin", namespace: "acme", root, skills: [join(root, "skills")], commands: [join(root, "commands")], agents: [join(root, "agents")] });
    expect(pluginSource({ root, name: "acme", skills: ["./extra", "."], commands: ["./cmds/", "./one.md"], agents: ["./reviewers"], dataDir: "/data/acme" })).toEqual({
      scope: "plugin",
      namespace: "acme",
      root,
      skills: [join(root, "skills"), join(root, "extra"), root],
      commands: [join(root, "cmds"), join(root, "one.md")],
      agents: [join(root, "reviewers")],
      pluginData: "/data/acme",
    });
  });

  test("listed skills are the complete set for a marketplace-root entry", () => {
    const root = tempDir();
    expect(pluginSource({ root, name: "acme", skills: ["./skills/xlsx"], skillsReplaceDefault: true }).skills).toEqual([join(root, "skills/xlsx")]);
  });

  test("a root SKILL.md is the single skill only when there is no skills/ folder and no skills field", () => {
    const root = tempDir();
    writeFileSync(join(root, "SKILL.md"), "---\nname: scan\n---\n");
    expect(pluginSource({ root, name: "acme" }).skills).toEqual([root]);
    expect(pluginSource({ root, name: "acme", skills: ["./more"] }).skills).toEqual([join(root, "skills"), join(root, "more")]);
    mkdirSync(join(root, "skills"));
    expect(pluginSource({ root, name: "acme" }).skills).toEqual([join(root, "skills")]);
  });
});
