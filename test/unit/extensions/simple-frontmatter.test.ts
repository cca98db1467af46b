// The YAML-free fast path for plain `key: value` frontmatter, checked against gray-matter on
// every frontmatter block of the shared corpus (thousands of real files): whenever the fast path
// answers, its answer equals gray-matter's; when it cannot be sure, it declines.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import matter from "gray-matter";
import { simpleFrontmatter, splitFrontmatter } from "../../../src/extensions/frontmatter.ts";
import { sharedDir } from "../../helpers/shared-dir.ts";

const CORPUS = join(sharedDir(), "corpus/marketplaces");

function blocks(): Array<{ file: string; block: string }> {
  const out: Array<{ file: string; block: string }> = [];
  for (const file of new Bun.Glob("**/*.md").scanSync({ cwd: CORPUS, dot: true })) {
    const split = splitFrontmatter(readFileSync(join(CORPUS, file), "utf8"));
    if (split.block !== undefined) out.push({ file, block: split.block });
  }
  return out;
}

function yamlData(block: string): unknown {
  try {
    return matter(block, { engines: {} } as never).data;
  } catch {
    return "yaml-error";
  }
}

describe("simpleFrontmatter", () => {
  test("agrees with gray-matter on every corpus block it answers for, and answers for most", () => {
    const all = blocks();
    expect(all.length).toBeGreaterThan(1000);
    let answered = 0;
    const disagreements: string[] = [];
    for (const { file, block } of all) {
      const fast = simpleFrontmatter(block);
      if (fast === undefined) continue;
      answered += 1;
      if (JSON.stringify(fast) !== JSON.stringify(yamlData(block))) disagreements.push(file);
    }
    expect(disagreements).toEqual([]);
    expect(answered / all.length).toBeGreaterThan(0.3);
  });

  test("declines whatever YAML would read as something else", () => {
    for (const value of ["true", "no", "On", "42", "1.5", "-x", "[a, 'b']", "[a] [b]", "[a, [b]]", '"quoted"', "'q'", "a: b", "x #c", "~", "null", ".inf", "2024-01-01", "&anchor", "*ref", "!tag x", "|", ">"]) {
      expect(simpleFrontmatter(`---\nkey: ${value}\n---\n`)).toBeUndefined();
    }
    expect(simpleFrontmatter("---\nname: a\n  nested: b\n---\n")).toBeUndefined();
    expect(simpleFrontmatter("---\nname: a\nname: b\n---\n")).toBeUndefined();
    expect(simpleFrontmatter("---\nname:\n---\n")).toBeUndefined();
    expect(simpleFrontmatter("---\nargument-hint: [file, focus]\ntools: []\n---\n")).toEqual({ "argument-hint": ["file", "focus"], tools: [] });
    expect(simpleFrontmatter("---\nname: deploy\ndescription: Ship the app, then tell the team (staging first).\nallowed-tools: Read, Bash(git push *)\n---\n")).toEqual({
      name: "deploy",
      description: "Ship the app, then tell the team (staging first).",
      "allowed-tools": "Read, Bash(git push *)",
    });
  });
});
