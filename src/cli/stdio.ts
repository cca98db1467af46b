/**
 * Standard streams for the non-interactive paths (`-p`, `config`, `trust`, `--version`) without
 * creating `process.stdout`/`stderr`/`stdin`: the first touch of any of them builds Node's stream
 * machinery, measured at ~3 ms and ~6 MB of RSS in the compiled binary, for output that is
 * written whole anyway. Writes are synchronous, so nothing is left buffered at exit.
 */
import { writeSync } from "node:fs";

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
