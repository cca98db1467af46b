/**
 * Decides what kind of file Read is looking at from its first bytes (and, for formats that are
 * never text, its extension): an image the model can see, a binary it can't, or text.
 */
import { extname } from "node:path";

export { sniffImage, type ImageMediaType } from "../../util/image-limits.ts";

/** How many leading bytes the sniffers need. */
export const SNIFF_BYTES = 8192;

/** Readers accept a PDF header anywhere in the first 1024 bytes (the PDF spec's own allowance). */
const PDF_HEADER_WINDOW = 1024;

/** True when the bytes carry a `%PDF-` header, whatever the file is called. */
export function sniffPdf(head: Uint8Array): boolean {
  return Buffer.from(head.buffer, head.byteOffset, Math.min(head.byteLength, PDF_HEADER_WINDOW)).includes("%PDF-", 0, "latin1");
}

const BINARY_EXTENSIONS = new Set([
  // archives and compressed data
  ".zip", ".gz", ".tgz", ".bz2", ".xz", ".zst", ".7z", ".rar", ".tar", ".jar", ".war", ".whl",
  // executables, objects, bytecode
  ".exe", ".dll", ".so", ".dylib", ".o", ".a", ".lib", ".obj", ".class", ".pyc", ".pyo", ".wasm", ".bin", ".node",
  // images, audio, video the model can't be shown
  ".bmp", ".ico", ".tif", ".tiff", ".heic", ".psd", ".mp3", ".wav", ".flac", ".ogg", ".mp4", ".mov", ".avi", ".mkv", ".webm",
  // documents, fonts, databases
  ".pdf", ".doc", ".docx", ".xls", ".xlsx", ".ppt", ".pptx", ".woff", ".woff2", ".ttf", ".otf", ".eot",
  ".sqlite", ".sqlite3", ".db", ".dat",
]);

/** True for files that can't be shown as text: a NUL byte in the first 8 KB, or a known binary extension. */
export function looksBinary(path: string, head: Uint8Array): boolean {
  if (BINARY_EXTENSIONS.has(extname(path).toLowerCase())) return true;
  return head.subarray(0, SNIFF_BYTES).includes(0);
}
