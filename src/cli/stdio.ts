/**
 * Standard streams for the non-interactive paths (`-p`, `config`, `trust`, `--version`) without
 * creating `process.stdout`/`stderr`/`stdin`: the first touch of any of them builds Node's stream
 * machinery, measured at ~3 ms and ~6 MB of RSS in the compiled binary, for output that is
 * written whole anyway. Writes are synchronous, so nothing is left buffered at exit.
 */
import { fstatSync, readSync, writeSync } from "node:fs";
import { FatalError } from "../util/errors.ts";

type TtyBinding = { isTTY(fd: number): boolean };

/** Whether `fd` is a terminal: the runtime's native check when present, else node:tty's. */
export function isTerminal(fd: 0 | 1 | 2): boolean {
  try {
    const binding = (process as unknown as { binding(name: string): TtyBinding }).binding("tty_wrap");
    if (typeof binding.isTTY === "function") return binding.isTTY(fd);
  } catch {
    // Not provided by this runtime: fall through to the portable check.
  }
  const tty = require("node:tty") as typeof import("node:tty");
  return tty.isatty(fd);
}

function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error ? String(error.code) : undefined;
}

/**
 * Writes all of `text` to `fd`. A non-blocking pipe that is full answers EAGAIN: wait a moment
 * and go on, as a blocking write would. A reader that went away (EPIPE) ends the output quietly.
 */
export function writeAll(fd: 1 | 2, text: string): void {
  if (text === "") return;
  const bytes = Buffer.from(text);
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += writeSync(fd, bytes, offset, bytes.length - offset);
    } catch (error) {
      const code = errorCode(error);
      if (code === "EAGAIN" || code === "EWOULDBLOCK") {
        Bun.sleepSync(1);
        continue;
      }
      if (code === "EPIPE") return;
      throw error;
    }
  }
}

/**
 * Standard input read at once when reading cannot block: a regular file or a device such as
 * /dev/null (what `cmd < file`, CI runners and most process spawners give). Undefined for pipes
 * and sockets, which are read asynchronously. Input over STDIN_LIMIT is refused once that much is
 * read, so an endless device is refused rather than read forever.
 */
export function readStdinNow(): string | undefined {
  let kind: "file" | "device" | undefined;
  try {
    const stats = fstatSync(0);
    kind = stats.isFile() ? "file" : stats.isCharacterDevice() ? "device" : undefined;
  } catch {
    return undefined;
  }
  if (kind === undefined) return undefined;
  const chunks: Buffer[] = [];
  const buffer = Buffer.allocUnsafe(64 * 1024);
  for (let total = 0; ; ) {
    let read: number;
    try {
      read = readSync(0, buffer, 0, buffer.length, null);
    } catch {
      if (chunks.length === 0) return undefined;
      break;
    }
    if (read === 0) break;
    chunks.push(Buffer.from(buffer.subarray(0, read)));
    total += read;
    if (total > STDIN_LIMIT) throw stdinTooLarge();
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The most `-p` takes on standard input. */
export const STDIN_LIMIT = 10 * 1024 * 1024;

export function stdinTooLarge(): FatalError {
  return new FatalError("usage", "Error: Input from stdin is larger than 10 MB.", "Pass a smaller input or point clew at a file to read.");
}
