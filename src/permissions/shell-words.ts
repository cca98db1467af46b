/**
 * Quote removal for one parsed shell word: the value a command would receive, and whether that
 * value is only known at run time (expansions, substitutions, globs, brace expansion).
 */
import type { ShNode, ShSyntax, ShWord } from "mvdan-sh";
import type { ShellWord } from "./shell-types.ts";

interface LitPart {
  Value: string;
}
interface SglQuotedPart {
  Value: string;
  Dollar: boolean;
}
interface DblQuotedPart {
  Parts: ShNode[];
}

export interface WordSource {
  syntax: ShSyntax;
  /** Raw source text of a node (positions are UTF-8 byte offsets). */
  raw(node: ShNode): string;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  a: "\x07", b: "\b", e: "\x1b", E: "\x1b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v",
  "\\": "\\", "'": "'", '"': '"', "?": "?",
};

/** Decodes the body of an ANSI-C `$'…'` string the way bash does. */
export function decodeAnsiC(body: string): string {
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const ch = body[i] ?? "";
    if (ch !== "\\" || i + 1 >= body.length) {
      out += ch;
      continue;
    }
    const next = body[i + 1] ?? "";
    const simple = SIMPLE_ESCAPES[next];
    if (simple !== undefined) {
      out += simple;
      i++;
      continue;
    }
    const numeric = /^(?:([0-7]{1,3})|x([0-9a-fA-F]{1,2})|u([0-9a-fA-F]{1,4})|U([0-9a-fA-F]{1,8})|c(.))/.exec(body.slice(i + 1));
    if (numeric) {
      const [whole, octal, hex, u4, u8, control] = numeric;
      if (octal) out += String.fromCharCode(parseInt(octal, 8) & 0xff);
      else if (hex) out += String.fromCharCode(parseInt(hex, 16));
      else if (u4 ?? u8) out += String.fromCodePoint(Math.min(parseInt(u4 ?? u8 ?? "0", 16), 0x10ffff));
      else if (control) out += String.fromCharCode(control.charCodeAt(0) & 0x1f);
      i += whole.length;
      continue;
    }
    out += ch;
  }
  return out;
}

/** Removes backslash escapes of an unquoted literal; reports unescaped glob characters. */
function unquoteLiteral(text: string): { value: string; glob: boolean } {
  let value = "";
  let glob = false;
  let openBracket = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] ?? "";
    if (ch === "\\") {
      const next = text[i + 1];
      if (next === undefined) break;
      if (next !== "\n") value += next;
      i++;
      continue;
    }
    if (ch === "*" || ch === "?") glob = true;
    if (ch === "[") openBracket = true;
    if (ch === "]" && openBracket) glob = true;
    value += ch;
  }
  return { value, glob };
}

/** Inside double quotes a backslash only escapes `$`, backtick, `"`, `\` and newline. */
export function unquoteDoubleQuoted(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_, ch: string) => (ch === "\n" ? "" : ch));
}

const BRACE_EXPANSION = /\{[^{}\s]*(?:,|\.\.)[^{}\s]*\}/;

function decodeDoubleQuoted(part: DblQuotedPart, source: WordSource): { value: string; dynamic: boolean } {
  let value = "";
  let dynamic = false;
  for (const inner of part.Parts) {
    if (source.syntax.NodeType(inner) === "Lit") value += unquoteDoubleQuoted((inner as unknown as LitPart).Value);
    else {
      dynamic = true;
      value += source.raw(inner);
    }
  }
  return { value, dynamic };
}

export function decodeWord(word: ShWord, source: WordSource): ShellWord {
  let value = "";
  let dynamic = false;
  let tilde = false;
  let unquoted = "";
  word.Parts.forEach((part, index) => {
    const type = source.syntax.NodeType(part);
    if (type === "Lit") {
      const text = (part as unknown as LitPart).Value;
      if (index === 0 && text.startsWith("~")) tilde = true;
      const { value: literal, glob } = unquoteLiteral(text);
      if (glob) dynamic = true;
      unquoted += text;
      value += literal;
    } else if (type === "SglQuoted") {
      const sgl = part as unknown as SglQuotedPart;
      value += sgl.Dollar ? decodeAnsiC(sgl.Value) : sgl.Value;
    } else if (type === "DblQuoted") {
      const decoded = decodeDoubleQuoted(part as unknown as DblQuotedPart, source);
      value += decoded.value;
      dynamic ||= decoded.dynamic;
    } else {
      // ParamExp, CmdSubst, ArithmExp, ProcSubst, ExtGlob, BraceExp: only known at run time.
      dynamic = true;
      value += source.raw(part);
    }
  });
  if (BRACE_EXPANSION.test(unquoted)) dynamic = true;
  return { value, raw: source.raw(word), dynamic, tilde };
}

/** A word made of one literal, for values the splitter synthesises (an `eval` argument, a `-c` script). */
export function literalWord(value: string): ShellWord {
  return { value, raw: value, dynamic: false, tilde: false };
}
