/**
 * Parses a command line with mvdan/sh's bash parser (mvdan-sh, pure JavaScript, loaded on first
 * use so start-up does not pay for it) and lists every simple command it would run: through
 * `&& || ; | |& &` and newlines, subshells and groups, `$( )`, backticks, `<( )` `>( )`, control
 * flow bodies, function bodies, heredoc bodies and the words of arithmetic and test expressions.
 * Anything the walker does not know is reported as unparseable, never skipped. Plain lines skip
 * mvdan-sh altogether (shell-lexer.ts).
 */
import type { ShFile, ShLit, ShNode, ShParser, ShRedirect, ShStmt, ShSyntax, ShWord } from "mvdan-sh";
import type { CommandOrigin, RawCommand, RedirectOp, ShellRedirect, ShellWord } from "./shell-types.ts";
import { parseSimpleLine } from "./shell-lexer.ts";
import { decodeWord, unquoteDoubleQuoted, type WordSource } from "./shell-words.ts";

interface Loaded {
  syntax: ShSyntax;
  /** One parser, reused: Parse resets it, and JavaScript runs one parse at a time. */
  parser: ShParser;
  redirectOps: Map<number, RedirectOp>;
}

export type ParseOutcome = { ok: true; commands: RawCommand[] } | { ok: false; error: string };

interface CallExprNode {
  Assigns: AssignNode[];
  Args: ShWord[];
}
interface AssignNode extends ShNode {
  Name: ShLit | null;
  Value: ShWord | null;
  Array: ShNode | null;
  Index: ShNode | null;
  Naked: boolean;
  Append: boolean;
}
interface StmtsNode {
  Stmts: ShStmt[];
}
interface BinaryNode {
  X: ShStmt;
  Y: ShStmt;
}
interface IfNode {
  Cond: ShStmt[];
  Then: ShStmt[];
  Else: ShNode | null;
}
interface WhileNode {
  Cond: ShStmt[];
  Do: ShStmt[];
}
interface ForNode {
  Loop: ShNode;
  Do: ShStmt[];
}
interface WordIterNode {
  Name: ShLit;
  Items: ShWord[];
}
interface CaseNode {
  Word: ShWord;
  Items: Array<{ Patterns: ShWord[]; Stmts: ShStmt[] }>;
}
interface DeclNode {
  Variant: ShLit;
  Args: AssignNode[];
}
interface InnerStmtNode {
  Stmt: ShStmt | null;
}
interface FuncNode {
  Body: ShStmt;
}

const CALIBRATION = ": >a >>a <a <>a <&a >&a >|a <<<a &>a &>>a <<A <<-B\nA\nB\n";
const CALIBRATION_OPS: RedirectOp[] = [">", ">>", "<", "<>", "<&", ">&", ">|", "<<<", "&>", "&>>", "<<", "<<-"];

let loading: Promise<Loaded> | undefined;

/** Loads the parser once; the operator numbering is read from the parser itself rather than hard-coded. */
export function loadShellParser(): Promise<Loaded> {
  loading ??= import("mvdan-sh").then((module) => {
    const syntax = module.default.syntax;
    const parser = syntax.NewParser();
    const redirects = parser.Parse(CALIBRATION, "").Stmts[0]?.Redirs ?? [];
    const redirectOps = new Map<number, RedirectOp>();
    redirects.forEach((redirect, index) => {
      const op = CALIBRATION_OPS[index];
      if (op) redirectOps.set(redirect.Op, op);
    });
    return { syntax, parser, redirectOps };
  });
  return loading;
}

/** Whether mvdan-sh has been asked for yet: plain command lines must not load it. */
export function shellParserLoaded(): boolean {
  return loading !== undefined;
}

class UnsupportedSyntax extends Error {}

function errorText(thrown: unknown): string {
  if (typeof thrown === "object" && thrown !== null && "Error" in thrown && typeof thrown.Error === "function") {
    return String(thrown.Error());
  }
  return thrown instanceof Error ? thrown.message : String(thrown);
}

class Walker implements WordSource {
  readonly commands: RawCommand[] = [];
  private readonly bytes: Uint8Array;
  private readonly decoder = new TextDecoder();

  constructor(
    readonly syntax: ShSyntax,
    private readonly redirectOps: Map<number, RedirectOp>,
    source: string,
  ) {
    this.bytes = new TextEncoder().encode(source);
  }

  raw(node: ShNode): string {
    return this.decoder.decode(this.bytes.subarray(node.Pos().Offset(), node.End().Offset()));
  }

  private type(node: unknown): string {
    return this.syntax.NodeType(node);
  }

  stmts(stmts: readonly ShStmt[], origin: CommandOrigin, inherited: readonly ShellRedirect[]): void {
    for (const stmt of stmts) this.stmt(stmt, origin, inherited);
  }

  private stmt(stmt: ShStmt, origin: CommandOrigin, inherited: readonly ShellRedirect[]): void {
    const redirects = [...inherited, ...stmt.Redirs.map((redirect) => this.redirect(redirect))];
    if (stmt.Cmd === null) {
      if (redirects.length > inherited.length) this.commands.push({ words: [], assignments: [], redirects, origin });
      return;
    }
    this.command(stmt.Cmd, origin, redirects);
  }

  private redirect(redirect: ShRedirect): ShellRedirect {
    const op = this.redirectOps.get(redirect.Op);
    if (!op) throw new UnsupportedSyntax(`unknown redirection operator in ${this.raw(redirect)}`);
    const fd = redirect.N ? { fd: redirect.N.Value } : {};
    if ((op === "<<" || op === "<<-") && redirect.Hdoc) {
      this.nested(redirect.Hdoc);
      return { op, ...fd, target: this.heredocBody(redirect) };
    }
    if (!redirect.Word) throw new UnsupportedSyntax(`redirection without a target in ${this.raw(redirect)}`);
    this.nested(redirect.Word);
    return { op, ...fd, target: decodeWord(redirect.Word, this) };
  }

  private heredocBody(redirect: ShRedirect): ShellWord {
    const body = redirect.Hdoc as ShWord;
    const delimiter = redirect.Word ? this.raw(redirect.Word) : "";
    const quotedDelimiter = /["'\\]/.test(delimiter);
    let value = "";
    let dynamic = false;
    for (const part of body.Parts) {
      if (this.type(part) === "Lit") {
        const text = (part as unknown as { Value: string }).Value;
        value += quotedDelimiter ? text : unquoteDoubleQuoted(text);
      } else {
        dynamic = true;
        value += this.raw(part);
      }
    }
    return { value, raw: this.raw(body), dynamic, tilde: false };
  }

  /** Commands hidden inside words: `$( )`, backticks and process substitutions run before the word is used. */
  private nested(node: ShNode): void {
    this.syntax.Walk(node, (child) => {
      if (child === null || child === undefined) return true;
      const type = this.type(child);
      if (type === "CmdSubst") {
        this.stmts((child as StmtsNode).Stmts, "substitution", []);
        return false;
      }
      if (type === "ProcSubst") {
        this.stmts((child as StmtsNode).Stmts, "process-substitution", []);
        return false;
      }
      return true;
    });
  }

  private assignment(assign: AssignNode): ShellWord {
    this.nested(assign);
    const name = assign.Name?.Value ?? "";
    const value = assign.Value ? decodeWord(assign.Value, this) : undefined;
    const dynamic = assign.Array !== null || assign.Index !== null || (value?.dynamic ?? false);
    const text = assign.Naked ? (value?.value ?? name) : `${name}${assign.Append ? "+=" : "="}${value?.value ?? ""}`;
    return { value: text, raw: this.raw(assign), dynamic, tilde: false };
  }

  private words(words: readonly ShWord[]): ShellWord[] {
    return words.map((word) => {
      this.nested(word);
      return decodeWord(word, this);
    });
  }

  private command(node: ShNode, origin: CommandOrigin, redirects: ShellRedirect[]): void {
    const type = this.type(node);
    switch (type) {
      case "CallExpr": {
        const call = node as unknown as CallExprNode;
        const assignments = call.Assigns.map((assign) => this.assignment(assign));
        this.commands.push({ words: this.words(call.Args), assignments, redirects, origin });
        return;
      }
      case "BinaryCmd": {
        const binary = node as unknown as BinaryNode;
        this.stmt(binary.X, origin, redirects);
        this.stmt(binary.Y, origin, redirects);
        return;
      }
      case "Block":
      case "Subshell":
        this.stmts((node as unknown as StmtsNode).Stmts, origin, redirects);
        return;
      case "IfClause": {
        const clause = node as unknown as IfNode;
        this.stmts(clause.Cond, origin, redirects);
        this.stmts(clause.Then, origin, redirects);
        if (clause.Else) this.command(clause.Else, origin, redirects);
        return;
      }
      case "WhileClause": {
        const clause = node as unknown as WhileNode;
        this.stmts(clause.Cond, origin, redirects);
        this.stmts(clause.Do, origin, redirects);
        return;
      }
      case "ForClause":
        this.forClause(node as unknown as ForNode, origin, redirects);
        return;
      case "CaseClause": {
        const clause = node as unknown as CaseNode;
        this.nested(clause.Word);
        for (const item of clause.Items) {
          for (const pattern of item.Patterns) this.nested(pattern);
          this.stmts(item.Stmts, origin, redirects);
        }
        return;
      }
      case "FuncDecl":
        this.stmt((node as unknown as FuncNode).Body, "function", redirects);
        return;
      case "DeclClause": {
        const decl = node as unknown as DeclNode;
        const args = decl.Args.map((assign) => this.assignment(assign));
        const variant = { value: decl.Variant.Value, raw: decl.Variant.Value, dynamic: false, tilde: false };
        this.commands.push({ words: [variant, ...args], assignments: [], redirects, origin });
        return;
      }
      case "TimeClause":
      case "CoprocClause": {
        const inner = (node as unknown as InnerStmtNode).Stmt;
        if (inner) this.stmt(inner, origin, redirects);
        else if (redirects.length > 0) this.commands.push({ words: [], assignments: [], redirects, origin });
        return;
      }
      case "ArithmCmd":
      case "LetClause":
      case "TestClause":
        // Arithmetic and test expressions run no command themselves; substitutions inside them do.
        this.nested(node);
        if (redirects.length > 0) this.commands.push({ words: [], assignments: [], redirects, origin });
        return;
      default:
        throw new UnsupportedSyntax(`unsupported shell construct ${type}`);
    }
  }

  private forClause(clause: ForNode, origin: CommandOrigin, redirects: ShellRedirect[]): void {
    this.nested(clause.Loop);
    if (this.type(clause.Loop) === "WordIter") {
      const iter = clause.Loop as unknown as WordIterNode;
      // The loop variable is assigned each static item: checked like a bare assignment would be.
      const assignments = iter.Items.map((item) => decodeWord(item, this))
        .filter((item) => !item.dynamic)
        .map((item) => ({ ...item, value: `${iter.Name.Value}=${item.value}`, raw: `${iter.Name.Value}=${item.raw}` }));
      if (assignments.length > 0) this.commands.push({ words: [], assignments, redirects: [], origin });
    }
    this.stmts(clause.Do, origin, redirects);
  }
}

/** Every simple command in `source`, or why it cannot be understood. */
export async function parseShell(source: string, origin: CommandOrigin = "top"): Promise<ParseOutcome> {
  const simple = parseSimpleLine(source, origin);
  if (simple) return { ok: true, commands: simple };
  return parseWithMvdan(source, origin);
}

/** `parseShell` without the fast path, which must always agree with it. */
export async function parseWithMvdan(source: string, origin: CommandOrigin = "top"): Promise<ParseOutcome> {
  const { syntax, parser, redirectOps } = await loadShellParser();
  let file: ShFile;
  try {
    file = parser.Parse(source, "");
  } catch (thrown) {
    return { ok: false, error: errorText(thrown) };
  }
  const walker = new Walker(syntax, redirectOps, source);
  try {
    walker.stmts(file.Stmts, origin, []);
  } catch (thrown) {
    return { ok: false, error: errorText(thrown) };
  }
  return { ok: true, commands: walker.commands };
}
