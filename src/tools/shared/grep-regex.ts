/**
 * Compiles a ripgrep (Rust regex) pattern into a JavaScript RegExp for the in-process backend.
 * Only the cheap, common differences are translated: `(?P<name>…)`, leading inline flags,
 * POSIX classes, `\A`/`\z`, `\pL`, `\x{…}`, a `]` first in a class, and line semantics (`.`
 * never matches `\n`; `^`/`$` match at `\n` only, not at `\r`). Unicode-aware `\w`/`\d`/`\b`
 * stay ASCII, and JS features Rust lacks (look-around, backreferences) are simply accepted.
 */
import { ToolError } from "../../util/errors.ts";

export interface CompiledPattern {
  /** Line mode: tests one line (no `\n` in it). Multiline mode: global, over the whole text. */
  regex: RegExp;
  /** Line mode only: the same pattern over a whole file, a cheap superset test to skip files. */
  prefilter?: RegExp;
}

const POSIX_CLASSES: Readonly<Record<string, string>> = {
  alnum: "0-9A-Za-z",
  alpha: "A-Za-z",
  ascii: "\\x00-\\x7F",
  blank: "\\t ",
  cntrl: "\\x00-\\x1F\\x7F",
  digit: "0-9",
  graph: "!-~",
  lower: "a-z",
  print: " -~",
  punct: "!-\\/:-@\\[-`{-~",
  space: "\\t\\n\\v\\f\\r ",
  upper: "A-Z",
  word: "0-9A-Za-z_",
  xdigit: "0-9A-Fa-f",
};

interface Translation {
  source: string;
  flags: string;
}

export function compilePattern(pattern: string, options: { ignoreCase: boolean; multiline: boolean }): CompiledPattern {
  const { source, flags: inline } = translate(pattern, options.multiline);
  const base = new Set([...inline, ...(options.ignoreCase ? "i" : "")]);
  if (options.multiline) base.add("s");
  else base.delete("s"); // nothing to span in a single line
  base.delete("m"); // ^ and $ are translated explicitly
  const flags = [...base].join("");
  if (options.multiline) return { regex: build(source, `${flags}g`, pattern) };
  return { regex: build(source, flags, pattern), prefilter: build(source, `${flags}m`, pattern) };
}

/**
 * ripgrep refuses a pattern with a literal newline unless multiline is on, since it searches line
 * by line; the tool reports that before either backend runs, so both fail the same way.
 */
export function hasLiteralNewline(pattern: string): boolean {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === "\\") {
      if (!inClass && pattern[i + 1] === "n") return true;
      i++;
    } else if (char === "[") inClass = true;
    else if (char === "]") inClass = false;
    else if (char === "\n" && !inClass) return true;
  }
  return false;
}

function build(source: string, flags: string, original: string): RegExp {
  try {
    return new RegExp(source, `${flags}u`);
  } catch (unicodeError) {
    // Unicode mode rejects escapes Rust allows (`\_`, `\'`) and lone braces; plain mode takes them.
    try {
      return new RegExp(source, flags);
    } catch {
      const reason = unicodeError instanceof Error ? unicodeError.message : String(unicodeError);
      throw new ToolError(`Invalid regex pattern ${JSON.stringify(original)}: ${reason}`, "tool_input");
    }
  }
}

function translate(pattern: string, multiline: boolean): Translation {
  let flags = "";
  let rest = pattern;
  const leading = /^\(\?([ims]+)\)/.exec(pattern);
  if (leading?.[1]) {
    flags = leading[1];
    rest = pattern.slice(leading[0].length);
  }
  let out = "";
  let inClass = false;
  for (let i = 0; i < rest.length; i++) {
    const char = rest[i] ?? "";
    const next = rest[i + 1];
    if (char === "\\") {
      i++;
      out += translateEscape(next, rest, i, inClass, (skip) => (i += skip));
      continue;
    }
    if (inClass) {
      const posix = /^\[:(\w+):\]/.exec(rest.slice(i));
      const mapped = posix?.[1] ? POSIX_CLASSES[posix[1]] : undefined;
      if (posix && mapped) {
        out += mapped;
        i += posix[0].length - 1;
      } else {
        if (char === "]") inClass = false;
        out += char === "[" ? "\\[" : char;
      }
      continue;
    }
    if (char === "[") {
      inClass = true;
      out += "[";
      if (next === "^") {
        out += "^";
        i++;
      }
      // A `]` first in a class is a literal in Rust; JS would read `[]` as an empty class.
      if (rest[i + 1] === "]") {
        out += "\\]";
        i++;
      }
    } else if (char === "(" && rest.startsWith("?P<", i + 1)) {
      out += "(?<";
      i += 3;
    } else if (char === ".") {
      out += multiline ? "." : "[^\\n]";
    } else if (char === "^") {
      out += multiline ? "(?<=^|\\n)" : "^";
    } else if (char === "$") {
      out += multiline ? "(?=\\n|$)" : "$";
    } else {
      out += char;
    }
  }
  return { source: out, flags };
}

function translateEscape(
  next: string | undefined,
  rest: string,
  index: number,
  inClass: boolean,
  advance: (count: number) => void,
): string {
  if (next === undefined) return "\\";
  if (!inClass && next === "A") return "^";
  if (!inClass && next === "z") return "$";
  if ((next === "p" || next === "P") && rest[index + 1] !== "{" && rest[index + 1] !== undefined) {
    advance(1);
    return `\\${next}{${rest[index + 1]}}`;
  }
  if (next === "x" && rest[index + 1] === "{") {
    const close = rest.indexOf("}", index);
    if (close > 0) {
      const hex = rest.slice(index + 2, close);
      advance(close - index);
      return `\\u{${hex}}`;
    }
  }
  return `\\${next}`;
}
