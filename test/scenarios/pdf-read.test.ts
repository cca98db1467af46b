// PDFs against the compiled binary: real PDFs made with pdf-lib are Read by the model. A long one
// without `pages` comes back as a tool error naming its page count and how to ask for a range; a
// range reaches the next request as one document block holding exactly those pages; a short one
// goes whole and byte-identical; every document stays unchanged in the history on later requests,
// and the fake (which checks tool_result content as the API does) accepts them all.
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { messagesOf, reply, startFakeAnthropic, toolResults, type FakeServer, type JsonObject } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory, transcripts } from "../helpers/clew-process.ts";
import { pageTexts, pdfWithPages } from "../helpers/pdfs.ts";
import { requestAt } from "../helpers/scenario.ts";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function resultContent(request: Parameters<typeof toolResults>[0], index = 0): JsonObject[] {
  const content = toolResults(request)[index]?.block.content;
  return Array.isArray(content) ? (content as JsonObject[]) : [];
}

function documentBytes(block: JsonObject | undefined): Uint8Array {
  const source = block?.source as { type?: string; media_type?: string; data?: string } | undefined;
  expect({ type: block?.type, sourceType: source?.type, mediaType: source?.media_type }).toEqual({ type: "document", sourceType: "base64", mediaType: "application/pdf" });
  return new Uint8Array(Buffer.from(source?.data ?? "", "base64"));
}

describe("scenario: reading PDFs", () => {
  test("a long PDF asks for pages; a range arrives as a PDF of just those pages; a short one whole; history keeps them unchanged", async () => {
    const dir = tempDirectory("clew-pdf-");
    const report = join(dir, "annual-report.pdf");
    const memo = join(dir, "memo.pdf");
    writeFileSync(report, await pdfWithPages(12));
    const memoBytes = await pdfWithPages(2);
    writeFileSync(memo, memoBytes);
    server = await startFakeAnthropic({
      script: [
        reply().toolUse("Read", { file_path: report }),
        reply().text("It is long; reading pages 3 and 4.").toolUse("Read", { file_path: report, pages: "3-4" }),
        reply().toolUse("Read", { file_path: memo }),
        reply().text("Read both."),
      ],
    });
    const configDir = tempDirectory("clew-config-");
    const result = await runClew(["-p", "summarise the PDFs", "--output-format", "json"], { cwd: dir, baseURL: server.url, configDir });
    expect(server.violations).toEqual([]);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
    expect((JSON.parse(result.stdout) as { result: string }).result).toBe("Read both.");

    const refused = toolResults(requestAt(server, 1))[0];
    expect({ isError: refused?.isError, text: refused?.text }).toEqual({
      isError: true,
      text: `${report} has 12 pages, too many to read at once (up to 10 without a range). Call Read again with pages set to the range you need, at most 20 pages at a time, for example pages: "1-20".`,
    });

    const ranged = resultContent(requestAt(server, 2));
    expect(ranged.map((block) => block.type)).toEqual(["text", "document"]);
    const cut = documentBytes(ranged[1]);
    expect(ranged[0]).toEqual({ type: "text", text: `PDF file: ${report} (pages 3-4 of 12, ${(cut.length / 1024).toFixed(1)} KB)` });
    expect(await pageTexts(cut)).toEqual(["This is page 3.", "This is page 4."]);

    const whole = resultContent(requestAt(server, 3));
    expect(whole[1]).toEqual({ type: "document", source: { type: "base64", media_type: "application/pdf", data: Buffer.from(memoBytes).toString("base64") } });

    // The last request still carries both documents exactly as first sent.
    const results = messagesOf(requestAt(server, 3))
      .flatMap((message) => message.content)
      .filter((block) => block.type === "tool_result" && Array.isArray(block.content));
    expect(results.map((block) => block.content)).toEqual([ranged, whole]);

    // The transcript records what was read, not the PDF a second time.
    const lines = readFileSync(transcripts(configDir)[0] ?? "", "utf8").trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    const pdfResults: unknown[] = lines.map((line) => line.toolUseResult).filter((data) => typeof data === "object" && data !== null && (data as { type?: unknown }).type === "pdf");
    expect(pdfResults).toEqual([
      { type: "pdf", file: { filePath: report, originalSize: readFileSync(report).length, totalPages: 12, pages: "3-4", sentAs: "document" } },
      { type: "pdf", file: { filePath: memo, originalSize: memoBytes.length, totalPages: 2, pages: "1-2", sentAs: "document" } },
    ]);
  });

  test("past the 100 pages a request may carry, Reads side by side send the rest as each page's text", async () => {
    const dir = tempDirectory("clew-pdf-budget-");
    const book = join(dir, "book.pdf");
    writeFileSync(book, await pdfWithPages(20));
    let calls = reply();
    for (let read = 0; read < 6; read += 1) calls = calls.toolUse("Read", { file_path: book, pages: "1-20" });
    server = await startFakeAnthropic({ script: [calls, reply().text("Read it six times.")] });
    const result = await runClew(["-p", "read the book six times", "--output-format", "json"], { cwd: dir, baseURL: server.url, configDir: tempDirectory("clew-config-") });
    expect(server.violations).toEqual([]);
    expect(result.code).toBe(0);
    const results = toolResults(requestAt(server, 1));
    const asDocuments = results.filter((sent) => Array.isArray(sent.block.content) && (sent.block.content as JsonObject[]).some((block) => block.type === "document"));
    const asText = results.filter((sent) => typeof sent.block.content === "string");
    expect({ documents: asDocuments.length, text: asText.length }).toEqual({ documents: 5, text: 1 });
    const pages = Array.from({ length: 20 }, (_, i) => `<page number="${i + 1}">\nThis is page ${i + 1}.\n</page>`).join("\n");
    expect(asText[0]?.text).toBe(`PDF file: ${book} (20 pages), sent as text because the conversation already carries 100 PDF pages and a request may carry at most 100.\n${pages}`);
  });

  test("a model that takes no documents (a local one, by its id) gets each page's text", async () => {
    const dir = tempDirectory("clew-pdf-model-");
    const memo = join(dir, "memo.pdf");
    writeFileSync(memo, await pdfWithPages(2));
    server = await startFakeAnthropic({ script: [reply().toolUse("Read", { file_path: memo }), reply().text("ok")] });
    const result = await runClew(["-p", "read the memo", "--output-format", "json", "--model", "qwen3-coder-local"], { cwd: dir, baseURL: server.url, configDir: tempDirectory("clew-config-") });
    expect(result.code).toBe(0);
    expect(toolResults(requestAt(server, 1))[0]?.text).toBe(
      `PDF file: ${memo} (2 pages), sent as text because the model does not take PDF documents.\n<page number="1">\nThis is page 1.\n</page>\n<page number="2">\nThis is page 2.\n</page>`,
    );
  });
});
