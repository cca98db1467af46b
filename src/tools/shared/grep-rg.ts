/**
 * The ripgrep Grep backend. Output is requested in a parseable form (`--null` after each path,
 * line numbers always on, sorted by path) and parsed into the same GrepRaw shape the in-process
 * backend produces; grep-format.ts renders both.
 */
import { dirname } from "node:path";
import { ToolError } from "../../util/errors.ts";
import { FILE_TYPES, MAX_LINE_BYTES, MAX_OUTPUT_BYTES, type ContentItem, type GrepRaw, type GrepRequest } from "./grep-request.ts";
import { VCS_DIRS } from "./ignore-walk.ts";

export function ripgrepArgs(request: GrepRequest): string[] {
  const args = [
    "--no-config", // a user's RIPGREP_CONFIG_PATH must not change the output format
    "--hidden",
    "--no-heading",
    "--with-filename",
    "--null",
    "--color=never",
    `--max-columns=${MAX_LINE_BYTES}`,
  ];
  if (request.ignoreCase) args.push("--ignore-case");
  if (request.multiline) args.push("--multiline", "--multiline-dotall");
  if (request.mode === "files_with_matches") args.push("--files-with-matches");
  else {
    // Sorting makes the order deterministic (and the same as the in-process walk).
    args.push("--sort=path");
    if (request.mode === "count") args.push("--count");
    else args.push("--line-number", `--before-context=${request.before}`, `--after-context=${request.after}`);
  }
  if (request.type) {
    // Our own definition when we have one, so both backends (and every rg version) agree.
    const globs = FILE_TYPES[request.type];
    if (globs) args.push(`--type-clear=${request.type}`, ...globs.map((glob) => `--type-add=${request.type}:${glob}`));
    args.push(`--type=${request.type}`);
  }
  for (const glob of request.globs) args.push(`--glob=${glob}`);
  // Last, so that no including glob can win over them.
  for (const dir of VCS_DIRS) args.push(`--glob=!${dir}`);
  args.push("--regexp", request.pattern, "--", request.root);
  return args;
}

export async function grepWithRipgrep(
  rgPath: string,
  request: GrepRequest,
  env: Readonly<Record<string, string>>,
  signal: AbortSignal,
): Promise<GrepRaw> {
  // `--glob` patterns are relative to ripgrep's working directory, so run it in the search root.
  const cwd = request.rootIsFile ? dirname(request.root) : request.root;
  // Bun.spawn throws instead of spawning when the signal has already fired.
  if (signal.aborted) throw new ToolError("Search aborted", "aborted");
  const child = Bun.spawn([rgPath, ...ripgrepArgs(request)], {
    cwd,
    env: { ...env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    signal,
  });
  const [stdout, stderr, exitCode] = await Promise.all([
    readCapped(child.stdout, MAX_OUTPUT_BYTES, () => child.kill()),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  if (signal.aborted) throw new ToolError("Search aborted", "aborted");
  if (!stdout.capped && exitCode !== 0 && exitCode !== 1 && stdout.text === "") throw ripgrepError(request, stderr, exitCode);
  const incomplete = stdout.capped;
  const text = stdout.capped ? dropPartialEntry(stdout.text, request.mode === "files_with_matches" ? "\0" : "\n") : stdout.text;
  if (request.mode === "files_with_matches") {
    return { mode: request.mode, files: text.split("\0").filter((path) => path.length > 0), incomplete };
  }
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  if (request.mode === "count") {
    const counts = lines.flatMap((line) => {
      const nul = line.lastIndexOf("\0");
      return nul < 0 ? [] : [{ path: line.slice(0, nul), count: Number(line.slice(nul + 1)) }];
    });
    return { mode: request.mode, counts, incomplete };
  }
  return { mode: request.mode, items: lines.map(parseContentLine), incomplete };
}

const CONTENT_LINE = /^(\d+)([:-])([\s\S]*)$/;

function parseContentLine(line: string): ContentItem {
  if (line === "--") return { kind: "separator" };
  const nul = line.indexOf("\0");
  const parsed = nul < 0 ? null : CONTENT_LINE.exec(line.slice(nul + 1));
  if (!parsed) return { kind: "note", text: line };
  const [, lineNumber = "0", separator, text = ""] = parsed;
  return { kind: "line", path: line.slice(0, nul), lineNumber: Number(lineNumber), isMatch: separator === ":", text };
}

function ripgrepError(request: GrepRequest, stderr: string, exitCode: number): ToolError {
  const detail = stderr.trim();
  if (/regex parse error|error parsing regex|not allowed in a regex/i.test(detail)) {
    return new ToolError(`Invalid regex pattern ${JSON.stringify(request.pattern)}: ${detail}`, "tool_input");
  }
  if (/unrecognized file type/i.test(detail)) {
    return new ToolError(`Unknown file type "${request.type ?? ""}" (${detail}). Use the glob parameter instead.`, "tool_input");
  }
  return new ToolError(`ripgrep failed (exit ${exitCode}): ${detail || "no error message"}`);
}

async function readCapped(stream: ReadableStream<Uint8Array>, cap: number, onCap: () => void): Promise<{ text: string; capped: boolean }> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
    if (size > cap) {
      onCap();
      await reader.cancel();
      return { text: Buffer.concat(chunks).toString("utf8"), capped: true };
    }
  }
  return { text: Buffer.concat(chunks).toString("utf8"), capped: false };
}

function dropPartialEntry(text: string, terminator: string): string {
  const end = text.lastIndexOf(terminator);
  return end < 0 ? "" : text.slice(0, end + 1);
}
