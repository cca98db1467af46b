import { describe, expect, test } from "bun:test";
import { utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { globTool, type GlobData } from "../../../src/tools/glob.ts";
import { ToolError } from "../../../src/util/errors.ts";
import { git, writeFiles } from "../../helpers/files.ts";
import { runTool, tempDir, textOf, toolSession } from "../../helpers/tool-session.ts";

/** A git repository with root, nested and info/exclude ignore rules. */
function ignoredRepo(): string {
  const dir = tempDir("clew-glob-");
  git(dir, "init", "-q");
  writeFiles(dir, {
    ".gitignore": "*.log\n!keep.log\nbuild/\n",
    "sub/.gitignore": "*.tmp\n",
    "a.ts": "",
    "debug.log": "",
    "keep.log": "",
    "build/out.ts": "",
    "sub/scratch.tmp": "",
    "sub/inner/deep.ts": "",
    "secret.txt": "",
    ".hidden.ts": "",
    "src/b.ts": "",
  });
  writeFileSync(join(dir, ".git", "info", "exclude"), "secret.txt\n");
  return dir;
}

async function glob(input: Record<string, unknown>, dir: string) {
  const output = await runTool(globTool, input, toolSession(dir));
  return { output, text: textOf(output), data: output.data as GlobData };
}

async function globError(input: Record<string, unknown>, dir: string): Promise<ToolError> {
  const error = await runTool(globTool, input, toolSession(dir)).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof ToolError)) throw new Error(`expected a ToolError, got ${String(error)}`);
  return error;
}

describe("Glob", () => {
  test("skips .gitignore'd (root and nested, with negation) and info/exclude'd files and .git, newest first", async () => {
    const dir = ignoredRepo();
    const { output, data } = await glob({ pattern: "**/*" }, dir);
    const expected = ["src/b.ts", ".hidden.ts", "sub/inner/deep.ts", "keep.log", "a.ts", "sub/.gitignore", ".gitignore"].map((path) => join(dir, path));
    expect(output.content).toBe(expected.join("\n"));
    expect(output.display).toEqual({ summary: "Found 7 files" });
    expect(data).toEqual({ filenames: expected, numFiles: 7, truncated: false, durationMs: data.durationMs });
    expect(data.durationMs).toBeGreaterThanOrEqual(0);
  });

  test("orders by modification time, newest first, whatever the names", async () => {
    const dir = tempDir("clew-glob-");
    writeFiles(dir, { "c.ts": "", "a.ts": "", "b.ts": "" });
    const now = Date.now() / 1000;
    utimesSync(join(dir, "a.ts"), now, now);
    utimesSync(join(dir, "c.ts"), now - 100, now - 100);
    utimesSync(join(dir, "b.ts"), now - 50, now - 50);
    const { text } = await glob({ pattern: "*.ts" }, dir);
    expect(text).toBe(["a.ts", "b.ts", "c.ts"].map((name) => join(dir, name)).join("\n"));
  });

  test("matches Bun.Glob patterns relative to the search path", async () => {
    const dir = tempDir("clew-glob-");
    writeFiles(dir, { "top.ts": "", "src/a.ts": "", "src/a.tsx": "", "src/deep/b.ts": "", "src/c.js": "" });
    expect((await glob({ pattern: "*.ts" }, dir)).text).toBe(join(dir, "top.ts"));
    expect((await glob({ pattern: "src/*.ts" }, dir)).text).toBe(join(dir, "src/a.ts"));
    expect((await glob({ pattern: "**/*.{ts,tsx}", path: "src" }, dir)).data.filenames).toEqual(
      ["src/deep/b.ts", "src/a.tsx", "src/a.ts"].map((path) => join(dir, path)),
    );
    expect((await glob({ pattern: `${dir}/src/**/b.ts` }, tempDir())).text).toBe(join(dir, "src/deep/b.ts"));
  });

  test("caps results at 100 with a truncation note", async () => {
    const dir = tempDir("clew-glob-");
    const files: Record<string, string> = {};
    for (let i = 0; i < 105; i++) files[`f${String(i).padStart(3, "0")}.txt`] = "";
    writeFiles(dir, files);
    const { text, data } = await glob({ pattern: "*.txt" }, dir);
    const lines = text.split("\n");
    expect(lines).toHaveLength(101);
    expect(lines[0]).toBe(join(dir, "f104.txt"));
    expect(lines[99]).toBe(join(dir, "f005.txt"));
    expect(lines[100]).toBe("(Results are truncated. Consider using a more specific path or pattern.)");
    expect(data.numFiles).toBe(100);
    expect(data.truncated).toBe(true);
  });

  test("reports no matches plainly", async () => {
    const dir = tempDir("clew-glob-");
    writeFiles(dir, { "a.ts": "" });
    const { output, data } = await glob({ pattern: "**/*.py" }, dir);
    expect(output.content).toBe("No files found");
    expect(output.display).toEqual({ summary: "Found 0 files" });
    expect(data).toMatchObject({ filenames: [], numFiles: 0, truncated: false });
  });

  test("searches inside an ignored directory when it is named explicitly, but never inside .git", async () => {
    const dir = ignoredRepo();
    expect((await glob({ pattern: "*.ts", path: "build" }, dir)).text).toBe(join(dir, "build/out.ts"));
    expect((await glob({ pattern: ".git/**" }, dir)).text).toBe("No files found");
  });

  test("ignores .gitignore outside a git repository, as ripgrep does, but honours .ignore", async () => {
    const dir = tempDir("clew-glob-");
    writeFiles(dir, { ".gitignore": "*.log\n", ".ignore": "*.tmp\n", "a.log": "", "b.tmp": "" });
    expect((await glob({ pattern: "*.{log,tmp}" }, dir)).text).toBe(join(dir, "a.log"));
  });

  test("resolves a relative path against cwd; a missing or non-directory path is a ToolError", async () => {
    const dir = tempDir("clew-glob-");
    writeFiles(dir, { "pkg/a.ts": "", "file.txt": "" });
    expect((await glob({ pattern: "*.ts", path: "pkg" }, dir)).text).toBe(join(dir, "pkg/a.ts"));
    const missing = await globError({ pattern: "*", path: "nope" }, dir);
    expect(missing.code).toBe("tool_input");
    expect(missing.message).toContain(join(dir, "nope"));
    expect((await globError({ pattern: "*", path: "file.txt" }, dir)).code).toBe("tool_input");
  });

  test("subject is the resolved search directory", () => {
    const dir = tempDir("clew-glob-");
    const session = toolSession(dir);
    expect(globTool.subject(globTool.input.parse({ pattern: "*" }), session)).toBe(dir);
    expect(globTool.subject(globTool.input.parse({ pattern: "*", path: "src" }), session)).toBe(join(dir, "src"));
  });
});

describe("Glob and Read deny rules", () => {
  test("files a Read deny rule covers are not listed", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, ".env"), "SECRET=1\n");
    writeFileSync(join(dir, "a.ts"), "x\n");
    const session = toolSession(dir, { readDenied: (path) => path === join(dir, ".env") });
    const text = textOf(await runTool(globTool, { pattern: "**/*" }, session));
    expect(text).toContain(join(dir, "a.ts"));
    expect(text).not.toContain(".env");
  });
});
