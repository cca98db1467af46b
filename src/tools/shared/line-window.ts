/**
 * Reads a window of lines from a file without loading the whole file: it scans bytes in chunks
 * for newlines and decodes only the lines inside the window, so `offset` deep into a 1 GB file
 * costs a byte scan, not a decode, and a giant single line is never held in memory whole.
 */
/** What the window reads through: a FileHandle, or Read's synchronous file descriptor reader. */
export interface ByteSource {
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
}

export interface LineWindowOptions {
  /** 1-based first line to return. */
  startLine: number;
  maxLines: number;
  /** Characters kept per line; the rest is counted, not kept. */
  maxLineChars: number;
  /** Keep scanning after the window to count every line, but only for files up to this size. */
  countLinesUpToBytes: number;
  /** Stops a long scan when the user interrupts. */
  signal?: AbortSignal;
}

export interface WindowLine {
  /** The line without its `\n` / `\r\n`, cut to `maxLineChars`. */
  text: string;
  /** Characters cut from the end of the line (0 when it was kept whole). */
  cutChars: number;
}

export interface LineWindow {
  lines: WindowLine[];
  /** Every line in the file, when it was counted (the scan reached the end of the file). */
  totalLines?: number;
  /** True when the file has content after the last returned line. */
  hasMore: boolean;
}

const CHUNK_BYTES = 64 * 1024;
const NEWLINE = 0x0a;

/** Collects one line's bytes: up to a byte budget kept, the rest decoded only to be counted. */
class LineCollector {
  private kept: Buffer[] = [];
  private keptBytes = 0;
  private overflowChars = 0;
  private overflowDecoder: TextDecoder | undefined;
  private endsWithCarriageReturn = false;

  // UTF-8 needs at most 4 bytes per character, so the byte budget always covers `maxChars`.
  constructor(private readonly maxChars: number) {}

  append(bytes: Uint8Array): void {
    const budget = this.maxChars * 4 - this.keptBytes;
    const keep = Math.max(0, Math.min(budget, bytes.length));
    if (keep > 0) {
      this.kept.push(Buffer.from(bytes.subarray(0, keep)));
      this.keptBytes += keep;
    }
    if (keep < bytes.length) {
      this.overflowDecoder ??= new TextDecoder("utf-8");
      this.overflowChars += this.overflowDecoder.decode(bytes.subarray(keep), { stream: true }).length;
    }
    if (bytes.length > 0) this.endsWithCarriageReturn = bytes[bytes.length - 1] === 0x0d;
  }

  finish(isFirstLine: boolean): WindowLine {
    let text = Buffer.concat(this.kept).toString("utf8");
    let cutChars = this.overflowChars + (this.overflowDecoder?.decode().length ?? 0);
    if (isFirstLine && text.startsWith("\uFEFF")) text = text.slice(1);
    // The `\r` of a CRLF ending is not content: drop it from the text, or from the cut count
    // when it sits in the part that was not kept.
    if (this.endsWithCarriageReturn) {
      if (cutChars > 0) cutChars -= 1;
      else text = text.slice(0, -1);
    }
    if (text.length > this.maxChars) {
      cutChars += text.length - this.maxChars;
      text = text.slice(0, this.maxChars);
    }
    return { text, cutChars };
  }
}

export async function readLineWindow(handle: ByteSource, size: number, options: LineWindowOptions): Promise<LineWindow> {
  const { startLine, maxLines, maxLineChars } = options;
  const endLine = startLine + maxLines; // exclusive
  const countAll = size <= options.countLinesUpToBytes;
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  const lines: WindowLine[] = [];

  let line = 1;
  let lineHasBytes = false;
  let collector: LineCollector | undefined;
  let position = 0;

  const inWindow = (): boolean => line >= startLine && line < endLine;

  while (position < size) {
    options.signal?.throwIfAborted();
    const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    const chunk = buffer.subarray(0, bytesRead);
    let index = 0;
    while (index < bytesRead) {
      const newline = chunk.indexOf(NEWLINE, index);
      const segmentEnd = newline === -1 ? bytesRead : newline;
      if (segmentEnd > index) {
        lineHasBytes = true;
        if (inWindow()) {
          collector ??= new LineCollector(maxLineChars);
          collector.append(chunk.subarray(index, segmentEnd));
        }
      }
      if (newline === -1) break;
      if (inWindow()) lines.push((collector ?? new LineCollector(maxLineChars)).finish(line === 1));
      collector = undefined;
      line += 1;
      lineHasBytes = false;
      index = newline + 1;
      if (line === endLine && !countAll) {
        return { lines, hasMore: position - bytesRead + index < size };
      }
    }
  }
  if (lineHasBytes) {
    if (inWindow()) lines.push((collector ?? new LineCollector(maxLineChars)).finish(line === 1));
    line += 1;
  }
  const totalLines = line - 1;
  return { lines, totalLines, hasMore: totalLines >= endLine };
}
