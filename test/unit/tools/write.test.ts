import { describe, expect, test } from "bun:test";
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readTool } from "../../../src/tools/read.ts";
import { writeTool } from "../../../src/tools/write.ts";
import type { ToolSession } from "../../../src/tools/types.ts";
import { ToolError } from "../../../src/util/errors.ts";
import { runTool, tempDir, textOf, toolSession } from "../../helpers/tool-session.ts";

async function writeError(input: unknown, session: ToolSession): Promise<ToolError> {
  const error = await runTool(writeTool, input, session).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof ToolError)) throw new Error(`expected a ToolError, got ${String(error)}`);
  expect(error.code).toBe("tool_failed");
  return error;
}

describe("Write", () => {
  test("creates a new file and its parent directories", async () => {
    const dir = tempDir();
    const file = join(dir, "deep", "er", "new.ts");
    const session = toolSession(dir);
    const output = await runTool(writeTool, { file_path: file, content: "one\ntwo\n" }, session);
    expect(output).toEqual({
      content: `File created successfully at: ${file}`,
      display: { summary: `Wrote 2 lines to ${file}` },
      data: { type: "create", filePath: file, content: "one\ntwo\n" },
    });
    expect(readFileSync(file, "utf8")).toBe("one\ntwo\n");
    const info = statSync(file);
    expect(session.files.lastSeen(file)).toEqual({ mtimeMs: info.mtimeMs, size: info.size });
    // New files get the default mode: rw for the owner, never executable.
    expect(info.mode & 0o777).toBe(0o666 & ~process.umask());
  });

  test("a file clew wrote can be written again without another Read", async () => {
    const dir = tempDir();
    const file = join(dir, "again.txt");
    const session = toolSession(dir);
    await runTool(writeTool, { file_path: file, content: "first\n" }, session);
    const output = await runTool(writeTool, { file_path: file, content: "second\n" }, session);
    expect(output).toEqual({
      content: `The file ${file} has been updated successfully.`,
      display: {
        summary: `Updated ${file} (+1 -1)`,
        diff: [`--- a${file}`, `+++ b${file}`, "@@ -1,1 +1,1 @@", "-first", "+second"].join("\n"),
      },
      data: { type: "update", filePath: file, content: "second\n" },
    });
  });

  test("refuses to overwrite an existing file that was never read", async () => {
    const dir = tempDir();
    const file = join(dir, "existing.txt");
    writeFileSync(file, "precious\n");
    const error = await writeError({ file_path: file, content: "clobbered" }, toolSession(dir));
    expect(error.message).toBe(`File has not been read yet. Read it first before writing to it: ${file}`);
    expect(readFileSync(file, "utf8")).toBe("precious\n");
  });

  test("updates a file after reading it, with a diff for the UI", async () => {
    const dir = tempDir();
    const file = join(dir, "code.ts");
    writeFileSync(file, "a\nb\nc\nd\ne\nf\ng\nh\n");
    const session = toolSession(dir);
    await runTool(readTool, { file_path: file }, session);
    const output = await runTool(writeTool, { file_path: file, content: "a\nb\nc\nD\ne\nf\ng\nh\n" }, session);
    expect(textOf(output)).toBe(`The file ${file} has been updated successfully.`);
    expect(output.display?.diff).toBe(
      [`--- a${file}`, `+++ b${file}`, "@@ -1,7 +1,7 @@", " a", " b", " c", "-d", "+D", " e", " f", " g"].join("\n"),
    );
    expect(readFileSync(file, "utf8")).toBe("a\nb\nc\nD\ne\nf\ng\nh\n");
  });

  test("refuses after the file changed on disk since it was read", async () => {
    const dir = tempDir();
    const file = join(dir, "shared.txt");
    writeFileSync(file, "v1\n");
    const session = toolSession(dir);
    await runTool(readTool, { file_path: file }, session);
    writeFileSync(file, "v2 from the user\n");
    const error = await writeError({ file_path: file, content: "model's version\n" }, session);
    expect(error.message).toContain(`File ${file} has been modified since it was read`);
    expect(error.message).toContain("Read it again before writing to it");
    expect(readFileSync(file, "utf8")).toBe("v2 from the user\n");
  });

  test("a changed mtime with the same size also counts as modified", async () => {
    const dir = tempDir();
    const file = join(dir, "touched.txt");
    writeFileSync(file, "same\n");
    const session = toolSession(dir);
    await runTool(readTool, { file_path: file }, session);
    utimesSync(file, new Date(2001, 1, 1), new Date(2001, 1, 1));
    await writeError({ file_path: file, content: "new\n" }, session);
    expect(readFileSync(file, "utf8")).toBe("same\n");
  });

  test("keeps the mode of the file it replaces and leaves no temp files", async () => {
    const dir = tempDir();
    const file = join(dir, "run.sh");
    writeFileSync(file, "#!/bin/sh\necho hi\n");
    chmodSync(file, 0o755);
    const session = toolSession(dir);
    await runTool(readTool, { file_path: file }, session);
    await runTool(writeTool, { file_path: file, content: "#!/bin/sh\necho bye\n" }, session);
    expect(statSync(file).mode & 0o7777).toBe(0o755);
    expect(readdirSync(dir)).toEqual(["run.sh"]);
  });

  test("writes through a symlink to its target and keeps the link", async () => {
    const dir = tempDir();
    const target = join(dir, "real.txt");
    const link = join(dir, "link.txt");
    writeFileSync(target, "old\n");
    symlinkSync(target, link);
    const session = toolSession(dir);
    await runTool(readTool, { file_path: link }, session);
    await runTool(writeTool, { file_path: link, content: "new\n" }, session);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, "utf8")).toBe("new\n");
  });

  test("refuses a path that is a directory", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "folder"));
    const error = await writeError({ file_path: join(dir, "folder"), content: "x" }, toolSession(dir));
    expect(error.message).toContain(`${join(dir, "folder")} is a directory`);
  });

  test("refuses a path whose parent is a file", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "plain"), "");
    const error = await writeError({ file_path: join(dir, "plain", "child.txt"), content: "x" }, toolSession(dir));
    expect(error.message).toContain(join(dir, "plain", "child.txt"));
  });

  test("a relative path is resolved against cwd and counted without a trailing newline", async () => {
    const dir = tempDir();
    const output = await runTool(writeTool, { file_path: "rel.txt", content: "only line" }, toolSession(dir));
    expect(output.display).toEqual({ summary: `Wrote 1 line to ${join(dir, "rel.txt")}` });
    expect(readFileSync(join(dir, "rel.txt"), "utf8")).toBe("only line");
  });

  test("the schema uses Claude Code's field names", () => {
    expect(writeTool.input.parse({ file_path: "/x", content: "" })).toEqual({ file_path: "/x", content: "" });
    expect(writeTool.input.safeParse({ file_path: "/x" }).success).toBe(false);
    expect(writeTool.access).toBe("write");
  });
});
