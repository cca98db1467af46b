/**
 * What strict-JSON readers of config files share: a byte-order mark is not content, a parse error
 * is told in words (by jsonc-parser's error name), and an offset becomes a line and column.
 */

/** Keyed by jsonc-parser's `printParseErrorCode` names (its enum is a const enum, unusable here). */
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
  UnexpectedEndOfString: "unterminated string",
  UnexpectedEndOfNumber: "unterminated number",
  InvalidUnicode: "invalid unicode escape",
  InvalidEscapeCharacter: "invalid escape sequence",
  InvalidCharacter: "invalid character in string (control characters must be escaped)",
};

/** `files` names what must be strict JSON, for the comment message: "settings files are strict JSON". */
export function jsonErrorText(code: string, files: string): string | undefined {
  if (code === "InvalidCommentToken" || code === "UnexpectedEndOfComment") return `comments are not allowed (${files})`;
  return ERROR_TEXT[code];
}

/** Editors on Windows may save a byte-order mark; it is not content. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** 1-based line and column of an offset. */
export function positionAt(text: string, offset: number): { line: number; column: number } {
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
