import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { readTool } from "../../../src/tools/read.ts";
import { modelAcceptsPdfDocuments } from "../../../src/tools/shared/pdf-support.ts";
import { parsePageRange } from "../../../src/tools/shared/pdf-pages.ts";
import type { ToolOutput, ToolSession } from "../../../src/tools/types.ts";
import { ToolError } from "../../../src/util/errors.ts";
import { pageTexts, passwordProtectedPdf, pdfWithPages } from "../../helpers/pdfs.ts";
import { runTool, tempDir, toolSession } from "../../helpers/tool-session.ts";

interface DocumentBlock {
  type: "document";
  source: { type: "base64"; media_type: "application/pdf"; data: string };
}

async function pdfFile(pages: number, name = "report.pdf", options: { textless?: boolean } = {}): Promise<{ dir: string; file: string; bytes: Uint8Array }> {
  const dir = tempDir();
  const file = join(dir, name);
  const bytes = await pdfWithPages(pages, options);
  writeFileSync(file, bytes);
  return { dir, file, bytes };
}

async function readError(input: Record<string, unknown>, session: ToolSession): Promise<ToolError> {
  const error = await runTool(readTool, input, session).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof ToolError)) throw new Error(`expected a ToolError, got ${String(error)}`);
  return error;
}

function documentOf(output: ToolOutput): Uint8Array {
  const blocks = output.content as unknown as Array<{ type: string }>;
  const document = blocks.find((block): block is DocumentBlock => block.type === "document");
  if (!document) throw new Error(`no document block in ${JSON.stringify(blocks.map((block) => block.type))}`);
  expect({ type: document.source.type, media_type: document.source.media_type }).toEqual({ type: "base64", media_type: "application/pdf" });
  return new Uint8Array(Buffer.from(document.source.data, "base64"));
}

/** A session whose model is `model` (the optional `currentModel` port Read consults). */
function sessionWithModel(dir: string, model: string): ToolSession {
  return Object.assign(toolSession(dir), { currentModel: () => model });
}

describe("Read of a PDF", () => {
  test("a short PDF goes whole, unchanged, as a document block after a line naming it", async () => {
    const { dir, file, bytes } = await pdfFile(3);
    const session = toolSession(dir);
    const output = await runTool(readTool, { file_path: file }, session);
    const size = `${(bytes.length / 1024).toFixed(1)} KB`;
    expect(output).toEqual({
      content: [
        { type: "text", text: `PDF file: ${file} (3 pages, ${size})` },
        { type: "document", source: { type: "base64", media_type: "application/pdf", data: Buffer.from(bytes).toString("base64") } },
      ],
      display: { summary: "Read PDF (3 pages)" },
      data: { type: "pdf", file: { filePath: file, originalSize: bytes.length, totalPages: 3, pages: "1-3", sentAs: "document" } },
    } as unknown as ToolOutput);
    // Read counts for the Read-before-Edit rule as for any file.
    expect(session.files.paths()).toEqual([file]);
  });

  test("pages cuts the asked pages into a smaller PDF holding exactly those pages", async () => {
    const { dir, file, bytes } = await pdfFile(12);
    const output = await runTool(readTool, { file_path: file, pages: "4-6" }, toolSession(dir));
    const sent = documentOf(output);
    expect(await pageTexts(sent)).toEqual(["This is page 4.", "This is page 5.", "This is page 6."]);
    expect(sent.length).toBeLessThan(bytes.length);
    expect(output.display).toEqual({ summary: "Read PDF (pages 4-6 of 12)" });
    expect(output.data).toEqual({ type: "pdf", file: { filePath: file, originalSize: bytes.length, totalPages: 12, pages: "4-6", sentAs: "document" } });

    const single = await runTool(readTool, { file_path: file, pages: "12" }, toolSession(dir));
    expect(await pageTexts(documentOf(single))).toEqual(["This is page 12."]);
    expect(single.display).toEqual({ summary: "Read PDF (page 12 of 12)" });
  });

  test("a PDF over 10 pages without pages is refused with its page count and how to ask for a range", async () => {
    const { dir, file } = await pdfFile(11);
    const session = toolSession(dir);
    const error = await readError({ file_path: file }, session);
    expect({ code: error.code, message: error.message }).toEqual({
      code: "tool_failed",
      message: `${file} has 11 pages, too many to read at once (up to 10 without a range). Call Read again with pages set to the range you need, at most 20 pages at a time, for example pages: "1-20".`,
    });
    expect(session.files.paths()).toEqual([]);
  });

  test("malformed, out-of-range and over-long ranges are refused before anything is sent", async () => {
    const { dir, file } = await pdfFile(30);
    const session = toolSession(dir);
    for (const pages of ["", "0", "5-3", "a-b", "1,3", "-4"]) {
      const error = await readError({ file_path: file, pages }, session);
      expect(error.message).toBe(`Invalid pages parameter: ${JSON.stringify(pages)}. Use formats like "1-5", "3", or "10-20". Pages are 1-indexed.`);
    }
    expect((await readError({ file_path: file, pages: "29-31" }, session)).message).toBe(
      `${file} has 30 pages, so pages 29-31 is out of range. Use pages between 1 and 30.`,
    );
    expect((await readError({ file_path: file, pages: "1-21" }, session)).message).toBe(
      'pages "1-21" names 21 pages; Read sends at most 20 pages at a time. Read 1-20 first, then the next range.',
    );
  });

  test("pages on a file that is not a PDF is refused, a bad range even on a missing file", async () => {
    const dir = tempDir();
    const text = join(dir, "notes.txt");
    writeFileSync(text, "one\n");
    const session = toolSession(dir);
    expect((await readError({ file_path: text, pages: "1" }, session)).message).toBe(
      `pages applies to PDF files only, and ${text} is not one. Leave pages out, and use offset and limit for parts of a text file.`,
    );
    expect((await readError({ file_path: join(dir, "gone.pdf"), pages: "x" }, session)).message).toStartWith('Invalid pages parameter: "x".');
  });

  test("a PDF is recognised by its header whatever its name, and a .pdf that is not one is refused as such", async () => {
    const dir = tempDir();
    const named = join(dir, "download.bin");
    writeFileSync(named, await pdfWithPages(1));
    expect((await runTool(readTool, { file_path: named }, toolSession(dir))).display).toEqual({ summary: "Read PDF (1 page)" });

    const fake = join(dir, "fake.pdf");
    writeFileSync(fake, "this is not a pdf at all\n");
    const error = await readError({ file_path: fake }, toolSession(dir));
    expect(error.message).toStartWith(`${fake} is not a valid PDF (`);
  });

  test("an encrypted PDF is never sent as a document; one that needs a password says how to decrypt it", async () => {
    const dir = tempDir();
    const file = join(dir, "locked.pdf");
    writeFileSync(file, await passwordProtectedPdf());
    const error = await readError({ file_path: file }, toolSession(dir));
    expect({ code: error.code, message: error.message }).toEqual({
      code: "tool_failed",
      message: `${file} is password-protected. Decrypt it first (for example \`qpdf --decrypt --password=… in.pdf out.pdf\`) and Read the copy.`,
    });
  });

  test("a model that takes no documents gets each page's text, marked with its number", async () => {
    const { dir, file, bytes } = await pdfFile(12);
    const output = await runTool(readTool, { file_path: file, pages: "2-3" }, sessionWithModel(dir, "llama-3.3-70b"));
    expect(output).toEqual({
      content: [
        `PDF file: ${file} (pages 2-3 of 12), sent as text because the model does not take PDF documents.`,
        '<page number="2">\nThis is page 2.\n</page>',
        '<page number="3">\nThis is page 3.\n</page>',
      ].join("\n"),
      display: { summary: "Read PDF as text (pages 2-3 of 12)" },
      data: { type: "pdf", file: { filePath: file, originalSize: bytes.length, totalPages: 12, pages: "2-3", sentAs: "text" } },
    });
  });

  test("pages without a text layer say so and how to OCR them", async () => {
    const { dir, file } = await pdfFile(2, "scan.pdf", { textless: true });
    const output = await runTool(readTool, { file_path: file }, sessionWithModel(dir, "local-model"));
    expect(String(output.content)).toStartWith(
      `PDF file: ${file} (2 pages), sent as text because the model does not take PDF documents. These pages have no text layer (scanned images, most likely); OCR them with Bash`,
    );
  });

  test("past 100 PDF pages in one conversation, further pages go as text (a request may carry 100 in all)", async () => {
    const { dir, file } = await pdfFile(20);
    const session = toolSession(dir);
    for (let read = 1; read <= 5; read += 1) {
      const output = await runTool(readTool, { file_path: file, pages: "1-20" }, session);
      expect((output.data as { file: { sentAs: string } }).file.sentAs).toBe("document");
    }
    const sixth = await runTool(readTool, { file_path: file, pages: "1" }, session);
    expect(String(sixth.content)).toStartWith(
      `PDF file: ${file} (page 1 of 20), sent as text because the conversation already carries 100 PDF pages and a request may carry at most 100.`,
    );
    // Another session has its own count.
    expect((await runTool(readTool, { file_path: file, pages: "1" }, toolSession(dir))).display).toEqual({ summary: "Read PDF (page 1 of 20)" });
  });
});

describe("Read of PDFs against the request's 32 MB", () => {
  test("one PDF over 20 MB is refused with what to do; past 20 MB of PDFs in a conversation, more go as text", async () => {
    const dir = tempDir();
    const huge = join(dir, "huge.pdf");
    const hugeBytes = await pdfWithPages(1, { paddingBytes: 21 * 1024 * 1024 });
    writeFileSync(huge, hugeBytes);
    const error = await readError({ file_path: huge }, toolSession(dir));
    expect(error.message).toBe(
      `1 page of ${huge} come to ${(hugeBytes.length / (1024 * 1024)).toFixed(2)} MB, more than the 20.00 MB one request can carry. ` +
        `Read fewer pages at a time with pages, or extract the text with Bash (\`pdftotext -f 1 -l 1 ${huge} -\`).`,
    );

    const large = join(dir, "large.pdf");
    const largeBytes = await pdfWithPages(1, { paddingBytes: 6 * 1024 * 1024 });
    writeFileSync(large, largeBytes);
    const session = toolSession(dir);
    for (let read = 1; read <= 3; read += 1) {
      const output = await runTool(readTool, { file_path: large }, session);
      expect((output.data as { file: { sentAs: string } }).file.sentAs).toBe("document");
    }
    const fourth = await runTool(readTool, { file_path: large }, session);
    const carried = ((3 * largeBytes.length) / (1024 * 1024)).toFixed(2);
    expect(String(fourth.content)).toBe(
      `PDF file: ${large} (1 page), sent as text because the conversation already carries ${carried} MB of PDFs and this one would take it past the 20.00 MB a request has room for.\n` +
        '<page number="1">\nThis is page 1.\n</page>',
    );
  });
});

describe("PDF support per model", () => {
  test("Claude models from 3.5 on take documents; older families and other models get text", () => {
    const cases = {
      "claude-opus-5-5": true,
      "claude-sonnet-4-5-20250929": true,
      "claude-3-5-haiku-20241022": true,
      "claude-3-7-sonnet-20250219": true,
      "us.anthropic.claude-sonnet-4-20250514-v1:0": true,
      "claude-sonnet-4@20250514": true,
      "claude-3-haiku-20240307": false,
      "claude-3-opus-20240229": false,
      "claude-2.1": false,
      "gpt-oss-120b": false,
      "qwen3-coder": false,
    };
    const actual = Object.fromEntries(Object.keys(cases).map((id) => [id, modelAcceptsPdfDocuments(id)]));
    expect(actual).toEqual(cases);
    expect(modelAcceptsPdfDocuments(undefined)).toBe(true);
  });

  test("page ranges parse as Claude Code's: one page or an inclusive range, from 1", () => {
    expect([parsePageRange("3"), parsePageRange("1-5"), parsePageRange(" 10 - 20 ")]).toEqual([
      { first: 3, last: 3 },
      { first: 1, last: 5 },
      { first: 10, last: 20 },
    ]);
  });
});
