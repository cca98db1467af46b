import { closeSync, fstatSync, openSync, readFileSync, readSync, statSync, type Stats } from "node:fs";
import { extname } from "node:path";
import type { ImageBlockParam, TextBlockParam } from "@anthropic-ai/sdk/resources/messages";
import type { z } from "zod";
import { lazySchema } from "../util/lazy-schema.ts";
import { ToolError } from "../util/errors.ts";
import { rememberStat } from "./shared/freshness.ts";
import { looksBinary, sniffImage, sniffPdf, SNIFF_BYTES, type ImageMediaType } from "./shared/file-sniff.ts";
import { byteSizeProblem, formatBytes, imageLimitProblem } from "./shared/image-limits.ts";
import { readLineWindow, type ByteSource, type WindowLine } from "./shared/line-window.ts";
import { parseNotebook } from "./shared/notebook.ts";
import { pdfRangeOf, readPdf } from "./shared/pdf.ts";
import { renderNotebook } from "./shared/notebook-view.ts";
import { fsToolError, isMissing, missingFileError, resolveToolPath, trackerKeySync } from "./shared/paths.ts";
import { defineTool, type ToolOutput, type ToolSession } from "./types.ts";
import description from "./read.md" with { type: "text" };

/** Past this size Read stops counting lines after the window, so paging a huge file stays cheap. */
const COUNT_LINES_UP_TO_BYTES = 32 * 1024 * 1024;
/** A notebook is parsed whole; past this size its JSON is better read with Bash and jq. */
const MAX_NOTEBOOK_BYTES = 64 * 1024 * 1024;

const input = lazySchema((z) =>
  z.object({
    file_path: z.string().describe("Absolute path of the file"),
    offset: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe("1-based line to start at (for large files)"),
    limit: z
      .number()
      .int()
      .positive()
      .optional()
      .describe("Number of lines to read (for large files)"),
    pages: z
      .string()
      .optional()
      .describe('PDF page range, e.g. "1-5" or "3"'),
  }),
);

export interface ReadTextData {
  type: "text";
  file: { filePath: string; content: string; numLines: number; startLine: number; totalLines?: number };
}

export interface ReadNotebookData {
  type: "notebook";
  /** Cells and images are only in the content blocks, so transcripts don't store them twice. */
  file: { filePath: string; cellCount: number; shownCells: number; images: number };
}

export interface ReadImageData {
  type: "image";
  /** The image itself is only in the content block, so transcripts don't store it twice. */
  file: { filePath: string; type: ImageMediaType; originalSize: number };
}

export const readTool = defineTool({
  name: "Read",
  description,
  get input() {
    return input();
  },
  access: "read",
  subject: (args, session) => resolveToolPath(args.file_path, session),
  // Synchronous file-descriptor calls: each asynchronous one is a trip through the runtime's
  // thread pool (≈ 0.1 ms), and a Read made seven of them (≈ 0.9 ms for a 100-line file, vs
  // ≈ 0.2 ms now). Big files are still read in 64 KB chunks, with the abort signal checked between.
  async run(args, { session, signal }) {
    const absPath = resolveToolPath(args.file_path, session);
    // A malformed range is the model's to fix whatever the file turns out to be.
    pdfRangeOf(args.pages);
    await statReadable(absPath, session);
    let fd: number;
    try {
      fd = openSync(absPath, "r");
    } catch (error) {
      throw fsToolError(error, absPath, "read") ?? error;
    }
    try {
      const fileStat = fstatSync(fd);
      const head = readHead(fd, fileStat.size);
      const mediaType = sniffImage(head);
      let output: ToolOutput;
      const isPdf = sniffPdf(head) || extname(absPath).toLowerCase() === ".pdf";
      if (args.pages !== undefined && !isPdf) {
        throw new ToolError(`pages applies to PDF files only, and ${absPath} is not one. Leave pages out${mediaType ? "" : ", and use offset and limit for parts of a text file"}.`);
      }
      if (mediaType) {
        output = readImage(fd, absPath, fileStat.size, mediaType);
      } else if (isPdf) {
        output = await readPdf({ absPath, size: fileStat.size, readBytes: () => readFileSync(fd), pages: args.pages, session, signal });
      } else if (extname(absPath).toLowerCase() === ".ipynb") {
        output = await readNotebook(fd, absPath, fileStat, { offset: args.offset, limit: args.limit, signal }, session);
      } else if (looksBinary(absPath, head)) {
        throw new ToolError(
          `${absPath} is a binary file and can't be read as text. If you need to inspect it, use Bash ` +
            "with a suitable tool (for example `file`, `xxd | head` or `unzip -l`).",
        );
      } else {
        output = await readText(descriptorSource(fd), absPath, fileStat, { offset: args.offset, limit: args.limit, signal }, session);
      }
      rememberStat(session, trackerKeySync(absPath), fileStat);
      return output;
    } finally {
      closeSync(fd);
    }
  },
});

function descriptorSource(fd: number): ByteSource {
  return { read: async (buffer, offset, length, position) => ({ bytesRead: readSync(fd, buffer, offset, length, position) }) };
}

async function statReadable(absPath: string, session: ToolSession): Promise<void> {
  let info: Stats;
  try {
    info = statSync(absPath);
  } catch (error) {
    if (isMissing(error)) throw await missingFileError(absPath, session);
    throw fsToolError(error, absPath, "read") ?? error;
  }
  if (info.isDirectory()) {
    throw new ToolError(
      `${absPath} is a directory, not a file. To see what it contains, use Bash with \`ls ${absPath}\` ` +
        `or the Glob tool with path "${absPath}".`,
    );
  }
  if (!info.isFile()) {
    throw new ToolError(`${absPath} is not a regular file (it is a device, socket or pipe) and can't be read.`);
  }
}

function readHead(fd: number, size: number): Uint8Array {
  const head = Buffer.alloc(Math.min(size, SNIFF_BYTES));
  const bytesRead = readSync(fd, head, 0, head.length, 0);
  return head.subarray(0, bytesRead);
}

function readImage(fd: number, absPath: string, size: number, mediaType: ImageMediaType): ToolOutput {
  const tooLarge = (problem: string) =>
    new ToolError(
      `Image ${absPath} ${problem}. Make a smaller copy (for example with \`convert -resize 50%\` or \`sips -Z 1600\`) and Read that instead.`,
    );
  const oversized = byteSizeProblem(size);
  if (oversized) throw tooLarge(oversized);
  const bytes = readFileSync(fd);
  const problem = imageLimitProblem(bytes, mediaType);
  if (problem) throw tooLarge(problem);
  const text: TextBlockParam = { type: "text", text: `Image file: ${absPath} (${mediaType}, ${formatBytes(size)})` };
  const image: ImageBlockParam = {
    type: "image",
    source: { type: "base64", media_type: mediaType, data: bytes.toString("base64") },
  };
  const data: ReadImageData = { type: "image", file: { filePath: absPath, type: mediaType, originalSize: size } };
  return { content: [text, image], display: { summary: `Read image (${formatBytes(size)})` }, data };
}

/** Cells with their outputs; a file that isn't notebook JSON (a merge conflict, say) is shown as text with a note. */
async function readNotebook(fd: number, absPath: string, fileStat: Stats, window: TextWindow, session: ToolSession): Promise<ToolOutput> {
  if (fileStat.size > MAX_NOTEBOOK_BYTES) {
    throw new ToolError(
      `Notebook ${absPath} is ${formatBytes(fileStat.size)}, too large to read whole. Read parts of its JSON with Bash, ` +
        `for example \`jq '.cells[0:10]' ${absPath}\`, or clear its outputs first (\`jupyter nbconvert --clear-output --inplace\`).`,
    );
  }
  let notebook;
  try {
    notebook = parseNotebook(new TextDecoder().decode(readFileSync(fd)), absPath);
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    const text = await readText(descriptorSource(fd), absPath, fileStat, window, session);
    return { ...text, content: `${error.message}\nIts text follows.\n\n${String(text.content)}` };
  }
  const view = renderNotebook(notebook);
  const count = notebook.cells.length;
  const data: ReadNotebookData = { type: "notebook", file: { filePath: absPath, cellCount: count, shownCells: view.shownCells, images: view.images } };
  const shown = view.shownCells < count ? `${view.shownCells} of ${count}` : `${count}`;
  return { content: view.content, display: { summary: `Read notebook (${shown} ${plural(count, "cell")})` }, data };
}

interface TextWindow {
  offset: number | undefined;
  limit: number | undefined;
  signal: AbortSignal;
}

async function readText(handle: ByteSource, absPath: string, fileStat: Stats, { offset, limit, signal }: TextWindow, session: ToolSession): Promise<ToolOutput> {
  if (fileStat.size === 0) {
    const data: ReadTextData = {
      type: "text",
      file: { filePath: absPath, content: "", numLines: 0, startLine: 1, totalLines: 0 },
    };
    return { content: `The file ${absPath} exists but is empty.`, display: { summary: "Read 0 lines (empty file)" }, data };
  }
  // Models often send offset 0 meaning "from the start"; line numbers begin at 1.
  const startLine = Math.max(1, offset ?? 1);
  const window = await readLineWindow(handle, fileStat.size, {
    startLine,
    maxLines: limit ?? session.limits.readDefaultLines,
    maxLineChars: session.limits.readMaxLineChars,
    countLinesUpToBytes: COUNT_LINES_UP_TO_BYTES,
    signal,
  });
  if (window.lines.length === 0) {
    const total = window.totalLines ?? 0;
    throw new ToolError(
      `${absPath} has only ${total} ${plural(total, "line")}, so offset ${startLine} is past the end. ` +
        `Use an offset between 1 and ${total}.`,
    );
  }
  const lastLine = startLine + window.lines.length - 1;
  let content = window.lines.map((line, index) => numbered(startLine + index, line)).join("\n");
  // About four characters a token, as the context estimate counts: a read this big would crowd out the conversation.
  const tokens = Math.ceil(content.length / 4);
  if (tokens > session.limits.readMaxTokens) {
    throw new ToolError(
      `File content (${tokens} tokens) exceeds maximum allowed tokens (${session.limits.readMaxTokens}). Please use offset and limit parameters to read specific portions of the file, or use the Grep tool to search for specific content.`,
    );
  }
  if (window.hasMore) {
    const shown = window.totalLines === undefined
      ? `Showing lines ${startLine}-${lastLine}; the file continues`
      : `Showing lines ${startLine}-${lastLine} of ${window.totalLines}`;
    content += `\n\n(${shown}. To read more, call Read again with offset=${lastLine + 1}.)`;
  }
  const data: ReadTextData = {
    type: "text",
    file: {
      filePath: absPath,
      content: window.lines.map((line) => line.text).join("\n"),
      numLines: window.lines.length,
      startLine,
      totalLines: window.totalLines,
    },
  };
  return { content, display: { summary: `Read ${window.lines.length} ${plural(window.lines.length, "line")}` }, data };
}

/** `cat -n` layout: the line number right-aligned in six columns, a tab, the line. */
function numbered(lineNumber: number, line: WindowLine): string {
  const cut = line.cutChars > 0 ? `… [line truncated, ${line.cutChars} more characters]` : "";
  return `${String(lineNumber).padStart(6)}\t${line.text}${cut}`;
}

function plural(count: number, word: string): string {
  return count === 1 ? word : `${word}s`;
}
