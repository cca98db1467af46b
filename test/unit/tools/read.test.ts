import { describe, expect, test } from "bun:test";
import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { readTool } from "../../../src/tools/read.ts";
import { defaultToolLimits } from "../../../src/tools/types.ts";
import { ToolError } from "../../../src/util/errors.ts";
import { runTool, tempDir, textOf, toolSession } from "../../helpers/tool-session.ts";

// A real 1×1 PNG.
const PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

async function readError(input: unknown, session: ReturnType<typeof toolSession>): Promise<ToolError> {
  const error = await runTool(readTool, input, session).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof ToolError)) throw new Error(`expected a ToolError, got ${String(error)}`);
  expect(error.code).toBe("tool_failed");
  return error;
}

function numberedLines(from: number, lines: string[]): string {
  return lines.map((line, i) => `${String(from + i).padStart(6)}\t${line}`).join("\n");
}

describe("Read", () => {
  test("returns cat -n numbered lines, structured data and remembers the file", async () => {
    const dir = tempDir();
    const file = join(dir, "a.ts");
    writeFileSync(file, "const a = 1;\n\tindented\n");
    const session = toolSession(dir);
    const output = await runTool(readTool, { file_path: file }, session);
    expect(output).toEqual({
      content: "     1\tconst a = 1;\n     2\t\tindented",
      display: { summary: "Read 2 lines" },
      data: { type: "text", file: { filePath: file, content: "const a = 1;\n\tindented", numLines: 2, startLine: 1, totalLines: 2 } },
    });
    const info = statSync(file);
    expect(session.files.lastSeen(file)).toEqual({ mtimeMs: info.mtimeMs, size: info.size });
  });

  test("resolves relative paths against cwd and ~ against HOME", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "sub"));
    writeFileSync(join(dir, "sub", "rel.txt"), "relative\n");
    const home = tempDir();
    writeFileSync(join(home, "notes.txt"), "home\n");
    const session = toolSession(dir, { env: { HOME: home } });
    expect(textOf(await runTool(readTool, { file_path: "sub/rel.txt" }, session))).toBe("     1\trelative");
    expect(textOf(await runTool(readTool, { file_path: "~/notes.txt" }, session))).toBe("     1\thome");
    expect(readTool.subject({ file_path: "~/notes.txt" }, session)).toBe(join(home, "notes.txt"));
  });

  test("offset and limit select a window and the note says where to continue", async () => {
    const dir = tempDir();
    const file = join(dir, "ten.txt");
    const lines = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`);
    writeFileSync(file, `${lines.join("\n")}\n`);
    const output = await runTool(readTool, { file_path: file, offset: 3, limit: 2 }, toolSession(dir));
    expect(textOf(output)).toBe(
      `${numberedLines(3, ["line 3", "line 4"])}\n\n(Showing lines 3-4 of 10. To read more, call Read again with offset=5.)`,
    );
    expect(output.data).toEqual({
      type: "text",
      file: { filePath: file, content: "line 3\nline 4", numLines: 2, startLine: 3, totalLines: 10 },
    });
    // The last window has no note; offset 0 means the start.
    expect(textOf(await runTool(readTool, { file_path: file, offset: 9 }, toolSession(dir)))).toBe(numberedLines(9, ["line 9", "line 10"]));
    expect(textOf(await runTool(readTool, { file_path: file, offset: 0, limit: 1 }, toolSession(dir)))).toStartWith("     1\tline 1\n\n(");
  });

  test("caps an unbounded read at the session's default line count", async () => {
    const dir = tempDir();
    const file = join(dir, "many.txt");
    writeFileSync(file, Array.from({ length: 8 }, (_, i) => `row ${i + 1}`).join("\n"));
    const session = toolSession(dir, { limits: { ...defaultToolLimits, readDefaultLines: 5 } });
    const output = await runTool(readTool, { file_path: file }, session);
    expect(textOf(output)).toEndWith("     5\trow 5\n\n(Showing lines 1-5 of 8. To read more, call Read again with offset=6.)");
  });

  test("an offset past the end is an error giving the line count", async () => {
    const dir = tempDir();
    const file = join(dir, "short.txt");
    writeFileSync(file, "one\ntwo\n");
    const error = await readError({ file_path: file, offset: 5 }, toolSession(dir));
    expect(error.message).toContain("has only 2 lines");
  });

  test("cuts long lines with a visible marker", async () => {
    const dir = tempDir();
    const file = join(dir, "long.txt");
    writeFileSync(file, `${"x".repeat(25)}\nshort\n${"é".repeat(100)}\r\n${"w".repeat(70_000)}\r\n`);
    const session = toolSession(dir, { limits: { ...defaultToolLimits, readMaxLineChars: 10 } });
    expect(textOf(await runTool(readTool, { file_path: file }, session))).toBe(
      [
        `     1\t${"x".repeat(10)}… [line truncated, 15 more characters]`,
        "     2\tshort",
        `     3\t${"é".repeat(10)}… [line truncated, 90 more characters]`,
        `     4\t${"w".repeat(10)}… [line truncated, 69990 more characters]`,
      ].join("\n"),
    );
  });

  test("shows CRLF lines without carriage returns and counts a last line without newline", async () => {
    const dir = tempDir();
    const file = join(dir, "dos.txt");
    writeFileSync(file, "\uFEFFfirst\r\nsecond\r\nthird");
    const output = await runTool(readTool, { file_path: file }, toolSession(dir));
    expect(textOf(output)).toBe(numberedLines(1, ["first", "second", "third"]));
  });

  test("an empty file gets a clear note", async () => {
    const dir = tempDir();
    const file = join(dir, "empty.txt");
    writeFileSync(file, "");
    const session = toolSession(dir);
    const output = await runTool(readTool, { file_path: file }, session);
    expect(output).toEqual({
      content: `The file ${file} exists but is empty.`,
      display: { summary: "Read 0 lines (empty file)" },
      data: { type: "text", file: { filePath: file, content: "", numLines: 0, startLine: 1, totalLines: 0 } },
    });
    expect(session.files.lastSeen(file)).toEqual({ mtimeMs: statSync(file).mtimeMs, size: 0 });
  });

  test("handles lines and multi-byte characters that span read chunks", async () => {
    const dir = tempDir();
    const file = join(dir, "chunks.txt");
    // 65_535 ASCII bytes put the 4-byte emoji across the 64 KiB chunk boundary.
    const first = `${"a".repeat(65_535)}😀tail`;
    const lines = [first, ...Array.from({ length: 3000 }, (_, i) => `n${i}`)];
    writeFileSync(file, `${lines.join("\n")}\n`);
    const session = toolSession(dir, { limits: { ...defaultToolLimits, readMaxLineChars: 100_000 } });
    const head = await runTool(readTool, { file_path: file, limit: 1 }, session);
    expect(head.data).toEqual({ type: "text", file: { filePath: file, content: first, numLines: 1, startLine: 1, totalLines: 3001 } });
    const deep = await runTool(readTool, { file_path: file, offset: 2999, limit: 5 }, session);
    expect(textOf(deep)).toBe(numberedLines(2999, ["n2997", "n2998", "n2999"]));
  });

  test("pages through a file too big to count without reading it whole", async () => {
    const dir = tempDir();
    const file = join(dir, "big.log");
    const line = `${"z".repeat(99)}\n`;
    writeFileSync(file, line.repeat(340_000)); // 34 MB, past the line-counting threshold
    const output = await runTool(readTool, { file_path: file, offset: 200_000, limit: 2 }, toolSession(dir));
    expect(textOf(output)).toBe(
      `${numberedLines(200_000, ["z".repeat(99), "z".repeat(99)])}\n\n` +
        "(Showing lines 200000-200001; the file continues. To read more, call Read again with offset=200002.)",
    );
    expect(output.data).toEqual({
      type: "text",
      file: { filePath: file, content: `${"z".repeat(99)}\n${"z".repeat(99)}`, numLines: 2, startLine: 200_000, totalLines: undefined },
    });
  });

  test("returns a PNG, sniffed by content, as an image block", async () => {
    const dir = tempDir();
    const file = join(dir, "screenshot");
    const bytes = Buffer.from(PNG_BASE64, "base64");
    writeFileSync(file, bytes);
    const session = toolSession(dir);
    const output = await runTool(readTool, { file_path: file }, session);
    expect(output).toEqual({
      content: [
        { type: "text", text: `Image file: ${file} (image/png, ${bytes.length} B)` },
        { type: "image", source: { type: "base64", media_type: "image/png", data: PNG_BASE64 } },
      ],
      display: { summary: `Read image (${bytes.length} B)` },
      data: { type: "image", file: { filePath: file, type: "image/png", originalSize: bytes.length } },
    });
    expect(session.files.lastSeen(file)?.size).toBe(bytes.length);
  });

  test("recognises JPEG, GIF and WebP headers", async () => {
    const dir = tempDir();
    const cases: Array<[string, Buffer, string]> = [
      ["photo.jpg", Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]), "image/jpeg"],
      ["anim.gif", Buffer.from("GIF89a\x01\x00\x01\x00", "latin1"), "image/gif"],
      ["pic.webp", Buffer.concat([Buffer.from("RIFF"), Buffer.from([4, 0, 0, 0]), Buffer.from("WEBPVP8 ")]), "image/webp"],
    ];
    for (const [name, bytes, mediaType] of cases) {
      writeFileSync(join(dir, name), bytes);
      const output = await runTool(readTool, { file_path: join(dir, name) }, toolSession(dir));
      expect(output.data).toEqual({ type: "image", file: { filePath: join(dir, name), type: mediaType, originalSize: bytes.length } });
    }
  });

  test("refuses an image too large to send and suggests a smaller copy", async () => {
    const dir = tempDir();
    const file = join(dir, "huge.png");
    writeFileSync(file, Buffer.concat([Buffer.from(PNG_BASE64, "base64"), Buffer.alloc(4_000_000, 1)]));
    const error = await readError({ file_path: file }, toolSession(dir));
    expect(error.message).toContain(file);
    expect(error.message).toContain("smaller copy");
  });

  test("refuses binary files, by NUL bytes or by extension", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "blob"), Buffer.from([0x41, 0x42, 0x00, 0x43]));
    writeFileSync(join(dir, "archive.zip"), "PK looks like text");
    const session = toolSession(dir);
    for (const name of ["blob", "archive.zip"]) {
      const error = await readError({ file_path: join(dir, name) }, session);
      expect(error.message).toContain(`${join(dir, name)} is a binary file and can't be read as text`);
    }
    expect(session.files.paths()).toEqual([]);
  });

  test("refuses a directory with a hint to list it", async () => {
    const dir = tempDir();
    const error = await readError({ file_path: dir }, toolSession(dir));
    expect(error.message).toContain(`${dir} is a directory`);
    expect(error.message).toContain(`ls ${dir}`);
    expect(error.message).toContain("Glob");
  });

  test("a missing file is an error that suggests a similar name", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "settings.json"), "{}");
    const similar = await readError({ file_path: join(dir, "setings.json") }, toolSession(dir));
    expect(similar.message).toBe(`File does not exist: ${join(dir, "setings.json")}. Did you mean ${join(dir, "settings.json")}?`);
    const otherExtension = await readError({ file_path: join(dir, "settings.yaml") }, toolSession(dir));
    expect(otherExtension.message).toContain(`Did you mean ${join(dir, "settings.json")}?`);
    const nothing = await readError({ file_path: join(dir, "nowhere", "x.md") }, toolSession(dir));
    expect(nothing.message).toBe(`File does not exist: ${join(dir, "nowhere", "x.md")}. Current working directory: ${dir}.`);
  });

  test("the schema uses Claude Code's field names and rejects a zero limit", () => {
    expect(readTool.input.parse({ file_path: "/x", offset: 2, limit: 3, extra: 1 })).toEqual({ file_path: "/x", offset: 2, limit: 3 });
    expect(z.toJSONSchema(readTool.input).required).toEqual(["file_path"]);
    expect(readTool.input.safeParse({ file_path: "/x", limit: 0 }).success).toBe(false);
    expect(readTool.name).toBe("Read");
    expect(readTool.access).toBe("read");
  });
});
