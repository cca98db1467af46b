// The fast path may only accept a line if mvdan-sh would list exactly the same commands for it:
// every line below goes through both and is compared whole, and plain command lines must be
// judged without mvdan-sh ever being loaded.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { type ParseOutcome, parseWithMvdan } from "../../../src/permissions/shell-parse.ts";
import { parseSimpleLine } from "../../../src/permissions/shell-lexer.ts";
import type { CommandOrigin } from "../../../src/permissions/shell-types.ts";

const COMMON = ["bun test 2>&1", "npm test", "git status", "cd sub && npm test", "ls -la | head -20", 'git commit -m "fix bug"'];

const HANDLED = [
  ...COMMON,
  "echo ''", 'echo ""', `echo ''""''`, "a''b", `"a"'b'c`, `x"y"z`, `"" ''`, `'' cmd`,
  "a&&b", "a||b", "a;b", "a | b|c", "a ;", "a;", "  a  ", "\ta\t b\t", "a | b | c | d && e || f; g",
  "a 2>&1", "a >/dev/null", "a 2>/dev/null", "a &>/dev/null", "a > /dev/null", "a 2> /dev/null",
  "a >/dev/null 2>&1", "a 2>&1 | head -20", "a 2>&1&&b", "a 2>&1;b", "a 2>/dev/null|b", "a 2 >/dev/null", "a 2>&1 ;",
  "ls --flag=value", "scp f user@host:path", "echo 100%", "echo a,b", "echo x^y", "echo a.b/c:d@e%f+g,h=i^j-k", "echo = ==",
  "git commit -m 'it''s'", `echo "héllo 🐛 世界"`, "echo '日本語 ✓'", `echo '$HOME \\ \`x\` "q" !'`, `echo "a'b"`, `echo 'a"b'`,
  "echo '\\r\\n'", 'echo "tab\tinside"', "x %1 ^a ,b :c", "- --", ".", "./run.sh", "/usr/bin/env node x.js",
  "npx tsc --noEmit -p .", "echo if then fi done esac in", "echo export let time",
  "FOO=1 cmd", "A= cmd", `A="x y" B='z' c`, "A=1", "A=b=c d", "A=1; b", "A=1 && b", "cmd A=1", "_x9=1 y", "A=1 2>&1",
  "a=''", 'a=""x', "NODE_ENV=test bun test 2>&1 | tail -5", "if=1 x", "do=1",
  "a 2>&1 >/dev/null 2>/dev/null &>/dev/null", "echo '\t'", 'echo "\u0085 \u00a0 \u2028 \ufeff \uffff \u{10ffff}"',
  `echo ${"word ".repeat(2500)}`, `echo "${"x".repeat(20_000)}"`, `git commit -m '${"🐛 ".repeat(3000)}'`,
];

const FALLS_THROUGH = [
  // Expansions and substitutions
  "$x", "echo $x", "echo ${x}", "echo `id`", "echo $(id)", "echo $((1+2))", "cat <(ls)", "tee >(cat)", `echo "$HOME"`,
  `echo "\`id\`"`, "echo $'x'", `echo $"x"`,
  // Globs, braces, tilde, comments, escapes, history
  "ls *.ts", "ls ?", "ls [ab]", "ls a]", "echo {a,b}", "echo a}", "ls ~", "ls ~/x", "echo a~b", "# comment", "ls # c", "ls a#b",
  "echo \\x", "echo a\\ b", `echo "a\\b"`, "! ls", "echo !", `echo "a!b"`,
  // Operators outside the grammar
  "a & b", "a &", "a&", "a |& b", "a|&b", "a\nb", "a\r", "a ;& b", "a;;", "a ; ; b", "a && && b", "&& a", "a &&", "a ||", "a |",
  "; a", "| a", "", "   ", "(a)", "a()", "{ a; }", "a (b)",
  // Heredocs and other redirections
  "cat <<EOF\nx\nEOF", "cat <<< x", "echo < in", "echo > out", "echo >> /dev/null", "echo 1>/dev/null", "echo >&2", "echo 1>&2",
  "echo 2>&1x", "echo 2>&1>/dev/null", "echo x>/dev/null", "echo 12>/dev/null", `echo "x">/dev/null`, "echo 2>/dev/nullx",
  "echo >  /dev/null", "echo >\t/dev/null", "echo &> file", "echo >| /dev/null", "2>&1 echo", ">/dev/null echo", "echo >/dev/null x",
  "a;2>&1", "a && 2>&1", "echo 2>&1 x", "a 1>&1", "a 3>&1", "a 2>&2", "a 2>&10", "a 3>/dev/null", "a 0> /dev/null",
  "a &>/dev/null&>/dev/null",
  // Reserved words, declarations and assignments
  "if true; then a; fi", "for x in a; do b; done", "if x", "for x", "while x", "until x", "case x", "then x", "else x", "elif x",
  "fi x", "do x", "done", "esac x", "in x", "time ls", "time", "coproc ls", "function f", "select x", "let x=1", "let",
  "export A=1", "export", "declare -x A", "declare", "local x", "readonly x", "typeset x", "nameref x", "@test x", "a | for x",
  "'{' x", `"[[" x`, `"if" x`, "'export' A=1", "[[ -f x ]]", "((x))", "a && if", "A=1 export x", "A=1 let x",
  "a+=1", "1a=b", "a.b=c", "a.b/c:d@e%f+g,h=i^j-k", `"A"=1 x`, `a"b"=c`, "=x", "a[0]=1", "A=~/x", "A=(1 2)", "A=1 2>&1 x",
  // Quotes outside the grammar
  "echo 'unterminated", `echo "unterminated`, "echo 'a\nb'", `echo "a\nb"`, "echo '\x00'", `echo "\x00"`, "echo '\x1b[0m'",
  "echo '\ud800'", `echo "\udc00x"`,
  // Characters outside the grammar
  "echo é", "echo a\u00a0b", "echo \v", "echo \f", "echo a<b", "echo a>b",
];

/** Whether the fast path accepts `line`; when it does, mvdan-sh must list exactly the same commands. */
async function agree(line: string, origin: CommandOrigin = "top"): Promise<boolean> {
  const fast = parseSimpleLine(line, origin);
  if (fast === undefined) return false;
  expect<{ line: string; outcome: ParseOutcome }>({ line, outcome: { ok: true, commands: fast } }).toStrictEqual({ line, outcome: await parseWithMvdan(line, origin) });
  return true;
}

describe("the fast path agrees with mvdan-sh", () => {
  for (const line of HANDLED) {
    test(`handles ${JSON.stringify(line.slice(0, 60))}`, async () => {
      expect(await agree(line)).toBe(true);
    });
  }

  test("a nested script keeps its origin", async () => {
    expect(await agree("rm x && ls 2>&1", "shell-c")).toBe(true);
  });

  for (const line of FALLS_THROUGH) {
    test(`leaves ${JSON.stringify(line)} to mvdan-sh`, () => {
      expect(parseSimpleLine(line, "top")).toBeUndefined();
    });
  }
});

/** mulberry32: a fixed seed keeps a failure reproducible. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const GRAMMAR_PIECES = [
  "a", "b", "git", "npm", "test", "-x", "--flag=value", "user@host:path", "100%", "a,b", "x^y", "./p/q.ts", "2", "1",
  "A=", "FOO=1", "=", "_", "'s q'", "''", '""', `'$x \\ \`'`, '"d q"', '"é 🐛"', "'", '"',
  " ", " ", " ", "\t", "&&", "||", ";", "|", " 2>&1", " >/dev/null", " 2> /dev/null", " &>/dev/null", " > /dev/null",
  "if", "export", "let", "time", "do", "in",
];
const OTHER_PIECES = [
  "$x", "`", "$(", ")", "(", "<(", "*", "?", "[", "]", "{", "}", "~", "#", "\\", "!", "&", "|&", "\n", "<<EOF", "<", ">",
  ">>", ";;", " 3>&1", " 1>/dev/null", "é", "\r", "\x00", "\ud800", ">&2", "1>", "2>", "/dev/null", "+=", "\u00a0", "$'", "\v",
];
const CHARACTERS = "ab2=-_./:@%+,^ \t;|&'\"$`\\!*?[]{}()~#<>\n\ré😀";

function pick<T>(items: readonly T[], next: () => number): T {
  return items[Math.floor(next() * items.length)] as T;
}

/** Lines of `pieces` joined; those the fast path accepts must agree with mvdan-sh. Returns how many it accepted. */
async function randomLines(seed: number, count: number, maxPieces: number, piece: (next: () => number) => string): Promise<number> {
  const next = random(seed);
  let handled = 0;
  for (let i = 0; i < count; i++) {
    const length = 1 + Math.floor(next() * maxPieces);
    let line = "";
    for (let j = 0; j < length; j++) line += piece(next);
    if (await agree(line)) handled++;
  }
  return handled;
}

// The lower bounds only make sure enough lines are accepted for the comparison to mean something.
describe("random lines", () => {
  test("from grammar pieces", async () => {
    expect(await randomLines(0xa11ce, 2000, 12, (next) => pick(GRAMMAR_PIECES, next))).toBeGreaterThan(400);
  });

  test("from grammar and non-grammar pieces", async () => {
    const piece = (next: () => number): string => (next() < 0.9 ? pick(GRAMMAR_PIECES, next) : pick(OTHER_PIECES, next));
    expect(await randomLines(0x5eed, 4000, 12, piece)).toBeGreaterThan(400);
  });

  test("from single characters", async () => {
    const characters = [...CHARACTERS];
    const common = characters.slice(0, 18);
    const piece = (next: () => number): string => (next() < 0.7 ? pick(common, next) : pick(characters, next));
    expect(await randomLines(0xc0ffee, 3000, 10, piece)).toBeGreaterThan(300);
  });
});

test("common commands are judged without loading mvdan-sh", async () => {
  const source = join(import.meta.dir, "../../../src/permissions/shell-parse.ts");
  const fixture = join(import.meta.dir, "fixture.ts");
  // A fresh process: other test files in this run have loaded the parser already.
  const script = `
    import { shellParserLoaded } from ${JSON.stringify(source)};
    import { bashCall, decide, makeProject } from ${JSON.stringify(fixture)};
    const project = makeProject();
    const spec = { allow: ["Bash(npm test *)", "Bash(bun test *)"] };
    const behaviors = [];
    for (const command of ${JSON.stringify(COMMON)}) behaviors.push((await decide(spec, project, bashCall(command))).behavior);
    const common = shellParserLoaded();
    await decide(spec, project, bashCall("echo $HOME"));
    console.log(JSON.stringify({ behaviors, common, afterExpansion: shellParserLoaded() }));
  `;
  const child = Bun.spawnSync([process.execPath, "-e", script], { stdout: "pipe", stderr: "pipe" });
  expect({ exitCode: child.exitCode, stderr: child.stderr.toString() }).toEqual({ exitCode: 0, stderr: "" });
  expect(JSON.parse(child.stdout.toString())).toEqual({
    behaviors: ["allow", "allow", "allow", "allow", "allow", "ask"],
    common: false,
    afterExpansion: true,
  });
});
