/**
 * The in-process Grep backend, used when ripgrep is not installed. It mirrors ripgrep's file
 * selection (ignore-walk.ts), `--glob`/`--type` semantics, binary handling and output order, so
 * the formatted result is the same as with ripgrep.
 */
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { ToolError } from "../../util/errors.ts";
import { compilePattern, type CompiledPattern } from "./grep-regex.ts";
import {
  binaryMatchNotice,
  FILE_TYPES,
  MAX_LINE_BYTES,
  MAX_OUTPUT_BYTES,
  omittedLineMarker,
  type ContentItem,
  type GrepRaw,
  type GrepRequest,
} from "./grep-request.ts";
import { walkFiles, WalkLimitExceeded, type OverrideVerdict } from "./ignore-walk.ts";

/** Larger files are skipped rather than read into memory whole. */
const MAX_FILE_BYTES = 256 * 1024 * 1024;
const READ_AHEAD = 16;

/** A file's text; its lines are split only when the pattern's prefilter finds it may match (most files never are). */
class FileText {
  private split: string[] | undefined;

  constructor(
    readonly text: string,
    /** Offset of the first NUL byte when an explicitly named file is binary. */
    readonly binaryAt?: number,
  ) {}

  get lines(): string[] {
    if (!this.split) {
      const lines = this.text.split("\n");
      if (lines[lines.length - 1] === "") lines.pop();
      this.split = lines;
    }
    return this.split;
  }
}

interface Collector {
  files: string[];
  counts: Array<{ path: string; count: number }>;
  items: ContentItem[];
  printedAny: boolean;
  bytes: number;
}

export async function grepWithJs(request: GrepRequest, signal: AbortSignal): Promise<GrepRaw> {
  return (await search(request, signal, candidateFiles(request, signal), undefined, readFile)) as GrepRaw;
}

/** Limits for {@link grepSmallTree}: past either, the search is left to ripgrep. */
export interface TreeBudget {
  files: number;
  bytes: number;
  /** Directories listed: a tree of many small folders is cut short before its files are counted. */
  directories: number;
}

/**
 * The in-process search when the tree is small enough that starting ripgrep would cost more than
 * the search itself (a ripgrep process measured ≈ 2.5 ms; a dozen small files in process ≈ 1 ms),
 * or undefined as soon as the tree turns out to be bigger than `budget`.
 */
export async function grepSmallTree(request: GrepRequest, signal: AbortSignal, budget: TreeBudget): Promise<GrepRaw | undefined> {
  const paths: string[] = [];
  try {
    for await (const path of candidateFiles(request, signal, budget.directories)) {
      paths.push(path);
      if (paths.length > budget.files) return undefined;
    }
  } catch (error) {
    if (error instanceof WalkLimitExceeded) return undefined;
    throw error;
  }
  return search(request, signal, paths, budget.bytes, readSmall);
}

async function search(
  request: GrepRequest,
  signal: AbortSignal,
  paths: AsyncIterable<string> | Iterable<string>,
  maxBytes: number | undefined,
  read: ReadBytes,
): Promise<GrepRaw | undefined> {
  const compiled = compilePattern(request.pattern, request);
  const out: Collector = { files: [], counts: [], items: [], printedAny: false, bytes: 0 };
  let incomplete = false;
  let readBytes = 0;
  // Files are read a few at a time ahead of the search, which still goes in walk order.
  const ahead: Array<{ path: string; file: Promise<FileText | undefined> }> = [];
  const searchNext = async (): Promise<void> => {
    const next = ahead.shift();
    if (signal.aborted) throw new ToolError("Search aborted", "aborted");
    const file = next && (await next.file);
    if (file) readBytes += file.text.length;
    if (next && file) searchFile(next.path, file, compiled, request, out);
    incomplete ||= out.bytes > MAX_OUTPUT_BYTES;
  };
  const overBudget = () => maxBytes !== undefined && readBytes > maxBytes;
  for await (const path of paths) {
    ahead.push({ path, file: readSearchable(path, request.rootIsFile, read) });
    if (ahead.length >= READ_AHEAD) await searchNext();
    if (overBudget()) return undefined;
    if (incomplete) break;
  }
  while (ahead.length > 0 && !incomplete) await searchNext();
  if (overBudget()) return undefined;
  if (request.mode === "files_with_matches") return { mode: request.mode, files: out.files, incomplete };
  if (request.mode === "count") return { mode: request.mode, counts: out.counts, incomplete };
  return { mode: request.mode, items: out.items, incomplete };
}

async function* candidateFiles(request: GrepRequest, signal: AbortSignal, maxDirectories?: number): AsyncGenerator<string> {
  // An explicitly named file is searched whatever the ignore files, globs or type say.
  if (request.rootIsFile) {
    yield request.root;
    return;
  }
  const types = request.type ? typeGlobs(request.type) : undefined;
  const walk = walkFiles(request.root, {
    signal,
    override: globOverride(request.globs),
    accept: types ? (_rel, name) => types.some((glob) => glob.match(name)) : undefined,
    maxDirectories,
  });
  for await (const file of walk) yield file.path;
}

function typeGlobs(type: string): Bun.Glob[] {
  const globs = FILE_TYPES[type];
  if (!globs) {
    const known = Object.keys(FILE_TYPES).join(", ");
    throw new ToolError(`Unknown file type "${type}". Known types: ${known}. Or use the glob parameter instead.`, "tool_input");
  }
  return globs.map((glob) => new Bun.Glob(glob));
}

/**
 * ripgrep's `--glob` semantics: gitignore-style globs relative to the search root (no `/` means
 * "at any depth"), the last matching glob wins, `!` excludes, and once any including glob is
 * given, files matching none are excluded. A verdict here overrides the ignore files.
 */
export function globOverride(globs: readonly string[]): ((rel: string, isDir: boolean) => OverrideVerdict) | undefined {
  if (globs.length === 0) return undefined;
  const rules = globs.map((raw) => {
    const exclude = raw.startsWith("!");
    let body = exclude ? raw.slice(1) : raw;
    const dirOnly = body.endsWith("/");
    if (dirOnly) body = body.slice(0, -1);
    const anchored = body.includes("/");
    if (body.startsWith("/")) body = body.slice(1);
    return { glob: new Bun.Glob(anchored ? body : `**/${body}`), exclude, dirOnly };
  });
  const anyInclude = rules.some((rule) => !rule.exclude);
  return (rel, isDir) => {
    let verdict: OverrideVerdict;
    for (const rule of rules) {
      if (rule.dirOnly && !isDir) continue;
      if (rule.glob.match(rel)) verdict = rule.exclude ? "exclude" : "include";
    }
    if (verdict === undefined && anyInclude && !isDir) return "exclude";
    return verdict;
  };
}

type ReadBytes = (path: string) => Promise<Uint8Array> | Uint8Array;

/**
 * A small tree's files are read synchronously: a dozen trips through the thread pool cost more
 * than the reads. A big tree is read asynchronously, a few files ahead of the search.
 */
const readSmall: ReadBytes = (path) => readFileSync(path);

async function readSearchable(path: string, explicit: boolean, read: ReadBytes = readFile): Promise<FileText | undefined> {
  let bytes: Uint8Array;
  try {
    bytes = await read(path);
  } catch {
    return undefined;
  }
  if (bytes.length > MAX_FILE_BYTES) return undefined;
  let text: string;
  let binaryAt: number | undefined;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) text = new TextDecoder("utf-16le").decode(bytes);
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) text = new TextDecoder("utf-16be").decode(bytes);
  else {
    const nul = bytes.indexOf(0);
    // Like ripgrep: binary files found by walking are skipped; a named one is searched with its
    // NUL bytes read as line breaks, and reported by a notice instead of its lines.
    if (nul >= 0 && !explicit) return undefined;
    text = new TextDecoder().decode(bytes);
    if (nul >= 0) {
      binaryAt = nul;
      text = text.replaceAll("\0", "\n");
    }
  }
  return new FileText(text, binaryAt);
}

function searchFile(path: string, file: FileText, compiled: CompiledPattern, request: GrepRequest, out: Collector): void {
  if (compiled.prefilter && !compiled.prefilter.test(file.text)) return;
  const { matched, count } = request.multiline
    ? matchMultiline(file, compiled.regex)
    : matchLines(file.lines, compiled.regex, request.mode === "files_with_matches");
  if (count === 0) return;
  if (request.mode === "files_with_matches") {
    out.files.push(path);
    out.bytes += path.length;
  } else if (request.mode === "count") {
    out.counts.push({ path, count });
    out.bytes += path.length;
  } else if (file.binaryAt !== undefined) {
    out.items.push({ kind: "note", text: binaryMatchNotice(path, file.binaryAt) });
    out.printedAny = true;
  } else {
    emitContent(path, file.lines, matched, request, out);
  }
}

function matchLines(lines: string[], regex: RegExp, firstOnly: boolean): { matched: boolean[]; count: number } {
  const matched: boolean[] = new Array<boolean>(lines.length).fill(false);
  let count = 0;
  for (let i = 0; i < lines.length; i++) {
    if (!regex.test(lines[i] ?? "")) continue;
    matched[i] = true;
    count++;
    if (firstOnly) break;
  }
  return { matched, count };
}

/** Every line a match touches is a matching line; the count is the number of matches. */
function matchMultiline(file: FileText, regex: RegExp): { matched: boolean[]; count: number } {
  const { lines, text } = file;
  const starts: number[] = [];
  let offset = 0;
  for (const line of lines) {
    starts.push(offset);
    offset += line.length + 1;
  }
  const matched: boolean[] = new Array<boolean>(lines.length).fill(false);
  let count = 0;
  regex.lastIndex = 0;
  for (let match = regex.exec(text); match; match = regex.exec(text)) {
    const start = match.index;
    const end = start + match[0].length;
    if (match[0].length === 0) regex.lastIndex = end + 1;
    // A match at the very end of the text, after the last line break, is on no line.
    if (start >= text.length && (text.endsWith("\n") || text.length === 0)) break;
    const first = lineAt(starts, start);
    const last = end > start ? lineAt(starts, end - 1) : first;
    for (let line = first; line <= last; line++) matched[line] = true;
    count++;
  }
  return { matched, count };
}

function lineAt(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((starts[mid] ?? 0) <= offset) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** Matching lines with their context, and `--` between groups that don't touch, as ripgrep prints. */
function emitContent(path: string, lines: string[], matched: boolean[], request: GrepRequest, out: Collector): void {
  const contextOn = request.before > 0 || request.after > 0;
  let last = -1;
  let afterLeft = 0;
  const push = (index: number, isMatch: boolean): void => {
    const raw = lines[index] ?? "";
    const text = Buffer.byteLength(raw) > MAX_LINE_BYTES ? omittedLineMarker(isMatch) : raw;
    out.items.push({ kind: "line", path, lineNumber: index + 1, isMatch, text });
    out.bytes += path.length + text.length + 8;
    last = index;
  };
  for (let i = 0; i < lines.length; i++) {
    if (matched[i]) {
      const start = Math.max(0, i - request.before, last + 1);
      if (contextOn && out.printedAny && (last < 0 || start > last + 1)) out.items.push({ kind: "separator" });
      for (let j = start; j < i; j++) push(j, false);
      push(i, true);
      out.printedAny = true;
      afterLeft = request.after;
    } else if (afterLeft > 0 && i === last + 1) {
      push(i, false);
      afterLeft--;
    }
  }
}
