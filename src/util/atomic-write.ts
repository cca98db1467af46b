/**
 * Writes a file so that readers see either the old or the new content, never a half-written
 * file: the data goes to a temp file in the same directory (same file system), then `rename`
 * replaces the target in one step.
 */
import { close, closeSync, fchmodSync, fsync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * A sibling temp name, unique enough with the pid: it is opened with `wx`, which fails rather than
 * reuse a name, so it needs no cryptographic randomness (Web Crypto's first call costs a tool
 * call ~0.5 ms).
 */
function tempPathFor(target: string): string {
  const suffix = Math.floor(Math.random() * 0x1_0000_0000).toString(16).padStart(8, "0");
  return join(dirname(target), `.${basename(target)}.${process.pid}.${suffix}.tmp`);
}

/** Every byte of `data`: a write may take fewer bytes than it was given. */
function writeAll(fd: number, data: string): void {
  const bytes = Buffer.from(data, "utf8");
  for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written);
}

function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error ? String((error as { code: unknown }).code) : undefined;
}

/** Flushes to the disk still under way, each started by a write that has already returned. */
const flushing = new Set<Promise<void>>();

/** Resolves once every file written so far has reached the disk (a session waits for it as it ends). */
export async function writesFlushed(): Promise<void> {
  await Promise.allSettled([...flushing]);
}

/**
 * `mode` is the existing file's permission bits, kept on the new file; leave it undefined for a
 * new file, which then gets the process default (0o666 minus umask). The steps run synchronously
 * (five trips through the thread pool cost a tool call ~0.8 ms against ~0.1 ms for a source file)
 * up to the rename, which is what readers see; the flush to the disk (0.3 ms here, 1–6 ms on a
 * busy disk) follows in the thread pool and `writesFlushed()` waits for it.
 */
export async function writeFileAtomic(target: string, data: string, mode?: number): Promise<void> {
  const temp = tempPathFor(target);
  let fd: number;
  try {
    fd = openSync(temp, "wx", mode ?? 0o666);
  } catch (error) {
    // A writable file in a read-only directory can't get a sibling temp file; overwriting it in
    // place is the only way left, and still better than refusing.
    const code = errorCode(error);
    if (mode !== undefined && (code === "EACCES" || code === "EPERM")) {
      writeFileSync(target, data, "utf8");
      return;
    }
    throw error;
  }
  try {
    writeAll(fd, data);
    // `open` applies the umask; chmod sets the bits exactly as the original had them.
    if (mode !== undefined) fchmodSync(fd, mode);
    renameSync(temp, target);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  // The new content is in place for every reader; a failed flush (the disk went away) leaves it
  // in the page cache, as an unflushed write would, and is not the tool call's failure.
  const flush = new Promise<void>((resolve) => fsync(fd, () => close(fd, () => resolve())));
  flushing.add(flush);
  void flush.then(() => flushing.delete(flush));
}

/** The synchronous form, for the few small files written at start-up (settings, trust). */
export function writeFileAtomicSync(target: string, data: string): void {
  mkdirSync(dirname(target), { recursive: true });
  let mode: number | undefined;
  try {
    mode = statSync(target).mode & 0o777;
  } catch {
    mode = undefined;
  }
  const temp = tempPathFor(target);
  const fd = openSync(temp, "wx", mode ?? 0o644);
  try {
    try {
      writeAll(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
