/**
 * Images in a typed prompt: an `@shot.png` mention, or an image file's path pasted or dragged into
 * the terminal (which types the path: quoted, with escaped spaces, or as a file:// URL). Each
 * becomes an image block in the user message, held to the limits Read applies, so an image the
 * API would refuse never enters the history (where it would fail every later request).
 */
import { closeSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { basename, relative } from "node:path";
import type { ImageBlockParam, TextBlockParam } from "@anthropic-ai/sdk/resources/messages";
import { byteSizeProblem, formatBytes, imageLimitProblem, imageSize, sniffImage } from "../util/image-limits.ts";

/** More images than this in one request lower the API's pixel limit to 2000×2000; a prompt stays under it. */
export const MAX_PROMPT_IMAGES = 20;

export type PromptBlock = TextBlockParam | ImageBlockParam;

export interface ImageAttachment {
  /** The line naming the image (and, for one not sent, why not). */
  text: string;
  /** That line, then the image; only the line when the image was refused (too large, too many). */
  blocks: PromptBlock[];
  /** One line for the screen: "Attached shot.png (1280×720 px, 245.0 KB)". */
  summary: string;
}

const HEAD_BYTES = 16;

/** The image at `path`, or undefined when the file is not an image (by its bytes, not its name). */
export function imageAttachment(path: string, cwd: string, imagesSoFar: number): ImageAttachment | undefined {
  const mediaType = sniffImage(readHead(path));
  if (!mediaType) return undefined;
  const shown = shownName(path, cwd);
  const refuse = (problem: string): ImageAttachment => {
    const text = `The user attached the image ${path}, but it was not sent: it ${problem}.`;
    return { text, blocks: [{ type: "text", text }], summary: `Not attached ${shown}: it ${problem}` };
  };
  if (imagesSoFar >= MAX_PROMPT_IMAGES) return refuse(`is past the ${MAX_PROMPT_IMAGES} images one prompt may carry`);
  const oversized = byteSizeProblem(statSync(path).size);
  if (oversized) return refuse(oversized);
  const bytes = readFileSync(path);
  const problem = imageLimitProblem(bytes, mediaType);
  if (problem) return refuse(problem);
  const size = imageSize(bytes, mediaType);
  const facts = [size ? `${size.width}×${size.height} px` : mediaType, formatBytes(bytes.length)].join(", ");
  const text = `The user attached the image ${path} (${facts}):`;
  return {
    text,
    blocks: [
      { type: "text", text },
      { type: "image", source: { type: "base64", media_type: mediaType, data: bytes.toString("base64") } },
    ],
    summary: `Attached ${shown} (${facts})`,
  };
}

const IMAGE_EXTENSION = String.raw`\.(?:png|jpe?g|gif|webp)`;
/** A quoted path or file:// URL ending in an image extension: 'x.png' or "x.png". */
const QUOTED = new RegExp(String.raw`(['"])((?:/|file://)[^'"\n]*?${IMAGE_EXTENSION})\1`, "gi");
/** An unquoted one, spaces escaped with a backslash, after a space or at the start (not after `@`). */
const BARE = new RegExp(String.raw`(?:^|(?<=\s))((?:/|file://)(?:\\.|[^\s\\'"])*?${IMAGE_EXTENSION})(?=$|[\s.,;:!?)\]])`, "gim");

/**
 * Absolute image paths the way terminals paste a dropped or copied file: `'/a b/shot.png'`,
 * `"/a b/shot.png"`, `/a\ b/shot.png`, `file:///a%20b/shot.png`, or plain. Whether each names a
 * real image is for the caller to check.
 */
export function pastedImagePaths(prompt: string): string[] {
  const found: Array<{ at: number; path: string }> = [];
  for (const match of prompt.matchAll(QUOTED)) found.push({ at: match.index, path: fromPasted(match[2] ?? "", false) });
  // Blanked out, so a quoted path's inside is not read a second time as a bare one.
  const unquoted = prompt.replace(QUOTED, (whole) => " ".repeat(whole.length));
  for (const match of unquoted.matchAll(BARE)) found.push({ at: match.index, path: fromPasted(match[1] ?? "", true) });
  const inOrder = found.sort((a, b) => a.at - b.at).map(({ path }) => path);
  return [...new Set(inOrder.filter((path) => path !== ""))];
}

function fromPasted(text: string, escaped: boolean): string {
  if (text.startsWith("file://")) {
    try {
      return decodeURIComponent(new URL(text).pathname);
    } catch {
      return "";
    }
  }
  return escaped ? text.replace(/\\(.)/g, "$1") : text;
}

function readHead(path: string): Uint8Array {
  const fd = openSync(path, "r");
  try {
    const head = Buffer.alloc(HEAD_BYTES);
    return head.subarray(0, readSync(fd, head, 0, HEAD_BYTES, 0));
  } finally {
    closeSync(fd);
  }
}

function shownName(path: string, cwd: string): string {
  const inside = relative(cwd, path);
  return inside === "" || inside.startsWith("..") ? basename(path) : inside;
}
