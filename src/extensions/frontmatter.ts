/**
 * Frontmatter of SKILL.md, command and agent files: found by line, parsed as YAML by gray-matter
 * (imported on first use, so a warm start that reads the index cache never loads it), and when
 * the YAML is broken — 35 real files in the corpus — recovered leniently instead of dropped.
 */
import type { ExtensionProblem, ProblemCode } from "./types.ts";
import { recoverFields } from "./lenient-frontmatter.ts";

export interface FrontmatterSplit {
  /** From the opening `---` through the closing one; undefined when the file has no frontmatter. */
  block: string | undefined;
  /** Where the body starts in the text, and its 1-based line. */
  bodyOffset: number;
  bodyLine: number;
  /** An opening `---` without a closing one (the caller may read more of the file first). */
  unclosed: boolean;
}

const OPEN = /^---[ \t]*\r?\n/;
const CLOSE = /^---[ \t]*$/;

/** Splits at the `---` fences: line 1 must be `---`, the block ends at the next `---` line. */
export function splitFrontmatter(text: string): FrontmatterSplit {
  const start = text.startsWith("\uFEFF") ? 1 : 0;
  const open = OPEN.exec(text.slice(start));
  if (!open) return { block: undefined, bodyOffset: start, bodyLine: 1, unclosed: false };
  let offset = start + open[0].length;
  let line = 2;
  while (offset <= text.length) {
    const end = text.indexOf("\n", offset);
    const lineText = (end < 0 ? text.slice(offset) : text.slice(offset, end)).replace(/\r$/, "");
    if (CLOSE.test(lineText)) {
      if (end < 0) return { block: text.slice(start), bodyOffset: text.length, bodyLine: line + 1, unclosed: false };
      return { block: text.slice(start, end + 1), bodyOffset: end + 1, bodyLine: line + 1, unclosed: false };
    }
    if (end < 0) break;
    offset = end + 1;
    line++;
  }
  return { block: undefined, bodyOffset: start, bodyLine: 1, unclosed: true };
}

export interface ParsedFrontmatter {
  data: Record<string, unknown>;
  mode: "yaml" | "lenient" | "none";
  /** The file line of each top-level key, for problems that name a field. */
  lines: Record<string, number>;
  problems: ExtensionProblem[];
}

type YamlParse = (block: string) => unknown;
let yamlParse: YamlParse | undefined;

function refuseEngine(): never {
  throw new Error("only YAML frontmatter is supported");
}

/**
 * gray-matter, with options so its content cache is bypassed (a cached failure would come back as
 * `data: {}` without an error) and with the `---js` / `---coffee` engines refused: they `eval`.
 */
async function yamlParser(): Promise<YamlParse> {
  if (yamlParse) return yamlParse;
  const matter = (await import("gray-matter")).default;
  const options = { engines: { javascript: refuseEngine, js: refuseEngine, coffee: refuseEngine } };
  yamlParse = (block) => matter(block, options).data;
  return yamlParse;
}

function isPlainMap(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** File line of every key that starts a line in column 0 of the block. */
function keyLines(block: string): Record<string, number> {
  const lines: Record<string, number> = {};
  block.split("\n").forEach((text, index) => {
    const key = /^([A-Za-z_][\w.-]*)\s*:/.exec(text)?.[1];
    if (key !== undefined && lines[key] === undefined) lines[key] = index + 1;
  });
  return lines;
}

interface YamlErrorShape {
  reason?: unknown;
  mark?: { line?: unknown };
  message?: unknown;
}

function describeYamlError(error: unknown): { reason: string; line: number | undefined } {
  const shape = (typeof error === "object" && error !== null ? error : {}) as YamlErrorShape;
  const reason = typeof shape.reason === "string" ? shape.reason : String(shape.message ?? error).split("\n")[0] ?? "";
  // gray-matter hands js-yaml the text right after the opening `---`, so its 0-based line 0 is file line 1.
  const line = typeof shape.mark?.line === "number" ? shape.mark.line + 1 : undefined;
  return { reason, line };
}

const SIMPLE_LINE = /^([A-Za-z_][\w-]*):[ \t]+(\S(?:.*\S)?)[ \t]*$/;
/** Plain scalars YAML would read as something other than the same string, or not at all. */
const NOT_PLAIN = /^[-?:,[\]{}#&*!|>'"%@`.+\d]|: |\s#|:$|^(?:true|false|yes|no|on|off|y|n|null|~)$/i;

/**
 * The common case without a YAML parser: every line `key: value`, each value a plain scalar YAML
 * reads as that very string. Anything else (quotes, lists, numbers, booleans, nesting, comments,
 * a repeated key) returns undefined and goes to gray-matter, which stays the authority.
 */
/** `[a, b]` of plain items, as YAML reads it; undefined for anything else. */
function plainList(value: string): string[] | undefined {
  if (!value.startsWith("[") || !value.endsWith("]")) return undefined;
  const inner = value.slice(1, -1).trim();
  if (inner === "") return [];
  const items = inner.split(",").map((item) => item.trim());
  return items.every((item) => item !== "" && !NOT_PLAIN.test(item) && !/[[\]{}]/.test(item)) ? items : undefined;
}

export function simpleFrontmatter(block: string): Record<string, string | string[]> | undefined {
  const body = block.replace(/^---[ \t]*\r?\n/, "").replace(/\r?\n?---[ \t]*\r?\n?$/, "");
  const data: Record<string, string | string[]> = {};
  for (const raw of body.split("\n")) {
    const line = raw.replace(/\r$/, "");
    if (line.trim() === "") continue;
    const match = SIMPLE_LINE.exec(line);
    const key = match?.[1];
    const value = match?.[2];
    if (key === undefined || value === undefined || Object.hasOwn(data, key)) return undefined;
    const parsed = NOT_PLAIN.test(value) ? plainList(value) : value;
    if (parsed === undefined) return undefined;
    data[key] = parsed;
  }
  return data;
}

/** Parses a split file's frontmatter; never throws. `knownFields` guide the lenient recovery. */
export async function parseFrontmatter(
  file: string,
  split: FrontmatterSplit,
  knownFields: ReadonlySet<string>,
): Promise<ParsedFrontmatter> {
  if (split.block === undefined) return { data: {}, mode: "none", lines: {}, problems: [] };
  const lines = keyLines(split.block);
  // Most frontmatter is a few plain lines: reading them needs no YAML library (gray-matter and
  // js-yaml cost ~40 ms and ~18 MB to load, measured), so a cold start rarely loads one.
  const simple = simpleFrontmatter(split.block);
  if (simple) return { data: simple, mode: "yaml", lines, problems: [] };
  const parse = await yamlParser();
  const block = split.block;
  // YAML that is not a map, or not YAML: the known fields are read line by line, with a warning.
  const lenient = (problem: (fields: string) => { code: ProblemCode; line: number | undefined; message: string }): ParsedFrontmatter => {
    const recovered = recoverFields(block, knownFields, parse);
    const { code, line, message } = problem(fieldsPhrase(Object.keys(recovered.data)));
    return { data: recovered.data, mode: "lenient", lines, problems: [{ code, severity: "warning", file, ...(line === undefined ? {} : { line }), message }] };
  };
  let failure: { reason: string; line: number | undefined };
  try {
    const data = parse(split.block);
    if (isPlainMap(data)) return { data, mode: "yaml", lines, problems: [] };
    if (data === undefined || data === null || (typeof data === "string" && data.trim() === "")) {
      return { data: {}, mode: "yaml", lines, problems: [] };
    }
    const shape = Array.isArray(data) ? "a list" : "a single value";
    return lenient((fields) => ({
      code: "frontmatter-not-map",
      line: 2,
      message: `frontmatter is ${shape}, not "key: value" lines; loaded with ${fields}. Write it as "name: …" and "description: …" lines.`,
    }));
  } catch (error) {
    failure = describeYamlError(error);
  }
  return lenient((fields) => ({
    code: "yaml-error",
    line: failure.line,
    message: `frontmatter is not valid YAML (${failure.reason}); loaded anyway with ${fields} read line by line. Quote values that contain ": " or start with "[" or "\\"", e.g. description: "…".`,
  }));
}

function fieldsPhrase(fields: readonly string[]): string {
  return fields.length === 0 ? "no fields" : `${fields.join(", ")}`;
}
