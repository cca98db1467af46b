/**
 * A fast path for the command lines agents run most (`bun test 2>&1`, `git commit -m "fix"`,
 * `cd sub && npm test`): a line made only of plain words, quotes with nothing to expand,
 * `&& || ; |` and a few redirections to `/dev/null` is split here, so mvdan-sh (about 25 ms and
 * 15–30 MB the first time) is never loaded for it. The commands are exactly the ones
 * shell-parse.ts would list; any other line returns undefined and goes to the real parser.
 * test/unit/permissions/shell-lexer.test.ts holds the two against each other.
 */
import type { CommandOrigin, RawCommand, RedirectOp, ShellRedirect, ShellWord } from "./shell-types.ts";

/** Unquoted characters that mean nothing to the shell anywhere in a word: no globs, braces, `~`, `#`, `$`, `\` or `!`. */
const PLAIN = /[A-Za-z0-9_./:@%+,=^-]+/y;
/** Control characters are left out: mvdan-sh reads a NUL as the end of the input. */
const SINGLE_QUOTED = /'([^'\x00-\x08\n-\x1f\x7f]*)'/y;
/** Nothing inside that bash expands or unescapes (`$`, backtick, `\`) or expands interactively (`!`). */
const DOUBLE_QUOTED = /"([^"$`\\!\x00-\x08\n-\x1f\x7f]*)"/y;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
/** Where a word or redirection ends: a blank, an operator or the end of the line. */
const BOUNDARY = new Set([" ", "\t", ";", "|", "&"]);

/**
 * Words mvdan-sh's parser treats specially at the start of a command (compound commands,
 * declarations, `let`, `time`, `coproc`, bats' `@test`), plus the rest of bash's reserved words.
 */
const RESERVED = new Set([
  "if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case", "esac", "in",
  "function", "select", "time", "coproc", "let", "declare", "local", "export", "readonly", "typeset",
  "nameref", "@test", "{", "}", "!", "[[", "]]", "((",
]);

interface RedirectForm {
  pattern: RegExp;
  op: RedirectOp;
  fd?: string;
  target: string;
}

const REDIRECTS: RedirectForm[] = [
  { pattern: /2>&1/y, op: ">&", fd: "2", target: "1" },
  { pattern: /2> ?\/dev\/null/y, op: ">", fd: "2", target: "/dev/null" },
  { pattern: /&>\/dev\/null/y, op: "&>", target: "/dev/null" },
  { pattern: /> ?\/dev\/null/y, op: ">", target: "/dev/null" },
];

type Operator = "&&" | "||" | ";" | "|";

interface Lexed {
  word: ShellWord;
  /** The unquoted text the word starts with, where bash looks for `NAME=`. */
  leading: string;
  end: number;
}

function plainWord(value: string, raw: string): ShellWord {
  return { value, raw, dynamic: false, tilde: false };
}

function matchAt(pattern: RegExp, source: string, index: number): RegExpExecArray | null {
  pattern.lastIndex = index;
  return pattern.exec(source);
}

function lexWord(source: string, start: number): Lexed | undefined {
  let index = start;
  let value = "";
  let leading = "";
  while (index < source.length && !BOUNDARY.has(source[index] ?? "")) {
    const plain = matchAt(PLAIN, source, index);
    const quoted = plain ?? matchAt(SINGLE_QUOTED, source, index) ?? matchAt(DOUBLE_QUOTED, source, index);
    if (!quoted) return undefined;
    if (plain && index === start) leading = plain[0];
    value += plain ? plain[0] : (quoted[1] ?? "");
    index += quoted[0].length;
  }
  if (index === start) return undefined;
  return { word: plainWord(value, source.slice(start, index)), leading, end: index };
}

function lexRedirect(source: string, start: number): { redirect: ShellRedirect; end: number } | undefined {
  for (const form of REDIRECTS) {
    const match = matchAt(form.pattern, source, start);
    if (!match) continue;
    const end = start + match[0].length;
    const next = source[end];
    if (next !== undefined && !BOUNDARY.has(next)) return undefined;
    const fd = form.fd === undefined ? {} : { fd: form.fd };
    return { redirect: { op: form.op, ...fd, target: plainWord(form.target, form.target) }, end };
  }
  return undefined;
}

function lexOperator(source: string, index: number): Operator | undefined {
  const two = source.slice(index, index + 2);
  if (two === "&&" || two === "||") return two;
  if (two === "|&") return undefined;
  const one = source[index];
  return one === ";" || one === "|" ? one : undefined;
}

class Line {
  readonly commands: RawCommand[] = [];
  private words: ShellWord[] = [];
  private assignments: ShellWord[] = [];
  private redirects: ShellRedirect[] = [];

  constructor(private readonly origin: CommandOrigin) {}

  get empty(): boolean {
    return this.words.length === 0 && this.assignments.length === 0;
  }

  /** False when the word takes the line outside the fast path. */
  addWord(lexed: Lexed): boolean {
    if (this.redirects.length > 0) return false;
    if (this.words.length === 0) {
      if (ASSIGNMENT.test(lexed.leading)) {
        this.assignments.push(lexed.word);
        return true;
      }
      if (lexed.word.raw.includes("=") || RESERVED.has(lexed.word.value)) return false;
    }
    this.words.push(lexed.word);
    return true;
  }

  addRedirect(redirect: ShellRedirect): boolean {
    if (this.empty) return false;
    this.redirects.push(redirect);
    return true;
  }

  /** Ends the current command; false if there is none (`a && && b`, `; a`). */
  finish(): boolean {
    if (this.empty) return false;
    this.commands.push({ words: this.words, assignments: this.assignments, redirects: this.redirects, origin: this.origin });
    this.words = [];
    this.assignments = [];
    this.redirects = [];
    return true;
  }
}

/**
 * The commands of `source` if it stays inside the fast path's grammar, else undefined.
 * Accepting a line is a promise that mvdan-sh would list exactly these commands.
 */
export function parseSimpleLine(source: string, origin: CommandOrigin): RawCommand[] | undefined {
  // A lone surrogate reaches mvdan-sh as U+FFFD, so its raw text would differ.
  if (!source.isWellFormed()) return undefined;
  const line = new Line(origin);
  let last: Operator | undefined;
  let index = 0;
  while (index < source.length) {
    const blank = source[index] === " " || source[index] === "\t";
    while (source[index] === " " || source[index] === "\t") index++;
    if (index >= source.length) break;
    const ch = source[index] ?? "";
    const operator = lexOperator(source, index);
    if (operator) {
      if (!line.finish()) return undefined;
      last = operator;
      index += operator.length;
      continue;
    }
    if (ch === ">" || ch === "&" || source.startsWith("2>", index)) {
      // Only after a blank, as a token of its own (a word never ends at `>`, so `12>x` never gets here);
      // this also keeps `|&` and redirections glued to an operator out.
      const lexed = blank ? lexRedirect(source, index) : undefined;
      if (!lexed || !line.addRedirect(lexed.redirect)) return undefined;
      index = lexed.end;
      continue;
    }
    const lexed = lexWord(source, index);
    if (!lexed || !line.addWord(lexed)) return undefined;
    last = undefined;
    index = lexed.end;
  }
  if (line.empty) {
    // Only a trailing `;` may end a line; `a &&` or `a |` is incomplete, and an empty line is left to mvdan-sh.
    return last === ";" && line.commands.length > 0 ? line.commands : undefined;
  }
  return line.finish() ? line.commands : undefined;
}
