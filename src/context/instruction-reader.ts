/**
 * Reads memory files for the instruction loader: one place that decides whether a file is
 * loaded at all (excluded, already loaded under any name, too large, unreadable) and that
 * follows its `@path` imports. Every refusal becomes a problem string naming the file, never
 * an exception, so one bad file cannot stop a session from starting.
 */
import { readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { errorMessage } from "../util/errors.ts";
import { importReferences, stripHtmlComments } from "./markdown-scan.ts";

/** Who the file speaks for; decides the label the model sees. */
export type InstructionLabel = "user" | "project" | "local" | "memory";

/**
 * Why the file was loaded. Maps onto the InstructionsLoaded hook's `load_reason`:
 * start → session_start, nested → nested_traversal, rule → path_glob_match, import → include.
 */
export type InstructionReason = "start" | "import" | "nested" | "rule";

export interface InstructionFile {
  /** Absolute path as discovered (not symlink-resolved), shown to the model. */
  path: string;
  label: InstructionLabel;
  reason: InstructionReason;
  /** Text with block-level HTML comments (and a rule's frontmatter) removed; imports are separate entries. */
  content: string;
  /** The importing file, for `reason: "import"`. */
  parent?: string;
  /** The `paths:` globs of a conditional rule, for `reason: "rule"`. */
  globs?: string[];
}

export const MAX_IMPORT_DEPTH = 4;
export const MAX_MEMORY_FILE_BYTES = 4 * 1024 * 1024;

/** Tests a path against the `claudeMdExcludes` globs. */
export type ExcludeTest = (path: string) => boolean;

export interface ReaderOptions {
  homeDir: string;
  /** The repository root, else the working directory; project imports outside it are "external". */
  projectRoot: string;
  /** When false, imports from project and local files that resolve outside `projectRoot` are skipped. */
  allowExternalImports: boolean;
  isExcluded: ExcludeTest;
}

/** Builds the exclusion test; minimatch is imported only when there is something to exclude. */
export async function excludeTest(patterns: readonly string[] | undefined): Promise<ExcludeTest> {
  if (!patterns || patterns.length === 0) return () => false;
  const { minimatch } = await import("minimatch");
  return (path) => patterns.some((pattern) => minimatch(path, pattern, { dot: true }));
}

/** The canonical name of a file, so a symlink and its target count as one file. */
export function canonicalPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

export function isFile(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
}

function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

export function resolveImport(reference: string, importer: string, homeDir: string): string {
  if (reference.startsWith("~/")) return join(homeDir, reference.slice(2));
  return resolve(dirname(importer), reference);
}

export class InstructionReader {
  readonly problems: string[] = [];

  constructor(
    private readonly options: ReaderOptions,
    /** Canonical paths of every file loaded so far; shared with later nested loads. */
    readonly loaded: Set<string>,
  ) {}

  /** Whether `path` would be considered at all: an existing file that no exclude pattern matches. */
  isCandidate(path: string): boolean {
    if (!isFile(path)) return false;
    return !this.options.isExcluded(path) && !this.options.isExcluded(canonicalPath(path));
  }

  /** The first candidate that exists and is not excluded (`AGENTS.md`, else `CLAUDE.md`, …). */
  firstCandidate(paths: readonly string[]): string | undefined {
    return paths.find((path) => this.isCandidate(path));
  }

  isLoaded(path: string): boolean {
    return this.loaded.has(canonicalPath(path));
  }

  /** The file's text, or undefined (with a problem) when it is too large or unreadable. */
  readText(path: string): string | undefined {
    try {
      const size = statSync(path).size;
      if (size > MAX_MEMORY_FILE_BYTES) {
        this.problems.push(`${path}: skipped, larger than 4 MiB (${size} bytes)`);
        return undefined;
      }
      return readFileSync(path, "utf8").replace(/^\uFEFF/, "").replace(/\r\n/g, "\n");
    } catch (error) {
      this.problems.push(`${path}: could not be read: ${errorMessage(error)}`);
      return undefined;
    }
  }

  /** Loads a file and its imports into `out`, unless it is excluded or already loaded. */
  addFile(path: string, label: InstructionLabel, reason: InstructionReason, out: InstructionFile[]): void {
    if (this.isLoaded(path) || !this.isCandidate(path)) return;
    const text = this.readText(path);
    if (text !== undefined) this.addContent({ path, label, reason, content: text }, out, 0);
  }

  /**
   * Adds an already-read file, then the files it imports right after it (depth first), as the
   * observed Claude Code rendering does. A file reached twice (a cycle, or two importers) is
   * added once.
   */
  addContent(file: InstructionFile, out: InstructionFile[], depth: number): void {
    const key = canonicalPath(file.path);
    if (this.loaded.has(key)) return;
    this.loaded.add(key);
    const content = stripHtmlComments(file.content);
    out.push({ ...file, content });
    for (const reference of importReferences(content)) {
      this.followImport(reference, { ...file, content }, out, depth);
    }
  }

  private followImport(reference: string, importer: InstructionFile, out: InstructionFile[], depth: number): void {
    const target = this.locateImport(reference, importer.path);
    if (!target) {
      const expected = resolveImport(reference, importer.path, this.options.homeDir);
      this.problems.push(`${importer.path}: import @${reference} not found (no file at ${expected})`);
      return;
    }
    if (this.isLoaded(target)) return;
    if (depth >= MAX_IMPORT_DEPTH) {
      this.problems.push(`${importer.path}: import @${reference} not followed, imports nest more than ${MAX_IMPORT_DEPTH} levels deep`);
      return;
    }
    const external = importer.label === "project" || importer.label === "local";
    if (external && !this.options.allowExternalImports && !isInside(canonicalPath(target), canonicalPath(this.options.projectRoot))) {
      this.problems.push(`${importer.path}: import @${reference} not followed, it is outside the project and external imports are not approved`);
      return;
    }
    if (this.options.isExcluded(target) || this.options.isExcluded(canonicalPath(target))) return;
    const text = this.readText(target);
    if (text === undefined) return;
    this.addContent({ path: target, label: importer.label, reason: "import", content: text, parent: importer.path }, out, depth + 1);
  }

  /**
   * The file a reference names. Sentence punctuation after a reference ("see @README.md.") is
   * dropped when the reference as written names nothing.
   */
  private locateImport(reference: string, importer: string): string | undefined {
    const asWritten = resolveImport(reference, importer, this.options.homeDir);
    if (isFile(asWritten)) return asWritten;
    const trimmed = reference.replace(/[.,;:!?)\]}'"]+$/, "");
    if (trimmed === reference || trimmed === "") return undefined;
    const withoutPunctuation = resolveImport(trimmed, importer, this.options.homeDir);
    return isFile(withoutPunctuation) ? withoutPunctuation : undefined;
  }
}
