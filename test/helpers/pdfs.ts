/** Real PDFs made with pdf-lib for tests: each page says which page it is, so a test can tell pages apart. */
import { PDFDocument, StandardFonts } from "pdf-lib";

export async function pdfWithPages(count: number, options: { textless?: boolean; paddingBytes?: number } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  // Random bytes don't compress, so the file grows by about this much.
  if (options.paddingBytes) await doc.attach(crypto.getRandomValues(new Uint8Array(options.paddingBytes)), "padding.bin", { mimeType: "application/octet-stream" });
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let number = 1; number <= count; number += 1) {
    const page = doc.addPage([300, 200]);
    if (options.textless) page.drawRectangle({ x: 20, y: 20, width: 100 + number, height: 50 });
    else page.drawText(`This is page ${number}.`, { x: 20, y: 100, size: 14, font });
  }
  return doc.save();
}

/** The text of each page of a PDF, through the same library Read uses for text. */
export async function pageTexts(pdf: Uint8Array): Promise<string[]> {
  const { extractText, getDocumentProxy } = await import("unpdf");
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: false });
  return text.map((page) => page.trim());
}

/**
 * A PDF with a Standard security handler whose user password is not the empty one, so no reader
 * opens it without the password (pdf-lib writes it; the check values are not from a real password).
 */
export async function passwordProtectedPdf(): Promise<Uint8Array> {
  const { PDFHexString } = await import("pdf-lib");
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([300, 200]).drawText("secret", { x: 20, y: 100, size: 14, font });
  const security = doc.context.obj({ Filter: "Standard", V: 1, R: 2, O: PDFHexString.of("00".repeat(32)), U: PDFHexString.of("11".repeat(32)), P: -4 });
  doc.context.trailerInfo.Encrypt = doc.context.register(security);
  doc.context.trailerInfo.ID = doc.context.obj([PDFHexString.of("ab".repeat(16)), PDFHexString.of("ab".repeat(16))]);
  return doc.save({ useObjectStreams: false });
}
