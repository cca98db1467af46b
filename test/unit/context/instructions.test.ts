import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import {
  findRepoRoot,
  INSTRUCTIONS_INTRO,
  loadInstructions,
  nestedInstructionsFor,
  renderInstructions,
  type InstructionOptions,
} from "../../../src/context/instructions.ts";

function tempDir(prefix: string): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

function writeTree(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
}

function gitInit(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const result = Bun.spawnSync(["git", "init", "-q"], { cwd: dir, stdout: "ignore", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`git init failed: ${result.stderr.toString()}`);
}

/** A fake home with a clew config dir and a real git repository below it. */
function workspace(files: Record<string, string> = {}): { home: string; config: string; repo: string } {
  const home = tempDir("clew-instr-");
  const config = join(home, ".clew");
  const repo = join(home, "work", "repo");
  gitInit(repo);
  writeTree(home, files);
  return { home, config, repo };
}

function optionsFor(ws: { home: string; config: string; repo: string }, cwd = ws.repo): InstructionOptions {
  return { cwd, repoRoot: findRepoRoot(cwd), homeDir: ws.home, configDir: ws.config };
}

describe("findRepoRoot", () => {
  test("finds the nearest .git directory or file, else undefined", () => {
    const ws = workspace({ "work/repo/a/b/x.txt": "", "work/repo/wt/.git": "gitdir: elsewhere\n" });
    expect(findRepoRoot(join(ws.repo, "a", "b"))).toBe(ws.repo);
    expect(findRepoRoot(join(ws.repo, "wt"))).toBe(join(ws.repo, "wt"));
    expect(findRepoRoot(join(ws.home, "work"))).toBeUndefined();
  });
});

describe("loadInstructions", () => {
  test("user file first, then each directory root to cwd: AGENTS.md over CLAUDE.md, local variant last", async () => {
    const ws = workspace({
      ".clew/AGENTS.md": "user agents",
      ".clew/CLAUDE.md": "user claude",
      "work/repo/AGENTS.md": "root agents",
      "work/repo/CLAUDE.md": "root claude",
      "work/repo/CLAUDE.local.md": "root local",
      "work/repo/pkg/CLAUDE.md": "pkg claude",
      "work/repo/pkg/app/AGENTS.md": "app agents",
      "work/repo/pkg/app/AGENTS.local.md": "app agents local",
      "work/repo/pkg/app/CLAUDE.local.md": "app claude local",
      "work/AGENTS.md": "above the repository",
    });
    const result = await loadInstructions(optionsFor(ws, join(ws.repo, "pkg", "app")));
    expect(result.files).toEqual([
      { path: join(ws.config, "AGENTS.md"), label: "user", reason: "start", content: "user agents" },
      { path: join(ws.repo, "AGENTS.md"), label: "project", reason: "start", content: "root agents" },
      { path: join(ws.repo, "CLAUDE.local.md"), label: "local", reason: "start", content: "root local" },
      { path: join(ws.repo, "pkg", "CLAUDE.md"), label: "project", reason: "start", content: "pkg claude" },
      { path: join(ws.repo, "pkg", "app", "AGENTS.md"), label: "project", reason: "start", content: "app agents" },
      { path: join(ws.repo, "pkg", "app", "AGENTS.local.md"), label: "local", reason: "start", content: "app agents local" },
    ]);
    expect(result.problems).toEqual([]);
    expect(result.conditionalRules).toEqual([]);
  });

  test("user CLAUDE.md when there is no user AGENTS.md", async () => {
    const ws = workspace({ ".clew/CLAUDE.md": "user claude" });
    const result = await loadInstructions(optionsFor(ws));
    expect(result.files).toEqual([{ path: join(ws.config, "CLAUDE.md"), label: "user", reason: "start", content: "user claude" }]);
  });

  test("config-dir files and unconditional rules sit between the directory's own file and its local file", async () => {
    const ws = workspace({
      ".clew/rules/user-rule.md": "user rule",
      "work/repo/AGENTS.md": "main",
      "work/repo/.clew/AGENTS.md": "clew dir",
      "work/repo/.claude/CLAUDE.md": "claude dir",
      "work/repo/.claude/rules/a.md": "claude rule a",
      "work/repo/.clew/rules/a.md": "clew rule a",
      "work/repo/.claude/rules/sub/b.md": "claude rule b",
      "work/repo/.claude/rules/notes.txt": "not markdown",
      "work/repo/CLAUDE.local.md": "local",
    });
    const result = await loadInstructions(optionsFor(ws));
    expect(result.files.map((file) => [file.path, file.label, file.content])).toEqual([
      [join(ws.config, "rules", "user-rule.md"), "user", "user rule"],
      [join(ws.repo, "AGENTS.md"), "project", "main"],
      [join(ws.repo, ".clew", "AGENTS.md"), "project", "clew dir"],
      [join(ws.repo, ".clew", "rules", "a.md"), "project", "clew rule a"],
      [join(ws.repo, ".claude", "rules", "sub", "b.md"), "project", "claude rule b"],
      [join(ws.repo, "CLAUDE.local.md"), "local", "local"],
    ]);
  });

  test("outside a repository the walk starts at the filesystem root and skips the home's config dirs", async () => {
    const ws = workspace({
      "AGENTS.md": "home agents",
      ".claude/CLAUDE.md": "Claude Code's own user memory",
      ".claude/rules/r.md": "Claude Code's own user rule",
      "plain/sub/CLAUDE.md": "plain sub",
    });
    const cwd = join(ws.home, "plain", "sub");
    const result = await loadInstructions(optionsFor(ws, cwd));
    const ours = result.files.filter((file) => file.path.startsWith(ws.home));
    expect(ours.map((file) => file.path)).toEqual([join(ws.home, "AGENTS.md"), join(cwd, "CLAUDE.md")]);
  });

  test("imports: relative, ~/ and absolute, each after its importer", async () => {
    const ws = workspace({ "shared/abs.md": "absolute", "notes/home.md": "from home", "work/repo/docs/style.md": "style" });
    writeTree(ws.repo, {
      "AGENTS.md": `Read @docs/style.md and @~/notes/home.md.\nAlso @${join(ws.home, "shared", "abs.md")}\n`,
    });
    const result = await loadInstructions(optionsFor(ws));
    expect(result.files.slice(1)).toEqual([
      { path: join(ws.repo, "docs", "style.md"), label: "project", reason: "import", content: "style", parent: join(ws.repo, "AGENTS.md") },
      { path: join(ws.home, "notes", "home.md"), label: "project", reason: "import", content: "from home", parent: join(ws.repo, "AGENTS.md") },
      { path: join(ws.home, "shared", "abs.md"), label: "project", reason: "import", content: "absolute", parent: join(ws.repo, "AGENTS.md") },
    ]);
    expect(result.problems).toEqual([]);
  });

  test("imports stop after four hops, with a problem naming the file", async () => {
    const ws = workspace();
    writeTree(ws.repo, {
      "AGENTS.md": "@d1.md",
      "d1.md": "@d2.md",
      "d2.md": "@d3.md",
      "d3.md": "@d4.md",
      "d4.md": "@d5.md",
      "d5.md": "too deep",
    });
    const result = await loadInstructions(optionsFor(ws));
    expect(result.files.map((file) => file.path)).toEqual(["AGENTS.md", "d1.md", "d2.md", "d3.md", "d4.md"].map((name) => join(ws.repo, name)));
    expect(result.problems).toEqual([`${join(ws.repo, "d4.md")}: import @d5.md not followed, imports nest more than 4 levels deep`]);
  });

  test("an import cycle, or a file imported twice, yields each file once", async () => {
    const ws = workspace();
    writeTree(ws.repo, { "AGENTS.md": "@a.md @b.md", "a.md": "@b.md @AGENTS.md", "b.md": "@a.md\n@./a.md" });
    const result = await loadInstructions(optionsFor(ws));
    expect(result.files.map((file) => [file.path, file.parent])).toEqual([
      [join(ws.repo, "AGENTS.md"), undefined],
      [join(ws.repo, "a.md"), join(ws.repo, "AGENTS.md")],
      [join(ws.repo, "b.md"), join(ws.repo, "a.md")],
    ]);
    expect(result.problems).toEqual([]);
  });

  test("a missing import is a problem and stays in the text", async () => {
    const ws = workspace({ "work/repo/AGENTS.md": "See @missing.md for details." });
    const result = await loadInstructions(optionsFor(ws));
    expect(result.files).toEqual([{ path: join(ws.repo, "AGENTS.md"), label: "project", reason: "start", content: "See @missing.md for details." }]);
    expect(result.problems).toEqual([
      `${join(ws.repo, "AGENTS.md")}: import @missing.md not found (no file at ${join(ws.repo, "missing.md")})`,
    ]);
  });

  test("references in code fences, inline code, e-mail addresses and comments are not imports", async () => {
    const ws = workspace();
    writeTree(ws.repo, {
      "AGENTS.md": [
        "```sh",
        "@fenced.md",
        "```",
        "~~~",
        "@tilde.md",
        "~~~",
        "Run `npm i @inline.md` or ``@double.md`` — mail me@real.md",
        "<!-- @commented.md -->",
        "Real: @real.md",
      ].join("\n"),
      "fenced.md": "x",
      "tilde.md": "x",
      "inline.md": "x",
      "double.md": "x",
      "commented.md": "x",
      "real.md": "real",
    });
    const result = await loadInstructions(optionsFor(ws));
    expect(result.files.map((file) => file.path)).toEqual([join(ws.repo, "AGENTS.md"), join(ws.repo, "real.md")]);
    expect(result.problems).toEqual([]);
  });

  test("block-level HTML comments are stripped, but not inside code blocks or mid-line", async () => {
    const ws = workspace();
    writeTree(ws.repo, {
      "AGENTS.md": [
        "# Rules",
        "<!-- a note for humans -->",
        "keep this",
        "<!--",
        "multi-line note",
        "```",
        "-->",
        "text with <!-- inline --> comment",
        "```html",
        "<!-- kept in code -->",
        "```",
        "<!-- gone --> but this stays",
      ].join("\n"),
    });
    const result = await loadInstructions(optionsFor(ws));
    expect(result.files[0]?.content).toBe(
      ["# Rules", "keep this", "text with <!-- inline --> comment", "```html", "<!-- kept in code -->", "```", " but this stays"].join("\n"),
    );
  });

  test("excluded files count as absent, so the next candidate loads", async () => {
    const ws = workspace({
      "work/repo/AGENTS.md": "agents",
      "work/repo/CLAUDE.md": "claude",
      "work/repo/pkg/AGENTS.md": "pkg",
      "work/repo/pkg/CLAUDE.local.md": "pkg local",
      "work/repo/lib.md": "imported",
    });
    writeTree(ws.repo, { "CLAUDE.md": "claude @lib.md" });
    const options = { ...optionsFor(ws, join(ws.repo, "pkg")), excludes: [join(ws.repo, "AGENTS.md"), "**/pkg/**", "**/lib.md"] };
    const result = await loadInstructions(options);
    expect(result.files.map((file) => [file.path, file.content])).toEqual([[join(ws.repo, "CLAUDE.md"), "claude @lib.md"]]);
    expect(result.problems).toEqual([]);
  });

  test("a symlinked instruction file loads once", async () => {
    const ws = workspace({ "work/repo/AGENTS.md": "shared text", "work/repo/pkg/.keep": "" });
    symlinkSync(join(ws.repo, "AGENTS.md"), join(ws.repo, "pkg", "AGENTS.md"));
    const result = await loadInstructions(optionsFor(ws, join(ws.repo, "pkg")));
    expect(result.files.map((file) => file.path)).toEqual([join(ws.repo, "AGENTS.md")]);
  });

  test("files over 4 MiB are skipped with a problem", async () => {
    const ws = workspace({ "work/repo/AGENTS.md": "x".repeat(4 * 1024 * 1024 + 1) });
    const result = await loadInstructions(optionsFor(ws));
    expect(result.files).toEqual([]);
    expect(result.problems).toEqual([`${join(ws.repo, "AGENTS.md")}: skipped, larger than 4 MiB (4194305 bytes)`]);
  });

  test("project imports outside the project are skipped when not approved", async () => {
    const ws = workspace({ "outside.md": "outside", "work/repo/inside.md": "inside", "work/repo/AGENTS.md": "@~/outside.md @inside.md" });
    const result = await loadInstructions({ ...optionsFor(ws), allowExternalImports: false });
    expect(result.files.map((file) => file.path)).toEqual([join(ws.repo, "AGENTS.md"), join(ws.repo, "inside.md")]);
    expect(result.problems).toEqual([
      `${join(ws.repo, "AGENTS.md")}: import @~/outside.md not followed, it is outside the project and external imports are not approved`,
    ]);
  });
});

describe("rules with frontmatter", () => {
  test("rules with paths: wait for a matching read; a malformed or non-YAML frontmatter is a problem", async () => {
    const ws = workspace();
    writeTree(ws.repo, {
      ".claude/rules/ts.md": '---\npaths:\n  - "src/**/*.ts"\n---\nTypeScript rule',
      ".claude/rules/web.md": '---\npaths: "web/*.{js,jsx}, docs/*.md"\n---\nWeb rule',
      ".claude/rules/always.md": "---\ndescription: no paths here\n---\nAlways rule",
      ".claude/rules/broken.md": "---\npaths: [unclosed\n---\nBroken",
      ".claude/rules/evil.md": "---js\n{ paths: (globalThis.pwned = true, ['**']) }\n---\nEvil",
      ".claude/rules/wrong.md": "---\npaths: 42\n---\nWrong",
    });
    const result = await loadInstructions(optionsFor(ws));
    expect(result.files).toEqual([
      { path: join(ws.repo, ".claude", "rules", "always.md"), label: "project", reason: "start", content: "Always rule" },
    ]);
    expect(result.conditionalRules).toEqual([
      {
        path: join(ws.repo, ".claude", "rules", "ts.md"),
        label: "project",
        base: ws.repo,
        globs: ["src/**/*.ts"],
        patterns: ["src/**/*.ts"],
        content: "TypeScript rule",
      },
      {
        path: join(ws.repo, ".claude", "rules", "web.md"),
        label: "project",
        base: ws.repo,
        globs: ["web/*.{js,jsx}", "docs/*.md"],
        patterns: ["web/*.js", "web/*.jsx", "docs/*.md"],
        content: "Web rule",
      },
    ]);
    expect((globalThis as Record<string, unknown>).pwned).toBeUndefined();
    expect(result.problems.map((problem) => problem.split(":")[0])).toEqual(
      ["broken.md", "evil.md", "wrong.md"].map((name) => join(ws.repo, ".claude", "rules", name)),
    );

    const nested = { ...optionsFor(ws), conditionalRules: result.conditionalRules, alreadyLoaded: result.loaded };
    expect((await nestedInstructionsFor("README.md", nested)).files).toEqual([]);
    expect((await nestedInstructionsFor(join(ws.repo, "src", "deep", "a.ts"), nested)).files).toEqual([
      {
        path: join(ws.repo, ".claude", "rules", "ts.md"),
        label: "project",
        reason: "rule",
        content: "TypeScript rule",
        globs: ["src/**/*.ts"],
      },
    ]);
    expect((await nestedInstructionsFor("src/b.ts", nested)).files).toEqual([]);
    expect((await nestedInstructionsFor("web/app.jsx", nested)).files.map((file) => file.path)).toEqual([
      join(ws.repo, ".claude", "rules", "web.md"),
    ]);
  });

  test("a paths: list expanding past 1,000 patterns is cut with a problem", async () => {
    const ws = workspace();
    const digits = "{0,1,2,3,4,5,6,7,8,9}";
    writeTree(ws.repo, { ".clew/rules/big.md": `---\npaths: "${digits}${digits}${digits}/x, y"\n---\nBig` });
    const result = await loadInstructions(optionsFor(ws));
    expect(result.conditionalRules[0]?.patterns.length).toBe(1000);
    expect(result.problems).toEqual([
      `${join(ws.repo, ".clew", "rules", "big.md")}: "paths" expands to more than 1000 patterns; the rest are ignored`,
    ]);
  });
});

describe("nestedInstructionsFor", () => {
  test("a read deep in a subtree brings the intermediate directories' files once", async () => {
    const ws = workspace({
      "work/repo/AGENTS.md": "root",
      "work/repo/pkg/CLAUDE.md": "pkg @pkg-notes.md",
      "work/repo/pkg/pkg-notes.md": "pkg notes",
      "work/repo/pkg/lib/AGENTS.md": "lib",
      "work/repo/pkg/lib/CLAUDE.md": "lib claude (shadowed)",
      "work/repo/pkg/lib/AGENTS.local.md": "lib local",
      "work/repo/pkg/lib/deep/file.ts": "",
      "work/repo/other/AGENTS.md": "other",
    });
    const options = optionsFor(ws);
    const start = await loadInstructions(options);
    const nested = { ...options, conditionalRules: start.conditionalRules, alreadyLoaded: start.loaded };
    const first = await nestedInstructionsFor(join(ws.repo, "pkg", "lib", "deep", "file.ts"), nested);
    expect(first).toEqual({
      files: [
        { path: join(ws.repo, "pkg", "CLAUDE.md"), label: "project", reason: "nested", content: "pkg @pkg-notes.md" },
        { path: join(ws.repo, "pkg", "pkg-notes.md"), label: "project", reason: "import", content: "pkg notes", parent: join(ws.repo, "pkg", "CLAUDE.md") },
        { path: join(ws.repo, "pkg", "lib", "AGENTS.md"), label: "project", reason: "nested", content: "lib" },
        { path: join(ws.repo, "pkg", "lib", "AGENTS.local.md"), label: "local", reason: "nested", content: "lib local" },
      ],
      problems: [],
    });
    expect(await nestedInstructionsFor("pkg/lib/deep/file.ts", nested)).toEqual({ files: [], problems: [] });
    expect(await nestedInstructionsFor("pkg/lib/other.ts", nested)).toEqual({ files: [], problems: [] });
    expect(await nestedInstructionsFor("top-level.ts", nested)).toEqual({ files: [], problems: [] });
    expect(await nestedInstructionsFor(join(ws.home, "elsewhere", "x.ts"), nested)).toEqual({ files: [], problems: [] });
    expect((await nestedInstructionsFor("other/x.ts", nested)).files.map((file) => file.content)).toEqual(["other"]);
  });
});

describe("renderInstructions", () => {
  test("one block: the override sentence, then each file with its label; same files, same bytes", async () => {
    const ws = workspace({
      ".clew/AGENTS.md": "Be brief.\n",
      "work/repo/AGENTS.md": "\nUse bun.\n\n",
      "work/repo/empty/AGENTS.md": "<!-- only a comment -->\n",
      "work/repo/empty/AGENTS.local.md": "My setup.",
    });
    const options = optionsFor(ws, join(ws.repo, "empty"));
    const text = renderInstructions((await loadInstructions(options)).files);
    expect(text).toBe(
      [
        INSTRUCTIONS_INTRO,
        `Contents of ${join(ws.config, "AGENTS.md")} (user's private global instructions for all projects):\n\nBe brief.`,
        `Contents of ${join(ws.repo, "AGENTS.md")} (project instructions, checked into the codebase):\n\nUse bun.`,
        `Contents of ${join(ws.repo, "empty", "AGENTS.local.md")} (user's private project instructions, not checked in):\n\nMy setup.`,
      ].join("\n\n"),
    );
    expect(renderInstructions((await loadInstructions(options)).files)).toBe(text);
    expect(renderInstructions([])).toBe("");
  });
});
