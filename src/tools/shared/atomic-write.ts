/**
 * Writes a file so that readers see either the old or the new content, never a half-written
 * file: the data goes to a temp file in the same directory (same file system), then `rename`
 * replaces the target in one step.
 */
import { randomBytes } from "node:crypto";
import { open, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { fsErrorCode } from "./paths.ts";

/**
 * `mode` is the existing file's permission bits, kept on the new file; leave it undefined for a
 * new file, which then gets the process default (0o666 minus umask).
 */
export async function writeFileAtomic(target: string, data: string, mode?: number): Promise<void> {
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  let handle;
  try {
    handle = await open(temp, "wx", mode ?? 0o666);
  } catch (error) {
    // A writable file in a read-only directory can't get a sibling temp file; overwriting it in
    // place is the only way left, and still better than refusing.
    const code = fsErrorCode(error);
    if (mode !== undefined && (code === "EACCES" || code === "EPERM")) {
      await writeFile(target, data, "utf8");
      return;
    }
    throw error;
  }
  try {
    try {
      await handle.writeFile(data, "utf8");
      // `open` applies the umask; chmod sets the bits exactly as the original had them.
      if (mode !== undefined) await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
