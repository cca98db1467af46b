/**
 * Reading the JSON files MCP servers are defined in. `JSON.parse` does the work; `jsonc-parser`
 * (which reports offsets) loads only when a file fails to parse, to say at which line and column,
 * so a session whose files are valid never pays for it.
 */
import { readFileSync } from "node:fs";
import type { ParseError } from "jsonc-parser";
import { jsonErrorText, positionAt, stripBom } from "../../util/json-text.ts";

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
    return { kind: "broken", message: jsonErrorText(code, "the file must be strict JSON") ?? code, ...positionAt(text, first.offset) };
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
