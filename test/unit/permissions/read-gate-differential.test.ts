// The read gate against reality: every command below is run for real by bash in a temp git
// repository whose denied files hold canaries, and judged by the gate under the same rules. A
// command the gate lets run without asking must never print a canary; the ones that do print one
// when run show the tree is baited well enough for that to mean something.
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { evaluate } from "../../../src/permissions/evaluate.ts";
import { bashCall, contextFor, makeProject, rulesFor, type Project } from "./fixture.ts";

/** Denied files git ignores, and (in TRACKED) one it tracks; each holds its own canary. */
const DENY = { deny: ["Read(./.env)", "Read(./secrets/**)", "Read(**/.env.local)"], canaries: ["CANARY-ENV", "CANARY-NESTED", "CANARY-KEY"] };
const TRACKED = { deny: [...DENY.deny, "Read(./config/prod.json)"], canaries: [...DENY.canaries, "CANARY-TRACKED"] };
/** A file that was committed, then taken out of the index: only git's history has it. */
const HISTORY = { deny: [...DENY.deny, "Read(./old/legacy.key)"], canaries: [...DENY.canaries, "CANARY-HISTORY"] };

let project: Project;
beforeAll(() => {
  project = makeProject();
  const at = (path: string) => join(project.cwd, path);
  for (const dir of ["src/lib", "docs", "secrets", "config", "pkg", "empty"]) mkdirSync(at(dir), { recursive: true });
  writeFileSync(at(".env"), "API_KEY=CANARY-ENV-7f3a\n");
  writeFileSync(at("pkg/.env.local"), "TOKEN=CANARY-NESTED-91c2\n");
  writeFileSync(at("secrets/key.pem"), "-----BEGIN CANARY-KEY-55d0-----\n");
  writeFileSync(at("config/prod.json"), '{ "password": "CANARY-TRACKED-e1b4" }\n');
  writeFileSync(at("config/dev.json"), '{ "password": "dev" }\n');
  writeFileSync(at("src/app.ts"), "export const app = 1; // TODO tidy\n");
  writeFileSync(at("src/lib/util.ts"), "export const util = 2;\n");
  writeFileSync(at("docs/readme.md"), "# Project\nRun npm test.\n");
  writeFileSync(at(".gitignore"), ".env\n.env.local\nsecrets/\n");
  writeFileSync(at("list.txt"), "src/app.ts\n");
  symlinkSync("../../.env", at("src/lib/env-link"));
  const git = (...args: string[]) => Bun.spawnSync(["git", "-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd: project.cwd, stdout: "ignore", stderr: "ignore" });
  git("init", "-q");
  mkdirSync(at("old"));
  writeFileSync(at("old/legacy.key"), "CANARY-HISTORY-0b7c\n");
  git("add", ".");
  git("commit", "-qm", "initial");
  git("rm", "-q", "--cached", "old/legacy.key");
  git("commit", "-qm", "untrack the key");
  rmSync(at("old/legacy.key"));
  writeFileSync(at("src/app.ts"), "export const app = 3; // TODO tidy\n");
});

/** Everyday commands: the gate must let these run without asking. */
const EVERYDAY = [
  "ls", "ls -la", "ls -R src", "pwd", "git status", "git status --short", "git log --oneline -3", "git diff", "git diff --stat",
  "git show --stat HEAD", "git show HEAD", "git log -p -1", "git branch", "cat src/app.ts", "cat docs/readme.md src/lib/util.ts", "head -5 docs/readme.md",
  "wc -l src/app.ts", "grep -rn TODO src", "grep -r util src/lib", "rg TODO src", "rg -n util docs src/app.ts", "find . -name '*.ts'",
  "find src -type f", "tree -L 2 src", "du -sh src", "sort config/dev.json", "git grep TODO", "git ls-files",
  "git log -p -1 -- src", "git grep password -- config", "diff src/app.ts src/lib/util.ts", "diff -r docs empty", "sed -n 1p docs/readme.md",
];

/** Readers that reach a denied file some other way than by naming it. */
const INDIRECT = [
  "grep -r CANARY .", "grep -rn CANARY", "grep -R CANARY src", "grep -rl CANARY --include='*' .", "grep -r -e CANARY -- .",
  "rg CANARY", "rg -uuu CANARY", "rg --hidden --no-ignore CANARY .", "rg -L --no-ignore CANARY src", "rg CANARY pkg",
  "git grep --untracked CANARY", "git grep --no-index CANARY", "git grep --no-index -e CANARY -- secrets",
  "git diff --no-index /dev/null .env", "git diff --no-index empty secrets",
  "find . -type f | xargs cat", "find . -type f -print0 | xargs -0 grep CANARY", "find . -name '.env*' -exec cat {} +",
  "find . -path ./secrets -prune -o -type f -exec grep -l CANARY {} ;", "ls -a | xargs cat", "cat .env*", "cat .e*",
  "cat ./src/../.env", "cat src/lib/env-link", "cd src && cat ../.env", "cd secrets && cat key.pem", "head -c 200 .en?",
  "tail -n 5 secrets/*", "cat secrets/*", "cat s*/k*", "cat {.env,docs/readme.md}", "cat pkg/.env.local", "cat pkg/.e*",
  "cat /proc/self/cwd/.env", "sort .env", "uniq .env", "cut -c1- .env", "wc --files0-from=list.txt", "tr a-z A-Z < .env",
  "sed -n p .env", "sed -n 1p secrets/key.pem", "diff .env /dev/null", "diff -r . empty", "diff -r secrets empty",
  "awk '{print}' .env", "echo $(<.env)", "echo \"$(cat .env)\"", "xargs -a .env echo", "date -f .env", "file -f list.txt",
  "tree --fromfile .env", "base64 .env", "od -c .env", "strings secrets/key.pem", "grep -f .env -r . -l", "cat < .env",
  "while read l; do echo $l; done < .env", "for f in .env; do cat $f; done", "cat \"$(echo .env)\"", "bash -c 'cat .env'",
  "sh -c 'grep -r CANARY .'", "env cat .env", "timeout 5 cat .env", "nice grep -r CANARY .", "command cat .env",
  "cat -- .env", "cat ./.env", "cat .//.env", "cat \"$PWD/.env\"", "cat ~+/.env", "cp -r . /tmp/clew-copy-$$ && cat /tmp/clew-copy-$$/.env",
  "tar cf - . | tar xOf -", "cat `echo .env`", "less .env", "head -n 1 -- secrets/key.pem", "rg -e CANARY -- secrets",
];

/** Commands that print what git tracks: they may show a tracked denied file. */
const TRACKED_READERS = [
  "git show HEAD:config/prod.json", "git log -p", "git log -p -- config", "git show HEAD", "git cat-file -p HEAD:config/prod.json",
  "git grep CANARY", "git grep -h password -- config", "git blame config/prod.json", "git log -S CANARY --oneline", "git diff HEAD~0 -- config",
];

/** Commands that print what git's history holds. */
const HISTORY_READERS = ["git log -p", "git log -p --all", "git show HEAD~1", "git show HEAD~1:old/legacy.key", "git log -p -- old", "git diff HEAD~1 HEAD"];

interface Outcome {
  command: string;
  behavior: string;
  leaked: boolean;
}

async function judge(command: string, rules = DENY): Promise<Outcome> {
  const decision = await evaluate(rulesFor(rules, project.cwd), bashCall(command), contextFor(project));
  const run = Bun.spawnSync(["bash", "-c", command], {
    cwd: project.cwd,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: project.home, PWD: project.cwd, GIT_PAGER: "cat", PAGER: "cat", LESS: "", TERM: "dumb" },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    timeout: 10_000,
  });
  const output = run.stdout.toString() + run.stderr.toString();
  return { command, behavior: decision.behavior, leaked: rules.canaries.some((canary) => output.includes(canary)) };
}

describe("the read gate, differentially against real runs", () => {
  test("no command the gate allows prints a canary; the baited tree makes most indirect readers leak when run", async () => {
    const outcomes: Outcome[] = [];
    for (const command of [...EVERYDAY, ...INDIRECT]) outcomes.push(await judge(command));
    for (const command of [...EVERYDAY, ...TRACKED_READERS]) outcomes.push(await judge(command, TRACKED));
    for (const command of HISTORY_READERS) outcomes.push(await judge(command, HISTORY));
    const allowedLeaks = outcomes.filter((outcome) => outcome.behavior === "allow" && outcome.leaked).map((outcome) => outcome.command);
    expect(allowedLeaks).toEqual([]);
    const leakedWhenRun = outcomes.filter((outcome) => outcome.leaked).length;
    expect(leakedWhenRun).toBeGreaterThan((INDIRECT.length + TRACKED_READERS.length + HISTORY_READERS.length) * 0.8);
  }, 120_000);

  test("everyday commands run without asking, and print no canary", async () => {
    const outcomes: Outcome[] = [];
    for (const command of EVERYDAY) outcomes.push(await judge(command));
    expect(outcomes.filter((outcome) => outcome.behavior !== "allow" || outcome.leaked)).toEqual([]);
  }, 60_000);

  test("indirect readers are never allowed without asking", async () => {
    const outcomes: Outcome[] = [];
    for (const command of INDIRECT) outcomes.push(await judge(command));
    expect(outcomes.filter((outcome) => outcome.behavior === "allow").map((outcome) => outcome.command)).toEqual([]);
  }, 120_000);

  test("when git tracks a denied file, git commands that can print it ask; those that print names do not", async () => {
    const outcomes: Outcome[] = [];
    for (const command of TRACKED_READERS) outcomes.push(await judge(command, TRACKED));
    expect(outcomes.filter((outcome) => outcome.behavior === "allow").map((outcome) => outcome.command)).toEqual([]);
    const names = ["git status", "git log --oneline -3", "git show --stat HEAD", "git ls-files", "git diff --name-only"];
    const judged: Outcome[] = [];
    for (const command of names) judged.push(await judge(command, TRACKED));
    expect(judged.filter((outcome) => outcome.behavior !== "allow")).toEqual([]);
  }, 60_000);

  test("a denied file that only git's history holds: commands that can show history ask", async () => {
    const outcomes: Outcome[] = [];
    for (const command of HISTORY_READERS) outcomes.push(await judge(command, HISTORY));
    expect(outcomes.filter((outcome) => outcome.behavior === "allow").map((outcome) => outcome.command)).toEqual([]);
    expect(outcomes.filter((outcome) => outcome.leaked).length).toBeGreaterThan(3);
    const names: Outcome[] = [];
    for (const command of ["git status", "git log --oneline", "git ls-files"]) names.push(await judge(command, HISTORY));
    expect(names.filter((outcome) => outcome.behavior !== "allow")).toEqual([]);
  }, 60_000);
});
