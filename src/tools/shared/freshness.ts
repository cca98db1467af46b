/**
 * The guard Write and Edit share: an existing file may only be changed when the model has read
 * it in this session and nothing changed it on disk since (compared by mtime and size), so the
 * model never overwrites text it has not seen.
 */
import { statSync, type Stats } from "node:fs";
import { ToolError } from "../../util/errors.ts";
import type { ToolSession } from "../types.ts";
import { fsToolError, isMissing, trackerKeySync } from "./paths.ts";

export interface ExistingFile {
  /** The real path (symlinks resolved): where to write, and the FileTracker key. */
  target: string;
  stat: Stats;
  /** Permission bits to keep on the rewritten file. */
  mode: number;
}

export type ChangeAction = "writing to" | "editing";

/**
 * Checks the file at `absPath` before a Write or Edit. Returns undefined when there is no file
 * (the caller creates one); throws a ToolError when the path is a directory or the model's view
 * of the file is missing or out of date.
 */
export async function checkBeforeChange(absPath: string, session: ToolSession, action: ChangeAction): Promise<ExistingFile | undefined> {
  let current: Stats;
  try {
    // Synchronous: a stat and a realpath are cheaper than two trips through the thread pool.
    current = statSync(absPath);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw fsToolError(error, absPath, "write") ?? error;
  }
  if (current.isDirectory()) {
    throw new ToolError(`${absPath} is a directory, not a file. Choose a file path inside it instead.`);
  }
  if (!current.isFile()) {
    throw new ToolError(`${absPath} is not a regular file (it is a device, socket or pipe); clew won't write to it.`);
  }
  const target = trackerKeySync(absPath);
  const seen = session.files.lastSeen(target);
  if (!seen) {
    throw new ToolError(`File has not been read yet. Read it first before ${action} it: ${absPath}`);
  }
  if (seen.mtimeMs !== current.mtimeMs || seen.size !== current.size) {
    throw new ToolError(
      `File ${absPath} has been modified since it was read, either by the user or by another process. ` +
        `Read it again before ${action} it.`,
    );
  }
  return { target, stat: current, mode: current.mode & 0o7777 };
}

/** Records the state of a file clew just wrote, so the model may Write or Edit it again. */
export async function rememberWritten(session: ToolSession, absPath: string): Promise<void> {
  const target = trackerKeySync(absPath);
  rememberStat(session, target, statSync(target));
}

export function rememberStat(session: ToolSession, key: string, info: Stats): void {
  session.files.remember(key, { mtimeMs: info.mtimeMs, size: info.size });
}
