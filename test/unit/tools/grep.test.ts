import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { grepTool } from "../../../src/tools/grep.ts";
import type { GrepData } from "../../../src/tools/shared/grep-format.ts";
import { defaultToolLimits, type ToolOutput, type ToolSession } from "../../../src/tools/types.ts";
import { ToolError } from "../../../src/util/errors.ts";
import { git, writeFiles } from "../../helpers/files.ts";
import { runTool, tempDir, textOf, toolSession } from "../../helpers/tool-session.ts";

const RG = Bun.which("rg");

let dir = "";
/** PATH without rg forces the in-process backend; HOME is empty so no user git/rg config leaks in. */
let jsSession: ToolSession;
let rgSession: ToolSession;
const p = (rel: string): string => join(dir, rel);

beforeAll(() => {
  dir = tempDir("clew-grep-");
  git(dir, "init", "-q");
  writeFiles(dir, {
    ".gitignore": "*.log\n!keep.log\nbuild/\n",
    "sub/.gitignore": "*.tmp\n",
    "src/app.ts": "import { x } from './x';\nexport function Hello() {\n  return 'hello';\n}\n",
    "src/util.js": "// hello helper\nfunction helper() {}\nmodule.exports = { helper };\n",
    "docs/guide.md": "# Guide\nSay Hello to everyone.\n",
    "lib/data.py": "def hello():\n    pass\n",
    "debug.log": "hello from log\n",
    "keep.log": "hello kept\n",
    "build/out.js": "hello build\n",
    "sub/x.tmp": "hello tmp\n",
    "secret.txt": "hello secret\n",
    ".env.example": "HELLO=1\n",
    "bin.dat": "hello\0binary\n",
    "ctx.txt": "one\ntwo\nhello a\nthree\nfour\nfive\nsix\nhello b\nseven\nhello c\neight\n",
    "multi.ts": "interface A {\n  a: string;\n}\ninterface B {\n  b: number;\n}\n",
    "crlf.txt": "hello\r\nworld\r\n",
    "long.txt": `${"x".repeat(600)}needle\nshort needle\n`,
    "sub/ok.txt": "nested\n",
    "sub/inner.log": "nested\n",
    "vendor/lib/a.log": "nested\n",
    "src/mod.mjs": "esm\n",
  });
  writeFileSync(join(dir, ".git", "info", "exclude"), "secret.txt\n");
  // A nested repository: the outer .gitignore's `*.log` does not reach into it.
  git(join(dir, "vendor/lib"), "init", "-q");
  const home = tempDir("clew-grep-home-");
  jsSession = toolSession(dir, { env: { PATH: tempDir("clew-empty-path-"), HOME: home } });
  // No in-process shortcut for small trees: this session must run ripgrep every time.
  rgSession = toolSession(dir, { env: { PATH: process.env.PATH ?? "", HOME: home }, limits: { ...defaultToolLimits, grepInProcessMaxFiles: 0 } });
});

interface GrepCase {
  name: string;
  input: Record<string, unknown>;
  /** The exact model-facing text; checked against the in-process backend (and rg must agree). */
  expected?: () => string;
}

const CASES: GrepCase[] = [
  {
    name: "files_with_matches (default): ignored files skipped, newest first",
    input: { pattern: "hello" },
    expected: () => ["Found 6 files", ...["crlf.txt", "ctx.txt", "keep.log", "lib/data.py", "src/util.js", "src/app.ts"].map(p)].join("\n"),
  },
  {
    name: "-i",
    input: { pattern: "hello", "-i": true },
    expected: () =>
      ["Found 8 files", ...["crlf.txt", "ctx.txt", ".env.example", "keep.log", "lib/data.py", "docs/guide.md", "src/util.js", "src/app.ts"].map(p)].join("\n"),
  },
  {
    name: "content with line numbers; an including glob beats ignore files, like rg --glob",
    input: { pattern: "hello", output_mode: "content", glob: "*.txt" },
    expected: () =>
      [`${p("crlf.txt")}:1:hello\r`, `${p("ctx.txt")}:3:hello a`, `${p("ctx.txt")}:8:hello b`, `${p("ctx.txt")}:10:hello c`, `${p("secret.txt")}:1:hello secret`].join("\n"),
  },
  {
    name: "content without line numbers",
    input: { pattern: "hello [ab]", output_mode: "content", "-n": false },
    expected: () => [`${p("ctx.txt")}:hello a`, `${p("ctx.txt")}:hello b`].join("\n"),
  },
  {
    name: "-C: context lines use '-', groups are separated by '--'",
    input: { pattern: "hello", output_mode: "content", path: "ctx.txt", "-C": 1 },
    expected: () =>
      ["-2-two", ":3:hello a", "-4-three", "--", "-7-six", ":8:hello b", "-9-seven", ":10:hello c", "-11-eight"]
        .map((line) => (line === "--" ? line : `${p("ctx.txt")}${line}`))
        .join("\n"),
  },
  {
    name: "-A and -B, without line numbers",
    input: { pattern: "hello [bc]", output_mode: "content", path: "ctx.txt", "-A": 1, "-B": 2, "-n": false },
    expected: () => ["-five", "-six", ":hello b", "-seven", ":hello c", "-eight"].map((line) => `${p("ctx.txt")}${line}`).join("\n"),
  },
  {
    name: "context across files: '--' between files too",
    input: { pattern: "hello", output_mode: "content", glob: "*.{py,js}", "-A": 1 },
    expected: () => [`${p("lib/data.py")}:1:def hello():`, `${p("lib/data.py")}-2-    pass`, "--", `${p("src/util.js")}:1:// hello helper`, `${p("src/util.js")}-2-function helper() {}`].join("\n"),
  },
  {
    name: "glob with braces and commas; an excluding glob",
    input: { pattern: "hello", glob: "*.{ts,js} !src/app.ts" },
    expected: () => ["Found 1 file", p("src/util.js")].join("\n"),
  },
  { name: "type filter", input: { pattern: "hello", type: "py" }, expected: () => ["Found 1 file", p("lib/data.py")].join("\n") },
  { name: "type js includes .mjs, whatever the rg version's own table says", input: { pattern: "esm", type: "js" }, expected: () => `Found 1 file\n${p("src/mod.mjs")}` },
  { name: "type filter ts, case-insensitive", input: { pattern: "HELLO", type: "ts", "-i": true }, expected: () => ["Found 1 file", p("src/app.ts")].join("\n") },
  {
    name: "count: per-file counts in path order, plus a total",
    input: { pattern: "hello", output_mode: "count" },
    expected: () =>
      [...["crlf.txt:1", "ctx.txt:3", "keep.log:1", "lib/data.py:1", "src/app.ts:1", "src/util.js:1"].map(p), "", "Found 8 total occurrences across 6 files."].join("\n"),
  },
  {
    name: "multiline: every line of a match is printed",
    input: { pattern: "interface B \\{.*?\\}", output_mode: "content", multiline: true, "-B": 1 },
    expected: () => ["-3-}", ":4:interface B {", ":5:  b: number;", ":6:}"].map((line) => `${p("multi.ts")}${line}`).join("\n"),
  },
  {
    name: "multiline files_with_matches",
    input: { pattern: "string;\\n\\}", multiline: true },
    expected: () => ["Found 1 file", p("multi.ts")].join("\n"),
  },
  {
    name: "head_limit and offset page through content lines",
    input: { pattern: "hello|two", output_mode: "content", path: "ctx.txt", head_limit: 2, offset: 1 },
    expected: () =>
      `${p("ctx.txt")}:3:hello a\n${p("ctx.txt")}:8:hello b\n\n(Results truncated: showing lines 2-3 of 4. Use offset: 3 to see more, or narrow the search with a more specific pattern, path, glob or type.)`,
  },
  {
    name: "head_limit on files",
    input: { pattern: "hello", head_limit: 2 },
    expected: () =>
      `Found 6 files\n${p("crlf.txt")}\n${p("ctx.txt")}\n\n(Results truncated: showing files 1-2 of 6. Use offset: 2 to see more, or narrow the search with a more specific pattern, path, glob or type.)`,
  },
  {
    name: "head_limit on counts",
    input: { pattern: "hello", output_mode: "count", head_limit: 1, offset: 5 },
    expected: () =>
      `${p("src/util.js")}:1\n\nFound 8 total occurrences across 6 files.\n\n(Results truncated: showing entries 6-6 of 6. Or narrow the search with a more specific pattern, path, glob or type.)`,
  },
  { name: "a parent directory's .gitignore applies when searching a subdirectory", input: { pattern: "nested", path: "sub" }, expected: () => `Found 1 file\n${p("sub/ok.txt")}` },
  { name: "a nested repository starts with fresh ignore rules", input: { pattern: "nested" }, expected: () => `Found 2 files\n${p("vendor/lib/a.log")}\n${p("sub/ok.txt")}` },
  { name: "an explicitly named ignored file is searched", input: { pattern: "hello", path: "debug.log", output_mode: "count" }, expected: () => `${p("debug.log")}:1\n\nFound 1 total occurrence across 1 file.` },
  { name: "a directory inside an ignored one is searched when named", input: { pattern: "hello", path: "build" }, expected: () => `Found 1 file\n${p("build/out.js")}` },
  {
    name: "an explicitly named binary file gets ripgrep's notice",
    input: { pattern: "hello", path: "bin.dat", output_mode: "content" },
    expected: () => `${p("bin.dat")}: binary file matches (found "\\0" byte around offset 5)`,
  },
  {
    name: "long lines are cut at 500 characters",
    input: { pattern: "needle", path: "long.txt", output_mode: "content" },
    expected: () => `${p("long.txt")}:1:${"x".repeat(500)} [... omitted end of long line]\n${p("long.txt")}:2:short needle`,
  },
  {
    name: "Rust regex syntax: named groups, POSIX classes, word boundaries",
    input: { pattern: "(?P<word>[[:upper:]]ello)\\b", output_mode: "content" },
    expected: () => [`${p("docs/guide.md")}:2:Say Hello to everyone.`, `${p("src/app.ts")}:2:export function Hello() {`].join("\n"),
  },
  { name: "'.' matches a carriage return, '$' does not precede one", input: { pattern: "hello.$|world$", output_mode: "count", path: "crlf.txt" }, expected: () => `${p("crlf.txt")}:1\n\nFound 1 total occurrence across 1 file.` },
  { name: "no files", input: { pattern: "zzz_absent" }, expected: () => "No files found" },
  { name: "no content matches", input: { pattern: "zzz_absent", output_mode: "content" }, expected: () => "No matches found" },
  { name: "no counts", input: { pattern: "zzz_absent", output_mode: "count" }, expected: () => "No matches found" },
  { name: "unlimited content over the tree", input: { pattern: "e", output_mode: "content", head_limit: 0, "-C": 2 } },
];

async function outcome(session: ToolSession, input: Record<string, unknown>): Promise<ToolOutput | ToolError> {
  return runTool(grepTool, input, session).catch((error: unknown) => {
    if (error instanceof ToolError) return error;
    throw error;
  });
}

function asOutput(result: ToolOutput | ToolError): ToolOutput {
  if (result instanceof ToolError) throw new Error(`unexpected ToolError: ${result.message}`);
  return result;
}

describe("Grep (in-process backend)", () => {
  for (const { name, input, expected } of CASES) {
    test(name, async () => {
      const output = asOutput(await outcome(jsSession, input));
      if (expected) expect(textOf(output)).toBe(expected());
    });
  }

  test("data carries the mode, files and counts", async () => {
    const files = asOutput(await outcome(jsSession, { pattern: "hello", head_limit: 2 }));
    expect(files.data).toEqual({ mode: "files_with_matches", numFiles: 2, filenames: [p("crlf.txt"), p("ctx.txt")], appliedLimit: 2, appliedOffset: 0 });
    expect(files.display).toEqual({ summary: "Found 6 files" });
    const content = asOutput(await outcome(jsSession, { pattern: "hello [ab]", output_mode: "content" }));
    expect(content.data).toEqual({
      mode: "content",
      numFiles: 1,
      filenames: [p("ctx.txt")],
      content: `${p("ctx.txt")}:3:hello a\n${p("ctx.txt")}:8:hello b`,
      numLines: 2,
    });
    const count = asOutput(await outcome(jsSession, { pattern: "hello", output_mode: "count", path: "ctx.txt" }));
    expect(count.data).toEqual({ mode: "count", numFiles: 1, filenames: [p("ctx.txt")], numMatches: 3 });
    expect(count.display).toEqual({ summary: "Found 3 matches in 1 file" });
  });
});

describe.skipIf(!RG)("Grep: ripgrep backend gives the same output as the in-process one (skipped: rg not on PATH)", () => {
  for (const { name, input } of CASES) {
    test(name, async () => {
      const [fromRg, fromJs] = await Promise.all([outcome(rgSession, input), outcome(jsSession, input)]);
      expect(fromRg).toEqual(fromJs);
    });
  }
});

describe.skipIf(!RG)("Grep: which engine searches (skipped: rg not on PATH)", () => {
  /** A session whose `rg` is a wrapper that records each run, then runs the real ripgrep. */
  function recordingSession(maxFiles: number): { session: ToolSession; runs: () => number } {
    const bin = tempDir("clew-rg-wrapper-");
    const log = join(bin, "runs.log");
    writeFileSync(join(bin, "rg"), `#!/bin/sh\necho run >> '${log}'\nexec '${RG}' "$@"\n`, { mode: 0o755 });
    const session = toolSession(dir, {
      env: { PATH: `${bin}:${process.env.PATH ?? ""}`, HOME: tempDir("clew-grep-home-") },
      limits: { ...defaultToolLimits, grepInProcessMaxFiles: maxFiles },
    });
    return { session, runs: () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean).length : 0) };
  }

  test("a small tree and a pattern both engines read alike are searched in process", async () => {
    const { session, runs } = recordingSession(64);
    const output = asOutput(await outcome(session, { pattern: "hello|nested", output_mode: "count" }));
    expect(textOf(output)).toBe(textOf(asOutput(await outcome(rgSession, { pattern: "hello|nested", output_mode: "count" }))));
    expect(runs()).toBe(0);
  });

  test("patterns the engines read differently go to ripgrep, whatever the tree", async () => {
    const { session, runs } = recordingSession(64);
    for (const input of [{ pattern: "\\w+llo" }, { pattern: "[Hh]ello" }, { pattern: "hello", "-i": true }, { pattern: "(?i)hello" }, { pattern: "l{2}" }]) {
      await outcome(session, input);
    }
    expect(runs()).toBe(5);
  });

  test("a tree of many folders goes to ripgrep even when it holds few files", async () => {
    const { session, runs } = recordingSession(64);
    const wide = tempDir("clew-grep-wide-");
    writeFiles(wide, Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`skill-${i}/SKILL.md`, `hello ${i}\n`])));
    const output = asOutput(await outcome(session, { pattern: "hello", path: wide, output_mode: "count" }));
    expect(textOf(output).endsWith("Found 20 total occurrences across 20 files.")).toBe(true);
    expect(runs()).toBe(1);
  });

  test("a tree over the file budget goes to ripgrep, and stays with it for the rest of the session", async () => {
    const { session, runs } = recordingSession(3);
    const first = asOutput(await outcome(session, { pattern: "hello" }));
    expect(textOf(first)).toBe(textOf(asOutput(await outcome(rgSession, { pattern: "hello" }))));
    expect(runs()).toBe(1);
    await outcome(session, { pattern: "nested", path: "sub" });
    expect(runs()).toBe(2);
  });
});

describe("Grep errors", () => {
  const sessions = (): Array<[string, ToolSession]> => (RG ? [["js", jsSession], ["rg", rgSession]] : [["js", jsSession]]);

  async function grepError(session: ToolSession, input: Record<string, unknown>): Promise<ToolError> {
    const result = await outcome(session, input);
    if (!(result instanceof ToolError)) throw new Error(`expected a ToolError, got ${textOf(result)}`);
    return result;
  }

  test("an invalid regex is a ToolError quoting the pattern and the reason, in both backends", async () => {
    for (const [backend, session] of sessions()) {
      const error = await grepError(session, { pattern: "foo(bar" });
      expect({ backend, code: error.code }).toEqual({ backend, code: "tool_input" });
      expect(error.message).toContain('"foo(bar"');
      expect(error.message.length).toBeGreaterThan('Invalid regex pattern "foo(bar": '.length);
    }
  });

  test("an unknown file type is a ToolError in both backends", async () => {
    for (const [, session] of sessions()) expect((await grepError(session, { pattern: "x", type: "nosuchtype" })).code).toBe("tool_input");
  });

  test("a newline in the pattern without multiline is a ToolError", async () => {
    expect((await grepError(jsSession, { pattern: "a\\nb" })).code).toBe("tool_input");
    expect((await grepError(jsSession, { pattern: "a\nb" })).code).toBe("tool_input");
  });

  test("a missing path is a ToolError naming the resolved path", async () => {
    const error = await grepError(jsSession, { pattern: "x", path: "nope" });
    expect(error.code).toBe("tool_input");
    expect(error.message).toContain(p("nope"));
  });

  test("an aborted search stops with an 'aborted' error", async () => {
    const controller = new AbortController();
    controller.abort();
    for (const [, session] of sessions()) {
      const error = await runTool(grepTool, { pattern: "hello" }, session, controller.signal).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(ToolError);
      expect((error as ToolError).code).toBe("aborted");
    }
  });

  test("subject is the resolved search path", () => {
    expect(grepTool.subject(grepTool.input.parse({ pattern: "x" }), jsSession)).toBe(dir);
    expect(grepTool.subject(grepTool.input.parse({ pattern: "x", path: "src" }), jsSession)).toBe(p("src"));
  });
});

describe("Grep and Read deny rules", () => {
  test("files a Read deny rule covers are left out of every output mode", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, ".env"), "SECRET=token\n");
    writeFileSync(join(dir, "app.ts"), "const SECRET = process.env.SECRET;\n");
    const session = toolSession(dir, { readDenied: (path) => path === join(dir, ".env") });
    for (const output_mode of ["files_with_matches", "count", "content"] as const) {
      const text = textOf(await runTool(grepTool, { pattern: "SECRET", output_mode }, session));
      expect(text).toContain("app.ts");
      expect(text).not.toContain(join(dir, ".env"));
      expect(text).not.toContain("token");
    }
  });
});
