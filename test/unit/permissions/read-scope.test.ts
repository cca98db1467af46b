// Whether a tree read recursively can reach a Read-denied file, on real directories: denied
// paths inside the tree, the tree inside a denied directory, glob rules searched for, links
// followed only by commands that follow them, and trees too large to check.
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathForms } from "../../../src/permissions/path-rules.ts";
import { deniedReads, treeReach } from "../../../src/permissions/read-scope.ts";
import { contextFor, makeProject, rulesFor, type Project } from "./fixture.ts";

let project: Project;
beforeAll(() => {
  project = makeProject();
  const at = (path: string) => join(project.cwd, path);
  for (const dir of ["src/deep", "secrets/inner", "clean", "links", "big", "pkg/a"]) mkdirSync(at(dir), { recursive: true });
  writeFileSync(at(".env"), "x\n");
  writeFileSync(at("src/deep/.env.local"), "x\n");
  writeFileSync(at("secrets/inner/key"), "x\n");
  writeFileSync(at("clean/a.txt"), "x\n");
  symlinkSync(at(".env"), at("links/to-env"));
  symlinkSync(at("secrets"), at("links/to-secrets"));
  for (let i = 0; i < 50_050; i++) writeFileSync(at(`big/f${i}`), "");
});

function reach(deny: string[], tree: string, follow = false): string | undefined {
  const context = contextFor(project);
  const denied = deniedReads(rulesFor({ deny }, project.cwd).deny, context);
  const found = treeReach(pathForms(tree, context), follow, denied, context);
  if (!found) return undefined;
  return `${found.rule.text} ${"tooLarge" in found ? "too large" : found.path.replace(`${project.cwd}/`, "")}`;
}

describe("treeReach", () => {
  // `/x` is anchored at the rule's settings root (here the project): one literal path.
  test("a literal denied path inside the tree, and only if it exists", () => {
    expect(reach(["Read(/.env)"], ".")).toBe("Read(/.env) .env");
    expect(reach(["Read(/.env)"], "src")).toBeUndefined();
    expect(reach(["Read(/clean/missing.txt)"], ".")).toBeUndefined();
  });

  test("the tree inside a denied directory, or a denied directory inside the tree", () => {
    expect(reach(["Read(/secrets/**)"], "secrets/inner")).toBe("Read(/secrets/**) secrets/inner");
    expect(reach(["Read(/secrets/**)"], ".")).toBe("Read(/secrets/**) secrets/inner");
  });

  test("rules that match at any depth are searched for under the tree", () => {
    expect(reach(["Read(.env.local)"], "src")).toBe("Read(.env.local) src/deep/.env.local");
    expect(reach(["Read(**/.env.local)"], "src/deep")).toBe("Read(**/.env.local) src/deep/.env.local");
    expect(reach(["Read(.env.local)"], "clean")).toBeUndefined();
    expect(reach(["Read(~/.ssh/**)"], ".")).toBeUndefined();
  });

  test("symlinks in the tree lead on only for commands that follow them", () => {
    expect(reach(["Read(/.env)"], "links")).toBeUndefined();
    expect(reach(["Read(/.env)"], "links", true)).toBe("Read(/.env) .env");
    expect(reach(["Read(/secrets/**)"], "links", true)).toBe("Read(/secrets/**) secrets/inner");
    // The tree itself given as a link is resolved whether or not the command follows links.
    expect(reach(["Read(/secrets/**)"], "links/to-secrets")).toBe("Read(/secrets/**) secrets/inner");
  });

  test("a tree too large to search counts as reaching a denied file", () => {
    expect(reach(["Read(**/.env.local)"], "big")).toBe("Read(**/.env.local) too large");
    expect(reach(["Read(/.env)"], "big")).toBeUndefined();
  });
});
