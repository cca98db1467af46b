/**
 * The facts a Bash decision rests on, gathered once per command line: every simple command, the
 * paths each reads (as contents, trees or names) and writes, resolved in every directory the line
 * may run in (where Bash is now, and any `cd` or `env -C` target), with globs expanded as Bash
 * would where the file system can be seen.
 */
import { isAbsolute, relative } from "node:path";
import { fileWrites, fsEditTargets } from "./bash-readonly.ts";
import { commandReads } from "./command-reads.ts";
import { pathForms, type PathForms } from "./path-rules.ts";
import type { CommandReads, ReadKind } from "./read-types.ts";
import type { ShellWord, SimpleCommand } from "./shell-types.ts";
import type { PermissionContext } from "./types.ts";

export interface FileUse {
  /** The word as written, for messages. */
  word: ShellWord;
  /** One set of forms per directory the command may run in, or per file a glob expands to. */
  forms: PathForms[];
  command: SimpleCommand;
  /** An output redirection (as opposed to a file command's argument). */
  redirect: boolean;
  /** A glob that could not be expanded (`.en*`): checked against the file names rules mention. */
  glob: boolean;
  kind: ReadKind | "write";
  follow: boolean;
}

export interface Facts {
  whole: string;
  commands: SimpleCommand[];
  problems: string[];
  /** Contents and trees read: Read deny rules must not cover any of them. */
  reads: FileUse[];
  /** Paths only listed or inspected (names, sizes, times). */
  listed: FileUse[];
  writes: FileUse[];
  /** Commands that read files only known at run time, and why. */
  unknown: Array<{ command: SimpleCommand; why: string }>;
  /** Commands that print content git tracks. */
  gitTracked: SimpleCommand[];
  /** Trees read only outside a git repository (`git diff A B`). */
  outsideRepo: FileUse[];
  readsOf: Map<SimpleCommand, CommandReads | undefined>;
  /** Commands whose leading glob may expand to an option. */
  optionGlobs: Set<SimpleCommand>;
  /** `cd` to somewhere other than where Bash is happens in the line. */
  changesDir: boolean;
  cdTargets: string[];
  /** Where Bash runs when the line starts. */
  base: string;
}

const DIR_CHANGES = new Set(["cd", "pushd", "popd"]);
/** Links the kernel resolves per process (`/proc/self/cwd/.env`): where they lead is the shell's business. */
const PROCESS_LINKS = /^\/(proc\/(self|thread-self|\d+)(\/task\/\d+)?\/(cwd|root|fd|map_files)|dev\/fd)(\/|$)/;

export function staticValue(word: ShellWord): boolean {
  return !/[$`]/.test(word.value);
}

function envChdir(cmd: SimpleCommand): string | undefined {
  for (const wrapper of cmd.wrappers) {
    if (wrapper.argv[0] !== "env") continue;
    const at = wrapper.argv.findIndex((word) => word === "-C" || word === "--chdir");
    const inline = wrapper.argv.find((word) => word.startsWith("--chdir="))?.slice(8);
    const dir = at === -1 ? inline : wrapper.argv[at + 1];
    if (dir !== undefined) return dir;
  }
  return undefined;
}

/** Bash's expansion of a glob word in each directory, or undefined when it cannot be seen. */
function expand(word: ShellWord, dirs: readonly string[], context: PermissionContext): string[] | undefined {
  const view = context.files;
  if (!view) return undefined;
  const out: string[] = [];
  for (const dir of dirs) {
    const matches = view.expandGlob(word.value, dir);
    if (matches === undefined) return undefined;
    out.push(...matches);
  }
  return out;
}

function usesOf(words: readonly ShellWord[], cmd: SimpleCommand, dirs: string[], context: PermissionContext, kind: FileUse["kind"], follow = false, redirect = false): FileUse[] {
  return words.filter(staticValue).map((word): FileUse => {
    const at = (cwd: string) => pathForms(word.value, { ...context, cwd });
    const base = { word, command: cmd, redirect, kind, follow };
    if (!word.dynamic) return { ...base, glob: false, forms: dirs.map(at) };
    const matches = expand(word, dirs, context);
    if (matches === undefined) return { ...base, glob: true, forms: dirs.map(at) };
    // No match: Bash passes the glob on as it is, which names no file.
    return { ...base, glob: false, forms: matches.length > 0 ? matches.map((path) => pathForms(path, context)) : dirs.map(at) };
  });
}

function globMayBeOption(words: readonly ShellWord[], dirs: readonly string[], context: PermissionContext): boolean {
  return words.some((word) => {
    const matches = expand(word, dirs, context);
    if (matches === undefined) return true;
    return matches.some((path) => dirs.some((dir) => {
      const name = isAbsolute(word.value) ? path : relative(dir, path);
      return name.startsWith("-");
    }));
  });
}

export function gatherFacts(command: string, commands: SimpleCommand[], problems: string[], context: PermissionContext): Facts {
  const base = context.shellCwd ?? context.cwd;
  const here = { ...context, cwd: base };
  const dirChanges = commands.filter((cmd) => DIR_CHANGES.has(cmd.argv[0] ?? ""));
  const cdTargets = dirChanges
    .map((cmd) => cmd.words[1])
    .filter((word): word is ShellWord => word !== undefined && staticValue(word))
    .map((word) => pathForms(word.value, here).resolved);
  const chdirs = commands.flatMap((cmd) => {
    const dir = envChdir(cmd);
    return dir === undefined ? [] : [pathForms(dir, here).resolved];
  });
  const changesDir =
    chdirs.length > 0 ||
    dirChanges.some((cmd) => {
      const target = cmd.words[1];
      return target === undefined || !staticValue(target) || pathForms(target.value, here).resolved !== base;
    });
  const dirs = [base, ...cdTargets, ...chdirs];
  const facts: Facts = {
    whole: command.trim(), commands, problems, reads: [], listed: [], writes: [], unknown: [], gitTracked: [], outsideRepo: [],
    readsOf: new Map(), optionGlobs: new Set(), changesDir, cdTargets: [...cdTargets, ...chdirs], base,
  };
  for (const cmd of commands) {
    const reads = commandReads(cmd);
    facts.readsOf.set(cmd, reads);
    for (const target of reads?.targets ?? []) {
      const uses = usesOf([target.word], cmd, dirs, context, target.kind, target.follow ?? false);
      (target.kind === "names" ? facts.listed : facts.reads).push(...uses);
      if (target.kind !== "names" && !staticValue(target.word)) facts.unknown.push({ command: cmd, why: `it reads ${target.word.raw}, a path only known at run time` });
      if (target.kind !== "names" && uses.some((use) => use.forms.some((forms) => PROCESS_LINKS.test(forms.resolved)))) {
        facts.unknown.push({ command: cmd, why: `it reads ${target.word.raw}, a per-process link that can lead to any file` });
      }
    }
    if (reads?.unknown) facts.unknown.push({ command: cmd, why: reads.unknown });
    if (reads?.gitTracked) facts.gitTracked.push(cmd);
    for (const target of reads?.outsideRepo ?? []) facts.outsideRepo.push(...usesOf([target.word], cmd, dirs, context, "tree", target.follow ?? false));
    if (reads?.optionGlobs && globMayBeOption(reads.optionGlobs, dirs, context)) facts.optionGlobs.add(cmd);
    facts.writes.push(...usesOf(fileWrites(cmd).map((redirect) => redirect.target), cmd, dirs, context, "write", false, true));
    facts.writes.push(...usesOf(fsEditTargets(cmd) ?? [], cmd, dirs, context, "write"));
  }
  return facts;
}
