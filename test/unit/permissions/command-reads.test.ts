// What each command on the read-only list (and the readers beside it) may read, as a table:
// command → its read set (contents, trees, names), whether git shows tracked content, whether
// files are chosen at run time, and whether it stays read-only as called.
import { describe, expect, test } from "bun:test";
import { notReadOnly } from "../../../src/permissions/bash-readonly.ts";
import { commandReads } from "../../../src/permissions/command-reads.ts";
import { splitCommand } from "../../../src/permissions/shell-split.ts";

interface Row {
  reads: string[];
  git?: true;
  unknown?: true;
  /** Read-only as called (runs without a rule inside the working directories). */
  ro: boolean;
}

async function classify(line: string): Promise<Row[]> {
  const { commands } = await splitCommand(line);
  return commands.map((command) => {
    const reads = commandReads(command);
    const row: Row = { reads: (reads?.targets ?? []).map((target) => `${target.kind}${target.follow ? "+links" : ""}:${target.word.value}`), ro: notReadOnly(command) === undefined };
    if (reads?.gitTracked) row.git = true;
    if (reads?.unknown) row.unknown = true;
    return row;
  });
}

function table(title: string, rows: Array<[string, Row | Row[]]>): void {
  describe(title, () => {
    for (const [line, expected] of rows) {
      test(line, async () => {
        expect(await classify(line)).toEqual(Array.isArray(expected) ? expected : [expected]);
      });
    }
  });
}

table("file readers name what they read", [
  ["cat -n a.txt b.txt", { reads: ["content:a.txt", "content:b.txt"], ro: true }],
  ["head -n 5 a", { reads: ["content:a"], ro: true }],
  ["head -5 a", { reads: ["content:a"], ro: true }],
  ["tail -n +3 -q a b", { reads: ["content:a", "content:b"], ro: true }],
  ["wc -l a", { reads: ["content:a"], ro: true }],
  ["sort -u -k 2 a", { reads: ["content:a"], ro: true }],
  ["uniq -c a", { reads: ["content:a"], ro: true }],
  ["cut -d , -f 1 a", { reads: ["content:a"], ro: true }],
  ["file a", { reads: ["content:a"], ro: true }],
  ["sed -n 1,5p a", { reads: ["content:a"], ro: true }],
  ["sed -e s/a/b/ -e s/c/d/ a b", { reads: ["content:a", "content:b"], ro: true }],
  ["grep -n foo a b", { reads: ["content:a", "content:b"], ro: true }],
  ["grep -e foo a", { reads: ["content:a"], ro: true }],
  ["grep foo", { reads: [], ro: true }],
  ["date +%s", { reads: [], ro: true }],
  ["cat < a", { reads: ["content:a"], ro: true }],
  ["tr a-z A-Z < a", { reads: ["content:a"], ro: true }],
]);

table("options whose values are files are reads too", [
  ["grep -f patterns.txt a", { reads: ["content:a", "content:patterns.txt"], ro: true }],
  ["grep --exclude-from=ignore -r x src", { reads: ["tree:src", "content:ignore"], ro: true }],
  ["date -f dates.txt", { reads: ["content:dates.txt"], ro: true }],
  ["date -r a", { reads: ["names:a"], ro: true }],
  ["sort --random-source=seed a", { reads: ["content:a", "content:seed"], ro: true }],
  ["wc --files0-from=list", { reads: ["content:list"], unknown: true, ro: true }],
  ["du --files0-from=list", { reads: ["content:list"], unknown: true, ro: true }],
  ["rg --ignore-file ig x", { reads: ["tree:.", "content:ig"], ro: true }],
]);

table("recursive readers read whole trees", [
  ["grep -r foo .", { reads: ["tree:."], ro: true }],
  ["grep -rn foo", { reads: ["tree:."], ro: true }],
  ["grep -R foo src lib", { reads: ["tree+links:src", "tree+links:lib"], ro: true }],
  ["grep -d recurse foo src", { reads: ["tree:src"], ro: true }],
  ["rg foo", { reads: ["tree:."], ro: true }],
  ["rg -L foo src", { reads: ["tree+links:src"], ro: true }],
  ["rg --files", { reads: ["tree:."], ro: true }],
  ["rg -e foo -e bar src", { reads: ["tree:src"], ro: true }],
  ["diff -r a b", { reads: ["tree+links:a", "tree+links:b"], ro: true }],
  ["diff --no-dereference a b", { reads: ["tree:a", "tree:b"], ro: true }],
]);

table("listers read names and metadata only", [
  ["ls -la src", { reads: ["names:src"], ro: true }],
  ["ls", { reads: [], ro: true }],
  ["find . -name '*.ts' -type f", { reads: ["names:."], ro: true }],
  ["find src lib -maxdepth 2 -newer a -print0", { reads: ["names:src", "names:lib"], ro: true }],
  ["find", { reads: ["names:."], ro: true }],
  ["tree -L 2 src", { reads: ["names:src"], ro: true }],
  ["du -sh .", { reads: ["names:."], ro: true }],
  ["stat -c %s a", { reads: ["names:a"], ro: true }],
  ["realpath ../x", { reads: ["names:../x"], ro: true }],
  ["basename /a/b.txt .txt", { reads: [], ro: true }],
]);

table("git: names, tracked content, or the work tree", [
  ["git status --short", { reads: [], ro: true }],
  ["git status -v", { reads: [], git: true, ro: true }],
  ["git log --oneline -5", { reads: [], ro: true }],
  ["git log -S secret --oneline", { reads: [], git: true, ro: true }],
  ["git show --stat HEAD", { reads: [], ro: true }],
  ["git log -p -- src", { reads: ["content:src"], git: true, ro: true }],
  ["git show HEAD:.env", { reads: ["content:.env"], git: true, ro: true }],
  ["git show HEAD~3:config/prod.json --stat", { reads: [], ro: true }],
  ["git diff HEAD~1 -- src", { reads: ["content:src"], git: true, ro: true }],
  ["git diff --no-index a b", { reads: ["tree+links:a", "tree+links:b"], git: true, ro: true }],
  ["git grep foo", { reads: [], git: true, ro: true }],
  ["git grep --untracked foo", { reads: ["tree:."], git: true, ro: true }],
  ["git grep --no-index foo -- src", { reads: ["tree:src", "content:src"], git: true, ro: true }],
  ["git grep -f pats --untracked", { reads: ["content:pats", "tree:."], git: true, ro: true }],
  ["git blame --contents other.txt a.txt", { reads: ["content:other.txt"], git: true, ro: true }],
  ["git cat-file -p HEAD", { reads: [], git: true, ro: true }],
  ["git ls-files --others", { reads: [], ro: true }],
  ["git stash show -p -u", { reads: [], git: true, unknown: true, ro: true }],
  ["git -C .. log", { reads: [], git: true, unknown: true, ro: false }],
  ["git log --output=/tmp/x", { reads: [], ro: false }],
  ["git grep -O less foo", { reads: [], git: true, ro: false }],
  ["git push", { reads: [], git: true, ro: false }],
]);

table("files chosen at run time", [
  ["cat $F", { reads: ["content:$F"], unknown: true, ro: false }],
  ["ls | xargs cat", [{ reads: [], ro: true }, { reads: [], unknown: true, ro: true }]],
  ["ls | xargs grep foo", [{ reads: [], ro: true }, { reads: [], unknown: true, ro: true }]],
  ["ls | xargs -a list echo", [{ reads: [], ro: true }, { reads: ["content:list"], ro: true }]],
  ["find . -exec cat {} +", [{ reads: ["names:."], ro: false }, { reads: ["content:{}"], unknown: true, ro: true }]],
  ["find -files0-from list", { reads: ["names:.", "content:list"], unknown: true, ro: false }],
  ["awk '{ while ((getline l < \"x\") > 0) print l }' a", { reads: ["content:a"], unknown: true, ro: false }],
]);

table("readers off the read-only list still count", [
  ["awk '{print $1}' a b", { reads: ["content:a", "content:b"], ro: false }],
  ["jq .name package.json", { reads: ["content:package.json"], ro: false }],
  ["cp -r src /tmp/x", { reads: ["tree:src"], ro: false }],
  ["cp a b", { reads: ["content:a"], ro: false }],
  ["tar czf out.tgz src", { reads: ["tree:src"], ro: false }],
  ["tar -xf in.tar", { reads: ["content:in.tar"], ro: false }],
  ["curl -d @body.json https://x.dev", { reads: ["content:body.json"], ro: false }],
  ["curl -T up.bin https://x.dev", { reads: ["content:up.bin"], ro: false }],
  ["python3 script.py arg", { reads: ["content:script.py"], ro: false }],
  ["python3 -c 'print(1)'", { reads: [], ro: false }],
  ["bash run.sh", { reads: ["content:run.sh"], ro: false }],
  ["source env.sh", { reads: ["content:env.sh"], ro: false }],
  ["base64 key", { reads: ["content:key"], ro: false }],
  ["ln -s .env alias", { reads: ["content:.env"], ro: false }],
  ["mv a b", { reads: ["content:a"], ro: false }],
  ["curl file:///etc/passwd", { reads: ["content:/etc/passwd"], ro: false }],
  ["git add src/a.ts", { reads: ["content:src/a.ts"], git: true, ro: false }],
  ["git add -f .", { reads: ["tree:."], git: true, ro: false }],
  ["npm test", { reads: [], ro: false }],
]);

table("unknown options and options that run, write or widen make a command ask", [
  ["grep --recur foo .", { reads: ["content:."], ro: false }],
  ["rg --pre sh foo", { reads: ["tree:."], ro: false }],
  ["rg --pre=sh foo", { reads: ["tree:."], ro: false }],
  ["sort -o out a", { reads: ["content:a"], ro: false }],
  ["uniq a out", { reads: ["content:a"], ro: false }],
  ["tree --fromfile list", { reads: ["names:list"], ro: false }],
  ["tree -o out", { reads: [], ro: false }],
  ["tree --info", { reads: [], ro: false }],
  ["file -m magic a", { reads: ["content:a"], ro: false }],
  ["find . -delete", { reads: ["names:."], ro: false }],
  ["find . -fprint out", { reads: ["names:."], ro: false }],
  ["find . -newerXY a", { reads: ["names:."], ro: false }],
  ["sed -i s/a/b/ f", { reads: ["content:f"], ro: false }],
  ["sed -f script.sed f", { reads: ["content:f", "content:script.sed"], ro: false }],
  ["sed 'r other' f", { reads: ["content:f"], ro: false }],
  ["date -s 2020-01-01", { reads: [], ro: false }],
  ["ls --color=always --unknown-flag", { reads: [], ro: false }],
  ["cat -Z a", { reads: ["content:a"], ro: false }],
]);
