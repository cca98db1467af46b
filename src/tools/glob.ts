import { stat } from "node:fs/promises";
import { isAbsolute, resolve } from "node:path";
import type { z } from "zod";
import { lazySchema } from "../util/lazy-schema.ts";
import { ToolError } from "../util/errors.ts";
import { newestFirst } from "./shared/newest-first.ts";
import { VCS_DIRS, walkFiles } from "./shared/ignore-walk.ts";
import { isMissing, resolveToolPath } from "./shared/paths.ts";
import { defineTool, type ToolSession } from "./types.ts";
import description from "./glob.md" with { type: "text" };

export const GLOB_MAX_RESULTS = 100;
const TRUNCATED_NOTE = "(Results are truncated. Consider using a more specific path or pattern.)";

const input = lazySchema((z) =>
  z.object({
    pattern: z.string().describe("Glob pattern"),
    path: z
      .string()
      .optional()
      .describe("Directory to search (omit for the working directory)"),
  }),
);

export interface GlobData {
  filenames: string[];
  numFiles: number;
  truncated: boolean;
  durationMs: number;
}

export const globTool = defineTool({
  name: "Glob",
  description,
  get input() {
    return input();
  },
  access: "read",
  subject: (args, session) => searchDir(args.path, session),
  async run(args, { session, signal }) {
    const started = performance.now();
    const dir = searchDir(args.path, session);
    await requireDirectory(dir, session);
    const { base, pattern } = splitStaticPrefix(args.pattern, dir);
    const found = await matchFiles(base, pattern, signal);
    const denied = session.readDenied;
    const matches = denied ? found.filter((path) => !denied(path)) : found;
    const sorted = await newestFirst(matches);
    const filenames = sorted.slice(0, GLOB_MAX_RESULTS);
    const truncated = sorted.length > GLOB_MAX_RESULTS;
    const data: GlobData = { filenames, numFiles: filenames.length, truncated, durationMs: Math.round(performance.now() - started) };
    const summary = `Found ${filenames.length} ${filenames.length === 1 ? "file" : "files"}`;
    if (filenames.length === 0) return { content: "No files found", display: { summary }, data };
    const content = filenames.join("\n") + (truncated ? `\n${TRUNCATED_NOTE}` : "");
    return { content, display: { summary }, data };
  },
});

function searchDir(path: string | undefined, session: ToolSession): string {
  return path === undefined ? session.cwd : resolveToolPath(path, session);
}

async function requireDirectory(dir: string, session: ToolSession): Promise<void> {
  const dirStat = await stat(dir).catch((error: unknown) => {
    if (isMissing(error)) throw new ToolError(`Directory does not exist: ${dir}. Current working directory: ${session.cwd}.`, "tool_input");
    throw new ToolError(`Cannot search ${dir}: ${error instanceof Error ? error.message : String(error)}`);
  });
  if (!dirStat.isDirectory()) {
    throw new ToolError(`Path is not a directory: ${dir}. Pass a directory as path and put file name patterns in pattern.`, "tool_input");
  }
}

const GLOB_MAGIC = /[*?[\]{}!\\]/;

/**
 * Moves the pattern's leading literal directories into the base (`src/**\/*.ts` searches src/,
 * `../lib/*.js` searches ../lib, an absolute pattern searches from its own root), so only the
 * part that can match is walked, and a directory named there is searched even if ignored.
 */
export function splitStaticPrefix(pattern: string, dir: string): { base: string; pattern: string } {
  const parts = pattern.split("/");
  let base = isAbsolute(pattern) ? "/" : dir;
  let index = isAbsolute(pattern) ? 1 : 0;
  // A VCS directory stays in the pattern, so `.git/**` matches nothing rather than walking .git.
  while (index < parts.length - 1 && !GLOB_MAGIC.test(parts[index] ?? "") && !VCS_DIRS.includes(parts[index] ?? "")) {
    base = resolve(base, parts[index] ?? "");
    index++;
  }
  return { base, pattern: parts.slice(index).join("/") };
}

async function matchFiles(base: string, pattern: string, signal: AbortSignal): Promise<string[]> {
  const baseStat = await stat(base).catch(() => undefined);
  if (!baseStat?.isDirectory()) return [];
  const glob = new Bun.Glob(pattern);
  // Without `**` a pattern cannot match deeper than its number of path segments.
  const maxDepth = pattern.includes("**") ? undefined : pattern.split("/").length;
  const matches: string[] = [];
  for await (const file of walkFiles(base, { signal, maxDepth })) {
    if (glob.match(file.rel)) matches.push(file.path);
  }
  return matches;
}
