/**
 * Path handling shared by the file tools: resolving what the model wrote into an absolute path,
 * the key the FileTracker uses, and helpful messages when a path is wrong.
 */
import { realpathSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { basename, dirname, extname, isAbsolute, join, resolve } from "node:path";
import { ClewError, ToolError } from "../../util/errors.ts";
import type { ToolSession } from "../types.ts";
import { editDistance } from "../../util/edit-distance.ts";

/** Absolute path for `filePath`: `~` expands to the session's HOME, relative paths resolve against cwd. */
export function resolveToolPath(filePath: string, session: ToolSession): string {
  const home = session.env.HOME;
  if (home && (filePath === "~" || filePath.startsWith("~/"))) {
    return resolve(home, filePath.slice(2));
  }
  return isAbsolute(filePath) ? resolve(filePath) : resolve(session.cwd, filePath);
}

/**
 * The FileTracker key for an existing file: its real path, so reading through a symlink and
 * editing the target (or the reverse) count as the same file. Falls back to the path as given.
 */
export function trackerKeySync(absPath: string): string {
  try {
    return realpathSync(absPath);
  } catch {
    return absPath;
  }
}

/** The node error code (`ENOENT`, `EACCES`, …) of a thrown value, if it has one. */
export function fsErrorCode(error: unknown): string | undefined {
  if (error instanceof ClewError) return undefined;
  if (typeof error === "object" && error !== null && "code" in error && typeof error.code === "string") {
    return error.code;
  }
  return undefined;
}

export function isMissing(error: unknown): boolean {
  const code = fsErrorCode(error);
  return code === "ENOENT" || code === "ENOTDIR";
}

/** ToolError for a path that does not exist, suggesting a similarly named sibling when there is one. */
export async function missingFileError(absPath: string, session: ToolSession): Promise<ToolError> {
  const similar = await findSimilarFile(absPath);
  const hint = similar ? ` Did you mean ${similar}?` : ` Current working directory: ${session.cwd}.`;
  return new ToolError(`File does not exist: ${absPath}.${hint}`);
}

/** Turns permission and read-only file system errors into messages the model can act on. */
export function fsToolError(error: unknown, absPath: string, action: "read" | "write"): ToolError | undefined {
  const code = fsErrorCode(error);
  if (code === "EACCES" || code === "EPERM") {
    return new ToolError(`Permission denied: cannot ${action} ${absPath}. Choose a different path or ask the user to fix the permissions.`);
  }
  if (code === "EROFS") return new ToolError(`Cannot ${action} ${absPath}: the file system is read-only.`);
  // mkdir reports EEXIST when a parent component exists as a file.
  if (code === "ENOTDIR" || code === "EEXIST") return new ToolError(`Cannot ${action} ${absPath}: a parent of this path is a file, not a directory.`);
  return undefined;
}

const MAX_SUGGESTION_DISTANCE = 2;

async function findSimilarFile(absPath: string): Promise<string | undefined> {
  const dir = dirname(absPath);
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch {
    return undefined;
  }
  const wanted = basename(absPath).toLowerCase();
  const wantedStem = stem(wanted);
  let best: { name: string; score: number } | undefined;
  for (const name of entries) {
    const lower = name.toLowerCase();
    let score: number;
    if (lower === wanted) score = 0;
    else if (stem(lower) === wantedStem) score = 1;
    else {
      const distance = editDistance(lower, wanted, MAX_SUGGESTION_DISTANCE);
      if (distance > MAX_SUGGESTION_DISTANCE || distance >= wanted.length / 2) continue;
      score = 1 + distance;
    }
    if (!best || score < best.score) best = { name, score };
  }
  return best ? join(dir, best.name) : undefined;
}

function stem(name: string): string {
  const ext = extname(name);
  return ext ? name.slice(0, -ext.length) : name;
}
