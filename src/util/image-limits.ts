/**
 * The image formats the Messages API takes, told apart by their first bytes, and what it accepts
 * in one image block, checked before an image is sent (by Read, and for images pasted into or
 * @-attached to a prompt). An image over a limit makes the API refuse the whole request with a
 * 400, and since the image stays in the history every later request fails the same way; refusing
 * it first gives the model (or the user) an error to act on instead. Limits as the vision
 * documentation states them: at most 5 MB per image (measured on the base64 text: "image exceeds
 * 5 MB maximum: N bytes > 5242880 bytes") and at most 8000×8000 px. (The API lowers the pixel
 * limit to 2000×2000 for a request carrying more than 20 images; callers that send many images cap
 * their count.)
 */

export type ImageMediaType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

/** The image format from the file's first bytes (its name is not trusted). */
export function sniffImage(head: Uint8Array): ImageMediaType | undefined {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(head, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(head, ascii("GIF87a")) || startsWith(head, ascii("GIF89a"))) return "image/gif";
  if (startsWith(head, ascii("RIFF")) && startsWith(head.subarray(8), ascii("WEBP"))) return "image/webp";
  return undefined;
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  if (bytes.length < prefix.length) return false;
  return prefix.every((byte, i) => bytes[i] === byte);
}

function ascii(text: string): number[] {
  return [...text].map((char) => char.charCodeAt(0));
}

export const MAX_IMAGE_BASE64_CHARS = 5 * 1024 * 1024;
/** The most raw bytes whose base64 form fits in MAX_IMAGE_BASE64_CHARS. */
export const MAX_IMAGE_BYTES = (MAX_IMAGE_BASE64_CHARS / 4) * 3;
export const MAX_IMAGE_EDGE_PX = 8000;

export interface ImageSize {
  width: number;
  height: number;
}

/** Why the API would refuse this image, as a phrase ("is 9000×20 px, …"), or undefined when it fits. */
export function imageLimitProblem(bytes: Uint8Array, mediaType: ImageMediaType): string | undefined {
  const tooLarge = byteSizeProblem(bytes.length);
  if (tooLarge) return tooLarge;
  const size = imageSize(bytes, mediaType);
  if (size && (size.width > MAX_IMAGE_EDGE_PX || size.height > MAX_IMAGE_EDGE_PX)) {
    return `is ${size.width}×${size.height} px, larger than the ${MAX_IMAGE_EDGE_PX}×${MAX_IMAGE_EDGE_PX} px the API accepts`;
  }
  return undefined;
}

/** The byte-size half of imageLimitProblem, for checking a file before reading it. */
export function byteSizeProblem(byteLength: number): string | undefined {
  if (byteLength <= MAX_IMAGE_BYTES) return undefined;
  return `is ${formatBytes(byteLength)}, more than the ${formatBytes(MAX_IMAGE_BYTES)} the API accepts for one image (5 MB once base64-encoded)`;
}

/** Pixel size from the image's header; undefined when the header can't be read (the API then decides). */
export function imageSize(bytes: Uint8Array, mediaType: ImageMediaType): ImageSize | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  switch (mediaType) {
    case "image/png":
      // The IHDR chunk comes first: width and height as big-endian 32-bit integers.
      return bytes.length >= 24 ? { width: view.getUint32(16), height: view.getUint32(20) } : undefined;
    case "image/gif":
      return bytes.length >= 10 ? { width: view.getUint16(6, true), height: view.getUint16(8, true) } : undefined;
    case "image/webp":
      return webpSize(bytes, view);
    case "image/jpeg":
      return jpegSize(bytes, view);
  }
}

function webpSize(bytes: Uint8Array, view: DataView): ImageSize | undefined {
  const chunk = String.fromCharCode(...bytes.subarray(12, 16));
  if (chunk === "VP8 " && bytes.length >= 30) {
    return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
  }
  if (chunk === "VP8L" && bytes.length >= 25) {
    // 14 bits each for width-1 and height-1, packed little-endian after the 0x2f signature byte.
    const bits = view.getUint32(21, true);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X" && bytes.length >= 30) {
    const uint24 = (at: number) => (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8) | ((bytes[at + 2] ?? 0) << 16);
    return { width: uint24(24) + 1, height: uint24(27) + 1 };
  }
  return undefined;
}

/** Walks the JPEG segments to the first start-of-frame marker, which holds the frame's size. */
function jpegSize(bytes: Uint8Array, view: DataView): ImageSize | undefined {
  let at = 2;
  while (at + 9 <= bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1] ?? 0;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    // Markers without a length: TEM, RST0–7, SOI, EOI.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd9)) {
      at += 2;
      continue;
    }
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return { width: view.getUint16(at + 7), height: view.getUint16(at + 5) };
    at += 2 + view.getUint16(at + 2);
  }
  return undefined;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(2)} MB`;
}
