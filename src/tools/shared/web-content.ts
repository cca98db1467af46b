/**
 * What a fetched body is and how it becomes text: HTML (converted to Markdown), Markdown, JSON and
 * other text (passed through), or binary (refused, never decoded as text and sent to a model).
 */
export type ContentKind = "html" | "markdown" | "json" | "text" | "binary";

/** Characters of page text a prompt is applied over; the rest is cut with a note. */
export const MAX_PAGE_CHARS = 100_000;

const TEXT_APPLICATION = new Set([
  "application/javascript", "application/ecmascript", "application/x-javascript", "application/xml", "application/x-yaml",
  "application/yaml", "application/toml", "application/x-sh", "application/x-shellscript", "application/graphql",
  "application/sql", "application/x-httpd-php", "application/x-tex", "application/rtf", "application/x-ndjson",
  "application/csv", "application/x-www-form-urlencoded", "application/rss+xml", "application/atom+xml",
]);

export function mimeOf(contentType: string): string {
  return (contentType.split(";")[0] ?? "").trim().toLowerCase();
}

function charsetOf(contentType: string): string | undefined {
  return /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1]?.toLowerCase();
}

const hasBom16 = (bytes: Uint8Array) => (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);

/** NUL bytes in the first 8 KB mark binary data (UTF-16 text aside). */
function looksBinary(bytes: Uint8Array, charset: string | undefined): boolean {
  if (hasBom16(bytes) || charset?.startsWith("utf-16")) return false;
  const end = Math.min(bytes.length, 8192);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}

function sniff(bytes: Uint8Array): ContentKind {
  const head = new TextDecoder().decode(bytes.subarray(0, 512)).trimStart().toLowerCase();
  if (head.startsWith("<!doctype html") || head.startsWith("<html")) return "html";
  if (head.startsWith("{") || head.startsWith("[")) return "json";
  return "text";
}

export function contentKind(contentType: string, bytes: Uint8Array): ContentKind {
  const mime = mimeOf(contentType);
  if (looksBinary(bytes, charsetOf(contentType))) return "binary";
  if (mime === "") return sniff(bytes);
  if (mime === "text/html" || mime === "application/xhtml+xml") return "html";
  if (mime === "text/markdown" || mime === "text/x-markdown") return "markdown";
  if (mime === "application/json" || mime.endsWith("+json")) return "json";
  if (mime.startsWith("text/") || TEXT_APPLICATION.has(mime) || mime.endsWith("+xml")) return "text";
  return "binary";
}

/** The body as text, in the charset the response (or an HTML page's own `<meta>`) declares. */
export function decodeText(bytes: Uint8Array, contentType: string, kind: ContentKind): string {
  let charset = charsetOf(contentType);
  if (!charset && kind === "html") {
    const head = new TextDecoder("latin1").decode(bytes.subarray(0, 4096));
    charset = /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(head)?.[1]?.toLowerCase();
  }
  try {
    // Any label the WHATWG Encoding standard knows; the type lists only a few.
    return new TextDecoder((charset ?? "utf-8") as ConstructorParameters<typeof TextDecoder>[0]).decode(bytes);
  } catch {
    // A label the decoder does not know: UTF-8 is right for nearly every page today.
    return new TextDecoder("utf-8").decode(bytes);
  }
}

export interface CutText {
  text: string;
  /** Characters of the whole text, when it was cut. */
  cutFrom?: number;
}

/** At most `max` characters, cut at a line break near the limit when there is one. */
export function cutText(text: string, max = MAX_PAGE_CHARS): CutText {
  if (text.length <= max) return { text };
  const lineEnd = text.lastIndexOf("\n", max);
  const end = lineEnd > max * 0.9 ? lineEnd : max;
  return { text: text.slice(0, end), cutFrom: text.length };
}
