import { describe, expect, test } from "bun:test";
import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { editTool } from "../../../src/tools/edit.ts";
import { readTool } from "../../../src/tools/read.ts";
import type { ToolSession } from "../../../src/tools/types.ts";
import { ToolError } from "../../../src/util/errors.ts";
import { runTool, tempDir, textOf, toolSession } from "../../helpers/tool-session.ts";

async function editError(input: unknown, session: ToolSession): Promise<ToolError> {
  const error = await runTool(editTool, input, session).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof ToolError)) throw new Error(`expected a ToolError, got ${String(error)}`);
  expect(error.code).toBe("tool_failed");
  return error;
}

/** A file with `content` that the session has already read. */
async function readFixture(content: string | Buffer, name = "file.ts"): Promise<{ dir: string; file: string; session: ToolSession }> {
  const dir = tempDir();
  const file = join(dir, name);
  writeFileSync(file, content);
  const session = toolSession(dir);
  await runTool(readTool, { file_path: file }, session);
  return { dir, file, session };
}

describe("Edit", () => {
  test("replaces a unique string and reports a unified diff", async () => {
    const { file, session } = await readFixture("function greet() {\n  return 'hi';\n}\n");
    const output = await runTool(editTool, { file_path: file, old_string: "'hi'", new_string: "'hello'" }, session);
    expect(output).toEqual({
      content: `The file ${file} has been updated successfully.`,
      display: {
        summary: `Edited ${file} (+1 -1)`,
        diff: [`--- a${file}`, `+++ b${file}`, "@@ -1,3 +1,3 @@", " function greet() {", "-  return 'hi';", "+  return 'hello';", " }"].join(
          "\n",
        ),
      },
      data: { filePath: file, oldString: "'hi'", newString: "'hello'", replaceAll: false },
    });
    expect(readFileSync(file, "utf8")).toBe("function greet() {\n  return 'hello';\n}\n");
    const info = statSync(file);
    expect(session.files.lastSeen(file)).toEqual({ mtimeMs: info.mtimeMs, size: info.size });
  });

  test("consecutive edits need no Read in between", async () => {
    const { file, session } = await readFixture("a = 1\nb = 2\n");
    await runTool(editTool, { file_path: file, old_string: "a = 1", new_string: "a = 10" }, session);
    await runTool(editTool, { file_path: file, old_string: "b = 2", new_string: "b = 20" }, session);
    expect(readFileSync(file, "utf8")).toBe("a = 10\nb = 20\n");
  });

  test("refuses a file that was never read", async () => {
    const dir = tempDir();
    const file = join(dir, "unread.ts");
    writeFileSync(file, "x\n");
    const error = await editError({ file_path: file, old_string: "x", new_string: "y" }, toolSession(dir));
    expect(error.message).toBe(`File has not been read yet. Read it first before editing it: ${file}`);
    expect(readFileSync(file, "utf8")).toBe("x\n");
  });

  test("refuses a file changed on disk since it was read and writes nothing", async () => {
    const { file, session } = await readFixture("let value = 1;\n");
    writeFileSync(file, "let value = 2; // user edit\n");
    const error = await editError({ file_path: file, old_string: "let value", new_string: "const value" }, session);
    expect(error.message).toContain(`File ${file} has been modified since it was read`);
    expect(error.message).toContain("Read it again before editing it");
    expect(readFileSync(file, "utf8")).toBe("let value = 2; // user edit\n");
  });

  test("a string that is not in the file is an error telling the model to copy it exactly", async () => {
    const { file, session } = await readFixture("  indented();\n");
    const error = await editError({ file_path: file, old_string: "indented();\n  more", new_string: "x" }, session);
    expect(error.message).toContain(`String to replace not found in ${file}`);
    expect(error.message).toContain("including whitespace and indentation");
    expect(readFileSync(file, "utf8")).toBe("  indented();\n");
  });

  test("an ambiguous string is an error giving the count, unless replace_all is set", async () => {
    const { file, session } = await readFixture("foo();\nfoo();\nbar();\nfoo();\n");
    const error = await editError({ file_path: file, old_string: "foo()", new_string: "baz()" }, session);
    expect(error.message).toContain(`Found 3 matches of old_string in ${file}`);
    expect(error.message).toContain("replace_all");
    expect(readFileSync(file, "utf8")).toBe("foo();\nfoo();\nbar();\nfoo();\n");

    const output = await runTool(editTool, { file_path: file, old_string: "foo()", new_string: "baz()", replace_all: true }, session);
    expect(textOf(output)).toBe(`The file ${file} has been updated successfully (3 occurrences replaced).`);
    expect(output.data).toEqual({ filePath: file, oldString: "foo()", newString: "baz()", replaceAll: true });
    expect(readFileSync(file, "utf8")).toBe("baz();\nbaz();\nbar();\nbaz();\n");
  });

  test("inserts $ patterns in new_string literally", async () => {
    const { file, session } = await readFixture("price = X;\ntotal = X + X;\n");
    await runTool(editTool, { file_path: file, old_string: "price = X", new_string: "price = $&$1$$'" }, session);
    await runTool(editTool, { file_path: file, old_string: "X", new_string: "$`$&", replace_all: true }, session);
    expect(readFileSync(file, "utf8")).toBe("price = $&$1$$';\ntotal = $`$& + $`$&;\n");
  });

  test("identical old_string and new_string is an error", async () => {
    const { file, session } = await readFixture("same\n");
    const error = await editError({ file_path: file, old_string: "same", new_string: "same" }, session);
    expect(error.message).toContain("old_string and new_string are exactly the same");
  });

  test("keeps CRLF line endings when the model sends LF", async () => {
    const { file, session } = await readFixture("one\r\ntwo\r\nthree\r\n");
    await runTool(editTool, { file_path: file, old_string: "one\ntwo", new_string: "one\ninserted\ntwo" }, session);
    expect(readFileSync(file, "utf8")).toBe("one\r\ninserted\r\ntwo\r\nthree\r\n");
  });

  test("text sent with CRLF still matches an LF file, and the file stays LF", async () => {
    const { file, session } = await readFixture("a\nb\n");
    await runTool(editTool, { file_path: file, old_string: "a\r\nb", new_string: "a\r\nx\r\nb" }, session);
    expect(readFileSync(file, "utf8")).toBe("a\nx\nb\n");
  });

  test("keeps the file's mode and a byte-order mark, and leaves no temp files", async () => {
    const { dir, file, session } = await readFixture("\uFEFF#!/bin/sh\necho old\n", "tool.sh");
    chmodSync(file, 0o755);
    await runTool(readTool, { file_path: file }, session);
    await runTool(editTool, { file_path: file, old_string: "echo old", new_string: "echo new" }, session);
    expect(statSync(file).mode & 0o7777).toBe(0o755);
    expect(readFileSync(file, "utf8")).toBe("\uFEFF#!/bin/sh\necho new\n");
    expect(readdirSync(dir)).toEqual(["tool.sh"]);
  });

  test("an empty old_string creates a missing file, like Claude Code", async () => {
    const dir = tempDir();
    const file = join(dir, "made", "new.md");
    const session = toolSession(dir);
    const output = await runTool(editTool, { file_path: file, old_string: "", new_string: "# Title\n" }, session);
    expect(output).toEqual({
      content: `File created successfully at: ${file}`,
      display: { summary: `Created ${file}` },
      data: { filePath: file, oldString: "", newString: "# Title\n", replaceAll: false },
    });
    expect(readFileSync(file, "utf8")).toBe("# Title\n");
    await runTool(editTool, { file_path: file, old_string: "Title", new_string: "Heading" }, session);
    expect(readFileSync(file, "utf8")).toBe("# Heading\n");
  });

  test("an empty old_string fills an existing empty file but refuses a non-empty one", async () => {
    const empty = await readFixture("");
    await runTool(editTool, { file_path: empty.file, old_string: "", new_string: "filled\n" }, empty.session);
    expect(readFileSync(empty.file, "utf8")).toBe("filled\n");

    const full = await readFixture("content\n");
    const error = await editError({ file_path: full.file, old_string: "", new_string: "other" }, full.session);
    expect(error.message).toContain(`Cannot create ${full.file}: it already exists and is not empty`);
    expect(readFileSync(full.file, "utf8")).toBe("content\n");
  });

  test("a missing file with a non-empty old_string is an error", async () => {
    const dir = tempDir();
    const error = await editError({ file_path: join(dir, "ghost.ts"), old_string: "a", new_string: "b" }, toolSession(dir));
    expect(error.message).toStartWith(`File does not exist: ${join(dir, "ghost.ts")}.`);
  });

  test("refuses a file that is not valid UTF-8 instead of corrupting it", async () => {
    const bytes = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]); // "café\n" in Latin-1
    const { file, session } = await readFixture(bytes, "latin1.txt");
    const error = await editError({ file_path: file, old_string: "caf", new_string: "bar" }, session);
    expect(error.message).toContain("is not valid UTF-8");
    expect(readFileSync(file)).toEqual(bytes);
  });

  test("the schema uses Claude Code's field names and replace_all is optional", () => {
    expect(editTool.input.parse({ file_path: "/x", old_string: "a", new_string: "b", replace_all: true })).toEqual({
      file_path: "/x",
      old_string: "a",
      new_string: "b",
      replace_all: true,
    });
    expect(z.toJSONSchema(editTool.input).required).toEqual(["file_path", "old_string", "new_string"]);
    expect(editTool.name).toBe("Edit");
    expect(editTool.access).toBe("write");
  });
});
