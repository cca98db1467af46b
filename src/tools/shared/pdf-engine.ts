/**
 * PDF.js (Mozilla's PDF library, in unpdf's build for servers and runtimes without a DOM) does
 * everything Read needs of a PDF: the page count, cutting pages out into a new PDF, each page's
 * text, and telling an encrypted or password-protected file apart.
 *
 * It is embedded in the binary as a file (compressed: scripts/cold-modules.ts) and imported from
 * there at the first PDF, not bundled: bundled, its precompiled bytecode would add ~5.8 MB to a
 * binary that has to stay under 120 MB; as a file it adds 0.5 MB and costs nothing until a PDF is read.
 */
// @ts-expect-error -- a `type: "file"` import is the embedded file's path; TypeScript only knows the module's exports
import pdfjsFile from "unpdf/pdfjs" with { type: "file" };
import type { PDFDocumentProxy } from "unpdf/pdfjs";
import { importEmbedded } from "../../util/embedded-module.ts";

type Pdfjs = typeof import("unpdf/pdfjs");

let pdfjs: Promise<Pdfjs> | undefined;

function loadPdfjs(): Promise<Pdfjs> {
  pdfjs ??= importEmbedded(String(pdfjsFile)) as Promise<Pdfjs>;
  return pdfjs;
}

export class PdfOpenError extends Error {
  constructor(
    readonly reason: "password" | "invalid",
    message: string,
  ) {
    super(message);
    this.name = "PdfOpenError";
  }
}

export interface OpenPdf {
  readonly pageCount: number;
  /** Protected by a security handler (even one that opens without a password); the API takes no such document. */
  readonly encrypted: boolean;
  /** A new PDF holding pages `first`…`last` (counted from 1) of this one. */
  extractPages(first: number, last: number): Promise<Uint8Array>;
  /** One page's text, lines as the PDF ends them. */
  pageText(number: number): Promise<string>;
  close(): Promise<void>;
}

export async function openPdf(bytes: Uint8Array): Promise<OpenPdf> {
  const { getDocument } = await loadPdfjs();
  let document: PDFDocumentProxy;
  try {
    // A copy: PDF.js takes over the buffer it is given. Verbosity 0 keeps its warnings about
    // damaged files off the terminal (the tool's result says what went wrong).
    document = await getDocument({ data: new Uint8Array(bytes), disableFontFace: true, useSystemFonts: false, verbosity: 0 }).promise;
  } catch (error) {
    const name = error instanceof Error ? error.name : "";
    const message = error instanceof Error ? error.message : String(error);
    throw new PdfOpenError(name === "PasswordException" ? "password" : "invalid", message);
  }
  const { info } = await document.getMetadata();
  const encrypted = typeof (info as Record<string, unknown>).EncryptFilterName === "string";
  return {
    pageCount: document.numPages,
    encrypted,
    extractPages: (first, last) => document.extractPages([{ document: null, includePages: [[first - 1, last - 1]] }]),
    pageText: async (number) => {
      const { items } = await (await document.getPage(number)).getTextContent();
      return items.map((item) => ("str" in item ? item.str + (item.hasEOL ? "\n" : "") : "")).join("");
    },
    close: () => document.loadingTask.destroy(),
  };
}
