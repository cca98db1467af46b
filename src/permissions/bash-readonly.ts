/**
 * What a simple command does to files, judged from its words: whether it is in the built-in
 * read-only set (allowed without rules), which files it writes through redirections, and which
 * paths an `acceptEdits` file command (`mkdir touch rm rmdir mv cp sed -i`) touches. What it
 * reads is classified in command-reads.ts.
 */
import { SAFE_ENV_VARS, strippable } from "./bash-rules.ts";
import { commandReads } from "./command-reads.ts";
import { isSafeSedScript, sedScripts } from "./sed-script.ts";
import type { ShellRedirect, ShellWord, SimpleCommand } from "./shell-types.ts";

/** The read-only list: these run without a rule when every option is known and every path is inside the working directories. */
const READ_ONLY = new Set([
  "ls", "cat", "echo", "pwd", "head", "tail", "grep", "egrep", "fgrep", "rg", "find", "wc", "which", "diff", "stat", "du",
  "cd", "file", "tree", "sort", "uniq", "cut", "tr", "basename", "dirname", "realpath", "readlink", "date", "whoami", "env",
  "printenv", "true", "false", "test", "[", ":", "printf", "type", "command", "sed", "git",
]);

/** Places output may go without writing a file. */
const HARMLESS_TARGETS = new Set(["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"]);
const OUTPUT_OPS = new Set([">", ">>", ">|", "&>", "&>>", "<>"]);

/** Output redirections that write a file (`2>&1`, `>/dev/null` and heredocs do not). */
export function fileWrites(command: SimpleCommand): ShellRedirect[] {
  return command.redirects.filter((redirect) => {
    if (redirect.op === ">&") return !/^(\d+|-)$/.test(redirect.target.value);
    return OUTPUT_OPS.has(redirect.op) && !HARMLESS_TARGETS.has(redirect.target.value);
  });
}

/** Non-option words; `valueFlags` are short options that take the next word as their value. */
function positional(words: readonly ShellWord[], valueFlags = ""): ShellWord[] {
  const out: ShellWord[] = [];
  let options = true;
  for (let index = 1; index < words.length; index++) {
    const word = words[index] as ShellWord;
    const value = word.value;
    if (options && value === "--") {
      options = false;
      continue;
    }
    if (options && value.startsWith("-") && value !== "-") {
      if (!value.startsWith("--")) {
        const at = [...value.slice(1)].findIndex((flag) => valueFlags.includes(flag));
        if (at !== -1 && at === value.length - 2) index++;
      }
      continue;
    }
    out.push(word);
  }
  return out;
}

function hasOption(words: readonly ShellWord[], short: string): boolean {
  return words.slice(1).some((word) => !word.value.startsWith("--") && word.value.startsWith("-") && [...word.value.slice(1)].some((flag) => short.includes(flag)));
}

/** Read-only commands that read no files but have options of their own to watch. */
function builtinReadOnly(words: readonly ShellWord[]): boolean {
  const name = words[0]?.value ?? "";
  const args = words.slice(1);
  switch (name) {
    case "env":
      return args.length === 0;
    case "printf":
      return !args.some((word) => word.dynamic && /[$`]/.test(word.raw)) && !hasOption(words, "v");
    case "command":
      return hasOption(words, "vV") && !args.some((word) => word.dynamic);
    default:
      return true;
  }
}

/** Wrappers a read-only command may run under: the transparent ones and `xargs`. */
function readOnlyWrappers(command: SimpleCommand): boolean {
  return command.wrappers.every((wrapper) => strippable(wrapper) || wrapper.argv[0] === "xargs");
}

function assignmentName(raw: string): string {
  return /^([A-Za-z_][A-Za-z0-9_]*)\+?=/.exec(raw)?.[1] ?? "";
}

/**
 * Why the command is not in the built-in read-only set as called, or undefined when it is. `cd`
 * is judged by the caller (it depends on where it goes); output redirections are checked separately.
 */
export function notReadOnly(command: SimpleCommand): string | undefined {
  const name = command.words[0];
  if (!name || name.dynamic) return "the command's name is only known at run time";
  if (command.elevated) return "it runs with elevated privileges";
  if (command.exactOnly) return "it runs another command";
  if (!readOnlyWrappers(command)) return "it runs under a wrapper that changes how it runs";
  if (!command.assignments.every((raw) => SAFE_ENV_VARS.has(assignmentName(raw)))) return "it sets environment variables";
  if (!READ_ONLY.has(name.value)) return "it is not on the read-only list";
  if (!builtinReadOnly(command.words)) return "its options can run a program or set variables";
  return commandReads(command)?.notReadOnly;
}

export function isReadOnlyCommand(command: SimpleCommand): boolean {
  return notReadOnly(command) === undefined;
}

const FS_COMMANDS = new Set(["mkdir", "touch", "rm", "rmdir", "mv", "cp", "sed"]);

/**
 * The paths an `acceptEdits` file command touches, or undefined when the command is not one of
 * them (or is a sed whose script could run commands or write other files).
 */
export function fsEditTargets(command: SimpleCommand): ShellWord[] | undefined {
  const name = command.words[0]?.value ?? "";
  if (!FS_COMMANDS.has(name) || command.elevated || command.exactOnly || !readOnlyWrappers(command)) return undefined;
  if (!command.assignments.every((raw) => SAFE_ENV_VARS.has(assignmentName(raw)))) return undefined;
  if (name === "sed") {
    const sed = sedScripts(command.words);
    if (sed.scriptFiles.length > 0 || !sed.scripts.every(isSafeSedScript)) return undefined;
    return sed.files;
  }
  return positional(command.words, name === "cp" || name === "mv" ? "tS" : name === "mkdir" ? "m" : name === "touch" ? "rdt" : "");
}
