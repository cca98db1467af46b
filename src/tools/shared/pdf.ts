/**
 * Read of a PDF: the pages asked for as one `document` block (base64 `application/pdf`) the model
 * sees as text and page images, or, where the model takes no documents (or the conversation already
 * carries the 100 pages or the share of 32 MB a request may hold), the pages' text. A page range is cut into a smaller PDF
 * of just those pages, so the request carries what was asked for and nothing more. The PDF library
 * (pdf-engine.ts) loads at the first PDF, so a session that reads none pays nothing for it.
 */
import type { DocumentBlockParam, TextBlockParam } from "@anthropic-ai/sdk/resources/messages";
import { ToolError } from "../../util/errors.ts";
import type { ToolOutput, ToolResultContent, ToolSession } from "../types.ts";
import { formatBytes } from "./image-limits.ts";
import { openPdf, PdfOpenError, type OpenPdf } from "./pdf-engine.ts";
import { checkPageRange, formatPageRange, pageCount, parsePageRange, type PageRange } from "./pdf-pages.ts";
import {
  documentsSent,
  modelAcceptsPdfDocuments,
  PDF_MAX_CONVERSATION_BYTES,
  PDF_MAX_DOCUMENT_BYTES,
  PDF_MAX_FILE_BYTES,
  PDF_MAX_PAGES_PER_READ,
  PDF_MAX_PAGES_PER_REQUEST,
  PDF_MAX_PAGES_WITHOUT_RANGE,
  recordDocument,
  sessionModel,
} from "./pdf-support.ts";

export interface ReadPdfData {
  type: "pdf";
  /** The PDF itself is only in the content block, so transcripts don't store it twice. */
  file: { filePath: string; originalSize: number; totalPages: number; pages: string; sentAs: "document" | "text" };
}

export interface PdfRequest {
  absPath: string;
  size: number;
  /** Reads the whole file; called only once the size is known to be within bounds. */
  readBytes: () => Uint8Array;
  pages: string | undefined;
  session: ToolSession;
  signal: AbortSignal;
}

/** The `pages` range, its syntax checked before the file is even opened. */
export function pdfRangeOf(pages: string | undefined): PageRange | undefined {
  return pages === undefined ? undefined : parsePageRange(pages);
}

export async function readPdf(request: PdfRequest): Promise<ToolOutput> {
  const { absPath, size, signal } = request;
  const asked = pdfRangeOf(request.pages);
  if (size > PDF_MAX_FILE_BYTES) {
    throw new ToolError(
      `PDF ${absPath} is ${formatBytes(size)}, too large to open (the limit is ${formatBytes(PDF_MAX_FILE_BYTES)}). ` +
        `Extract the pages you need with Bash, for example \`pdftotext -f 1 -l 20 ${absPath} -\` or \`qpdf ${absPath} --pages . 1-20 -- part.pdf\`.`,
    );
  }
  const bytes = request.readBytes();
  const pdf = await open(bytes, absPath);
  try {
    signal.throwIfAborted();
    return await readOpenPdf(pdf, bytes, asked, request);
  } finally {
    await pdf.close();
  }
}

async function readOpenPdf(pdf: OpenPdf, bytes: Uint8Array, asked: PageRange | undefined, { absPath, size, session, signal }: PdfRequest): Promise<ToolOutput> {
  const totalPages = pdf.pageCount;
  if (totalPages === 0) throw new ToolError(`${absPath} is a PDF with no pages.`);
  if (!asked && totalPages > PDF_MAX_PAGES_WITHOUT_RANGE) {
    throw new ToolError(
      `${absPath} has ${totalPages} pages, too many to read at once (up to ${PDF_MAX_PAGES_WITHOUT_RANGE} without a range). ` +
        `Call Read again with pages set to the range you need, at most ${PDF_MAX_PAGES_PER_READ} pages at a time, for example pages: "1-${PDF_MAX_PAGES_PER_READ}".`,
    );
  }
  const range = asked ?? { first: 1, last: totalPages };
  checkPageRange(range, totalPages, PDF_MAX_PAGES_PER_READ, absPath);
  const whole = range.first === 1 && range.last === totalPages;
  const shown = whole ? `${totalPages} ${totalPages === 1 ? "page" : "pages"}` : `${formatPageRange(range)} of ${totalPages}`;
  const data = (sentAs: "document" | "text"): ReadPdfData => ({
    type: "pdf",
    file: { filePath: absPath, originalSize: size, totalPages, pages: `${range.first}-${range.last}`, sentAs },
  });

  let textReason = pdf.encrypted
    ? "it is encrypted, which the API does not accept as a document"
    : !modelAcceptsPdfDocuments(sessionModel(session))
      ? "the model does not take PDF documents"
      : undefined;
  if (textReason === undefined) {
    const document = whole ? bytes : await cut(pdf, range, absPath);
    signal.throwIfAborted();
    if (document.byteLength > PDF_MAX_DOCUMENT_BYTES) {
      throw new ToolError(
        `${shown} of ${absPath} come to ${formatBytes(document.byteLength)}, more than the ${formatBytes(PDF_MAX_DOCUMENT_BYTES)} one request can carry. ` +
          `Read fewer pages at a time with pages, or extract the text with Bash (\`pdftotext -f ${range.first} -l ${range.last} ${absPath} -\`).`,
      );
    }
    // From here to recordDocument nothing awaits, so Reads running side by side cannot both take the last of the budget.
    const sent = documentsSent(session);
    if (sent.pages + pageCount(range) > PDF_MAX_PAGES_PER_REQUEST) {
      textReason = `the conversation already carries ${sent.pages} PDF pages and a request may carry at most ${PDF_MAX_PAGES_PER_REQUEST}`;
    } else if (sent.bytes + document.byteLength > PDF_MAX_CONVERSATION_BYTES) {
      textReason = `the conversation already carries ${formatBytes(sent.bytes)} of PDFs and this one would take it past the ${formatBytes(PDF_MAX_CONVERSATION_BYTES)} a request has room for`;
    } else {
      recordDocument(session, pageCount(range), document.byteLength);
      const text: TextBlockParam = { type: "text", text: `PDF file: ${absPath} (${shown}, ${formatBytes(document.byteLength)})` };
      const block: DocumentBlockParam = {
        type: "document",
        source: { type: "base64", media_type: "application/pdf", data: Buffer.from(document.buffer, document.byteOffset, document.byteLength).toString("base64") },
      };
      return { content: documentContent(text, block), display: { summary: `Read PDF (${shown})` }, data: data("document") };
    }
  }

  const pageTexts: string[] = [];
  for (let number = range.first; number <= range.last; number += 1) {
    signal.throwIfAborted();
    pageTexts.push(await pdf.pageText(number));
  }
  const body = pageTexts.map((text, i) => `<page number="${range.first + i}">\n${text.trim()}\n</page>`).join("\n");
  const empty = pageTexts.every((text) => text.trim() === "");
  const note = empty
    ? " These pages have no text layer (scanned images, most likely); OCR them with Bash (for example `ocrmypdf` or `tesseract`) to read them."
    : "";
  const content = `PDF file: ${absPath} (${shown}), sent as text because ${textReason}.${note}\n${body}`;
  return { content, display: { summary: `Read PDF as text (${shown})` }, data: data("text") };
}

async function open(bytes: Uint8Array, absPath: string): Promise<OpenPdf> {
  try {
    return await openPdf(bytes);
  } catch (error) {
    if (!(error instanceof PdfOpenError)) throw error;
    if (error.reason === "password") {
      throw new ToolError(`${absPath} is password-protected. Decrypt it first (for example \`qpdf --decrypt --password=… in.pdf out.pdf\`) and Read the copy.`);
    }
    throw new ToolError(`${absPath} is not a valid PDF (${error.message}). If it is another kind of file, read it with Bash.`);
  }
}

async function cut(pdf: OpenPdf, range: PageRange, absPath: string): Promise<Uint8Array> {
  try {
    return await pdf.extractPages(range.first, range.last);
  } catch (error) {
    throw new ToolError(
      `${formatPageRange(range)} of ${absPath} could not be cut out (${error instanceof Error ? error.message : String(error)}). ` +
        `Try \`pdftotext -f ${range.first} -l ${range.last} ${absPath} -\` with Bash.`,
    );
  }
}

function documentContent(text: TextBlockParam, document: DocumentBlockParam): ToolResultContent {
  return [text, document];
}
