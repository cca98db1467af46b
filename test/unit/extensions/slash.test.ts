import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { loadExtensions } from "../../../src/extensions/load.ts";
import { parseSlashInvocation } from "../../../src/extensions/slash.ts";
import { discoverSources } from "../../../src/extensions/sources.ts";
import { md, tempDir, writeTree } from "./helpers.ts";

async function registry() {
  const root = tempDir();
  writeTree(root, {
    ".claude/skills/write-tests/SKILL.md": md(["description: tests"]),
    ".claude/skills/fix-issue/SKILL.md": md(["description: fixes"]),
    ".claude/skills/research/SKILL.md": md(["description: forked", "context: fork"]),
    ".claude/skills/hidden/SKILL.md": md(["description: model only", "user-invocable: false"]),
    ".claude/commands/a.md": "a", ".claude/commands/b.md": "b", ".claude/commands/c.md": "c",
    ".claude/commands/d.md": "d", ".claude/commands/e.md": "e", ".claude/commands/f.md": "f", ".claude/commands/g.md": "g",
  });
  return loadExtensions({ sources: discoverSources({ cwd: root, userDir: join(root, "u") }) });
}

const names = (result: ReturnType<typeof parseSlashInvocation>) => (result?.ok ? { items: result.items.map((item) => item.name), args: result.args } : result);

describe("parseSlashInvocation", () => {
  test("stacked skills share the arguments that follow them", async () => {
    const reg = await registry();
    expect(names(parseSlashInvocation("  /write-tests /fix-issue 123 now ", reg))).toEqual({ items: ["write-tests", "fix-issue"], args: "123 now" });
    expect(names(parseSlashInvocation("/fix-issue", reg))).toEqual({ items: ["fix-issue"], args: "" });
  });

  test("stacking stops at an unknown word, a forked skill, or after six", async () => {
    const reg = await registry();
    expect(names(parseSlashInvocation("/write-tests /unknown x", reg))).toEqual({ items: ["write-tests"], args: "/unknown x" });
    expect(names(parseSlashInvocation("/write-tests /research x", reg))).toEqual({ items: ["write-tests"], args: "/research x" });
    expect(names(parseSlashInvocation("/research /write-tests x", reg))).toEqual({ items: ["research"], args: "/write-tests x" });
    expect(names(parseSlashInvocation("/a /b /c /d /e /f /g", reg))).toEqual({ items: ["a", "b", "c", "d", "e", "f"], args: "/g" });
  });

  test("not a skill: undefined; a model-only skill typed by the user: refused", async () => {
    const reg = await registry();
    expect(parseSlashInvocation("/help", reg)).toBeUndefined();
    expect(parseSlashInvocation("fix it /write-tests", reg)).toBeUndefined();
    expect(parseSlashInvocation("/hidden", reg)).toEqual({ ok: false, code: "not-user-invocable", message: expect.stringContaining("/hidden can only be used by the model") });
  });
});
