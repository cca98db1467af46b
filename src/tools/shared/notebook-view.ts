/**
 * A notebook as Read returns it: every cell in order as `<cell id="…">` (the id NotebookEdit takes),
 * then its outputs — text cut to a bounded size with a marker, images as image blocks the model
 * can see. The whole view stays within a text budget and an image budget; cells past the budget
 * are named with a way to read them, never silently left out.
 */
import type { ImageBlockParam, TextBlockParam } from "@anthropic-ai/sdk/resources/messages";
import { truncateMiddle } from "../../util/truncate.ts";
import { sniffImage } from "./file-sniff.ts";
import { imageLimitProblem } from "./image-limits.ts";
import { cellIdOf, joinLines, type Notebook, type NotebookCell } from "./notebook.ts";

/** Characters of one output's text before the middle is cut. */
export const OUTPUT_MAX_CHARS = 10_000;
/** Characters of text one notebook Read returns (the executor's limit for a text result). */
export const NOTEBOOK_MAX_CHARS = 100_000;
/** The API lowers its pixel limit for a request with more than 20 images; one Read stays within that. */
export const NOTEBOOK_MAX_IMAGES = 20;
/** Base64 characters of images one Read returns: well inside the API's 32 MB request limit. */
export const NOTEBOOK_MAX_IMAGE_CHARS = 10 * 1024 * 1024;

const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"];
/** Text forms of a rich output, best first. */
const TEXT_TYPES = ["text/plain", "text/markdown", "text/latex", "application/json", "text/html"];
/** Terminal colour codes, which IPython tracebacks are full of. */
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]/g;

export type NotebookBlock = TextBlockParam | ImageBlockParam;

export interface NotebookView {
  content: NotebookBlock[];
  /** Cells shown (the rest were past the text budget). */
  shownCells: number;
  images: number;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Collects text and images in order, merging neighbouring text into one block. */
class Blocks {
  readonly content: NotebookBlock[] = [];
  private pending: string[] = [];
  textChars = 0;
  images = 0;
  imageChars = 0;

  text(piece: string): void {
    this.pending.push(piece);
    this.textChars += piece.length + 1;
  }

  image(block: ImageBlockParam, chars: number): void {
    this.flush();
    this.content.push(block);
    this.images += 1;
    this.imageChars += chars;
  }

  flush(): void {
    const text = this.pending.join("\n");
    this.pending = [];
    if (text.trim() !== "") this.content.push({ type: "text", text });
  }
}

export function renderNotebook(notebook: Notebook): NotebookView {
  const blocks = new Blocks();
  const { cells } = notebook;
  if (cells.length === 0) {
    return { content: [{ type: "text", text: `${notebook.path} is a notebook with no cells.` }], shownCells: 0, images: 0 };
  }
  let shown = 0;
  for (const [index, cell] of cells.entries()) {
    const id = cellIdOf(cell, index);
    let markup = cellMarkup(cell, id, notebook.language);
    const room = NOTEBOOK_MAX_CHARS - blocks.textChars;
    if (markup.length > room) {
      if (shown > 0) {
        blocks.text(remainingNote(notebook, index));
        break;
      }
      markup = truncateMiddle(markup, room);
    }
    blocks.text(markup);
    shown += 1;
    if (cell.cell_type === "code" && Array.isArray(cell.outputs)) {
      for (const output of cell.outputs) renderOutput(output, blocks);
    }
  }
  blocks.flush();
  return { content: blocks.content, shownCells: shown, images: blocks.images };
}

/** Claude Code's layout, which the model knows: type and language tags only where they aren't the default. */
function cellMarkup(cell: NotebookCell, id: string, language: string): string {
  const type = cell.cell_type === "code" ? "" : `<cell_type>${cell.cell_type}</cell_type>`;
  const lang = cell.cell_type === "code" && language !== "python" ? `<language>${language}</language>` : "";
  return `<cell id="${id}">${type}${lang}${joinLines(cell.source)}</cell id="${id}">`;
}

function remainingNote(notebook: Notebook, from: number): string {
  const total = notebook.cells.length;
  return (
    `[Cells ${from}–${total - 1} (${total - from} of ${total}) not shown: the notebook is longer than one Read returns. ` +
    `Read them with Bash, for example \`jq '.cells[${from}:${from + 10}]' ${notebook.path}\`; NotebookEdit takes cell-N (0-based index) as a cell_id.]`
  );
}

function renderOutput(output: unknown, blocks: Blocks): void {
  if (!isRecord(output)) return;
  switch (output.output_type) {
    case "stream":
      return outputText(joinLines(output.text), blocks);
    case "error": {
      // IPython's traceback already ends with "ename: evalue"; other kernels may send none.
      const traceback = Array.isArray(output.traceback) ? output.traceback.filter((line) => typeof line === "string").join("\n") : "";
      return outputText(traceback || `${String(output.ename ?? "Error")}: ${String(output.evalue ?? "")}`, blocks);
    }
    case "execute_result":
    case "display_data":
      return richOutput(isRecord(output.data) ? output.data : {}, blocks);
    default:
      return outputText(`[${String(output.output_type)} output not shown]`, blocks);
  }
}

function richOutput(data: Record<string, unknown>, blocks: Blocks): void {
  const imageType = IMAGE_TYPES.find((type) => type in data);
  if (imageType) return imageOutput(imageType, joinLines(data[imageType]), blocks);
  const textType = TEXT_TYPES.find((type) => type in data);
  if (!textType) return outputText(`[${Object.keys(data).join(", ") || "empty"} output not shown]`, blocks);
  const value = data[textType];
  outputText(textType === "application/json" && typeof value !== "string" ? JSON.stringify(value, null, 1) : joinLines(value), blocks);
}

function outputText(text: string, blocks: Blocks): void {
  const clean = text.replace(ANSI, "");
  const bounded = truncateMiddle(clean, OUTPUT_MAX_CHARS);
  const piece = `<output>${bounded}</output>`;
  if (blocks.textChars + piece.length > NOTEBOOK_MAX_CHARS) {
    blocks.text(`<output>[${clean.length} characters not shown: the notebook is longer than one Read returns]</output>`);
    return;
  }
  blocks.text(piece);
}

function imageOutput(declared: string, base64: string, blocks: Blocks): void {
  const bytes = Buffer.from(base64.replace(/\s+/g, ""), "base64");
  // The API refuses an image whose bytes don't match its media type, so the bytes decide.
  const mediaType = sniffImage(bytes);
  if (!mediaType) return outputText(`[${declared} output not shown: its data is not a PNG, JPEG, GIF or WebP image]`, blocks);
  const problem = imageLimitProblem(bytes, mediaType);
  if (problem) return outputText(`[${mediaType} output not shown: the image ${problem}]`, blocks);
  const data = bytes.toString("base64");
  if (blocks.images >= NOTEBOOK_MAX_IMAGES || blocks.imageChars + data.length > NOTEBOOK_MAX_IMAGE_CHARS) {
    return outputText(`[${mediaType} output not shown: this Read already carries ${blocks.images} images, the most one Read returns]`, blocks);
  }
  blocks.image({ type: "image", source: { type: "base64", media_type: mediaType, data } }, data.length);
}
