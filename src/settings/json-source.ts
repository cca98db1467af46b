/**
 * Strict JSON with positions. `jsonc-parser` (Microsoft's, the parser behind VS Code's settings
 * editor) is used because it reports offsets for every error and every node, which JSON.parse
 * doesn't; it runs in strict mode (comments and trailing commas are errors, as Claude Code
 * requires). The same library's error-tolerant mode recovers deny/ask rules from a broken file.
 */
import type { Node, ParseError } from "jsonc-parser";
import { formatKeyPath, type PathSegment } from "./key-path.ts";
import { jsonErrorText, stripBom } from "../util/json-text.ts";

type Jsonc = typeof import("jsonc-parser");
let jsonc: Jsonc | undefined;

/**
 * Loaded only when a file has a problem to place, is broken, or is edited: a session that only
 * reads valid files never evaluates it (its formatter alone builds ~1,200 indent strings on load).
 */
export function jsoncLibrary(): Jsonc {
  // The ES module build: the UMD one (what a bare require resolves to) loads its parts dynamically.
  jsonc ??= require("jsonc-parser/lib/esm/main.js") as Jsonc;
  return jsonc;
}

export interface Position {
  line: number;
  column: number;
}

export interface JsonSyntaxError extends Position {
  keyPath: string | undefined;
  message: string;
}

export interface ParsedJson {
  value: unknown;
  /** Position of the value at `path`, or of the nearest existing ancestor. */
  locate(path: readonly PathSegment[]): Position | undefined;
}

export type ParseOutcome = { ok: true; json: ParsedJson } | { ok: false; error: JsonSyntaxError };

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

function positionOf(starts: readonly number[], offset: number): Position {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((starts[mid] as number) <= offset) low = mid;
    else high = mid - 1;
  }
  return { line: low + 1, column: offset - (starts[low] as number) + 1 };
}

function describe(text: string, error: ParseError): string {
  const base = jsonErrorText(jsoncLibrary().printParseErrorCode(error.error), "settings files are strict JSON") ?? "invalid JSON";
  const before = text.slice(0, error.offset).trimEnd();
  const closing = text[error.offset] === "}" || text[error.offset] === "]";
  if (closing && before.endsWith(",")) return "trailing commas are not allowed (settings files are strict JSON)";
  return base;
}

/** Finds the node for a path; also returns how much of the path it matched. */
function nodeAt(root: Node, path: readonly PathSegment[]): Node {
  let node = root;
  for (const segment of path) {
    let next: Node | undefined;
    if (typeof segment === "number" && node.type === "array") next = node.children?.[segment];
    else if (typeof segment === "string" && node.type === "object") {
      // Duplicate keys: JSON.parse keeps the last one, so point at the last one too.
      const property = node.children?.filter((child) => child.children?.[0]?.value === segment).pop();
      next = property?.children?.[1];
    }
    if (!next) return node;
    node = next;
  }
  return node;
}

/** Strict parse. An empty (whitespace-only) file counts as `{}`: an empty file says nothing. */
export function parseStrictJson(raw: string): ParseOutcome {
  const text = stripBom(raw);
  if (text.trim() === "") return { ok: true, json: { value: {}, locate: () => undefined } };
  // The common case, a valid file: JSON.parse alone, and positions only if a problem needs one.
  const fast = parseValid(text);
  if (fast) return { ok: true, json: fast };
  const starts = lineStarts(text);
  const errors: ParseError[] = [];
  const tree = jsoncLibrary().parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (first || !tree) {
    const offset = first?.offset ?? 0;
    const message = first ? describe(text, first) : "invalid JSON";
    const location = jsoncLibrary().getLocation(text, offset);
    // At a property name the location ends with the (unknown) key being read, and after a
    // trailing comma with the element that never came: name the enclosing key instead.
    const dangling = location.isAtPropertyKey || (message.startsWith("trailing") && typeof location.path.at(-1) === "number");
    const path = dangling ? location.path.slice(0, -1) : location.path;
    const keyPath = formatKeyPath(path.filter((segment) => segment !== ""));
    return { ok: false, error: { ...positionOf(starts, offset), keyPath: keyPath === "" ? undefined : keyPath, message } };
  }
  let value: unknown;
  try {
    // jsonc-parser has accepted it; JSON.parse is the final word on what strict JSON means.
    value = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, error: { line: 1, column: 1, keyPath: undefined, message: `invalid JSON: ${message}` } };
  }
  return { ok: true, json: { value, locate: (path) => positionOf(starts, nodeAt(tree, path).offset) } };
}

function parseValid(text: string): ParsedJson | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  let located: { starts: number[]; tree: Node | undefined } | undefined;
  return {
    value,
    locate: (path) => {
      located ??= { starts: lineStarts(text), tree: jsoncLibrary().parseTree(text, [], { disallowComments: true, allowTrailingComma: false }) };
      return located.tree ? positionOf(located.starts, nodeAt(located.tree, path).offset) : undefined;
    },
  };
}

export interface RecoveredRules {
  deny: string[];
  ask: string[];
  /** Never applied; recovered only to report them as present but not in force. */
  allow: string[];
}

/**
 * Best effort for a file that failed to parse: an error-tolerant parse, then every string under
 * a top-level `permissions.deny` / `permissions.ask` array. Allow rules are read only to be
 * reported as not in force, never applied.
 */
export function recoverRestrictiveRules(raw: string): RecoveredRules {
  const recovered: RecoveredRules = { deny: [], ask: [], allow: [] };
  const tree = jsoncLibrary().parseTree(stripBom(raw), [], { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true });
  if (tree?.type !== "object") return recovered;
  for (const property of tree.children ?? []) {
    const [key, section] = property.children ?? [];
    if (key?.value !== "permissions" || section?.type !== "object") continue;
    for (const entry of section.children ?? []) {
      const [name, list] = entry.children ?? [];
      const kind: unknown = name?.value;
      if ((kind !== "deny" && kind !== "ask" && kind !== "allow") || list?.type !== "array") continue;
      const target = recovered[kind];
      for (const item of list.children ?? []) {
        if (item.type === "string" && typeof item.value === "string" && !target.includes(item.value)) target.push(item.value);
      }
    }
  }
  return recovered;
}
