/**
 * Reading the JSON files MCP servers are defined in. `JSON.parse` does the work; `jsonc-parser`
 * (which reports offsets) loads only when a file fails to parse, to say at which line and column,
 * so a session whose files are valid never pays for it.
 */
import { readFileSync } from "node:fs";
import type { ParseError } from "jsonc-parser";

export type JsonRead =
  | { kind: "missing" }
  | { kind: "ok"; value: unknown }
  | { kind: "broken"; message: string; line?: number; column?: number };

type Jsonc = typeof import("jsonc-parser");
let jsonc: Jsonc | undefined;

function parser(): Jsonc {
  // The ES module build: the UMD one (what a bare require resolves to) loads its parts dynamically.
  jsonc ??= require("jsonc-parser/lib/esm/main.js") as Jsonc;
  return jsonc;
}

const ERROR_TEXT: Record<string, string> = {
  InvalidSymbol: "unexpected character",
  InvalidNumberFormat: "invalid number",
  PropertyNameExpected: "expected a property name in double quotes",
  ValueExpected: "expected a value",
  ColonExpected: "expected ':'",
  CommaExpected: "expected ','",
  CloseBraceExpected: "expected '}'",
  CloseBracketExpected: "expected ']'",
  EndOfFileExpected: "unexpected content after the end of the JSON value",
  InvalidCommentToken: "comments are not allowed (the file must be strict JSON)",
  UnexpectedEndOfComment: "comments are not allowed (the file must be strict JSON)",
  UnexpectedEndOfString: "unterminated string",
  UnexpectedEndOfNumber: "unterminated number",
  InvalidUnicode: "invalid unicode escape",
  InvalidEscapeCharacter: "invalid escape sequence",
  InvalidCharacter: "invalid character in string (control characters must be escaped)",
};

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function positionOf(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** Parses strict JSON; on failure says what is wrong and where. */
export function parseJsonText(raw: string): JsonRead {
  const text = stripBom(raw);
  try {
    return { kind: "ok", value: JSON.parse(text) };
  } catch {
    const { parse, printParseErrorCode } = parser();
    const errors: ParseError[] = [];
    parse(text, errors, { allowTrailingComma: false, disallowComments: true, allowEmptyContent: false });
    const first = errors[0];
    if (!first) return { kind: "broken", message: text.trim() === "" ? "the file is empty" : "not valid JSON" };
    const code = printParseErrorCode(first.error);
    return { kind: "broken", message: ERROR_TEXT[code] ?? code, ...positionOf(text, first.offset) };
  }
}

function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error ? String((error as { code: unknown }).code) : undefined;
}

/** A missing file (or a missing parent folder) is not a problem: most projects have no `.mcp.json`. */
export function readJsonFile(file: string): JsonRead {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = errorCode(error);
    if (code === "ENOENT" || code === "ENOTDIR") return { kind: "missing" };
    return { kind: "broken", message: code === "EISDIR" ? "is a directory, not a file" : `could not be read (${code ?? String(error)})` };
  }
  return parseJsonText(text);
}
