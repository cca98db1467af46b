/**
 * What a simple command does to files, judged from its words: whether it is in the built-in
 * read-only set (allowed without rules), which files it reads (checked against Read deny rules),
 * which files it writes through redirections, and which paths an `acceptEdits` file command
 * (`mkdir touch rm rmdir mv cp sed -i`) touches.
 */
import { SAFE_ENV_VARS, strippable } from "./bash-rules.ts";
import type { ShellRedirect, ShellWord, SimpleCommand } from "./shell-types.ts";
import { skipOptions } from "./shell-wrappers.ts";

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

function hasOption(words: readonly ShellWord[], short: string, long: readonly string[]): boolean {
  return words.slice(1).some((word) => {
    const value = word.value;
    if (value.startsWith("--")) return long.some((name) => value === `--${name}` || value.startsWith(`--${name}=`));
    return value.startsWith("-") && [...value.slice(1)].some((flag) => short.includes(flag));
  });
}

/** A sed script made only of substitutions without `e`/`w` flags and print/delete/quit commands. */
export function isSafeSedScript(script: string): boolean {
  const rest = script
    .replace(/s(.)(?:(?!\1)[^\\\n]|\\.)*\1(?:(?!\1)[^\\\n]|\\.)*\1[gpIiMm0-9]*/g, " ")
    .replace(/y(.)(?:(?!\1)[^\\\n]|\\.)*\1(?:(?!\1)[^\\\n]|\\.)*\1/g, " ")
    .replace(/\/(?:[^\\/\n]|\\.)*\/I?/g, " ");
  return /^[\s\d,$;!{}+~pdqQ=nNlgGhHxz]*$/.test(rest);
}

function sedScripts(words: readonly ShellWord[]): { scripts: string[]; files: ShellWord[]; inPlace: boolean; fromFile: boolean } {
  const options = skipOptions(words, 1, { short: "efl", long: ["expression", "file", "line-length"] });
  const scripts = options.seen.filter((o) => o.name === "-e" || o.name === "--expression").map((o) => o.value ?? "");
  const fromFile = options.seen.some((o) => o.name === "-f" || o.name === "--file");
  const inPlace = hasOption(words, "i", ["in-place"]);
  const rest = positional(words, "efl");
  if (scripts.length === 0 && !fromFile) {
    const first = rest.shift();
    if (first) scripts.push(first.dynamic ? "\0" : first.value);
  }
  return { scripts, files: rest, inPlace, fromFile };
}

const GIT_READ_ONLY = new Set([
  "status", "log", "diff", "show", "blame", "shortlog", "describe", "rev-parse", "rev-list", "ls-files", "ls-tree",
  "cat-file", "merge-base", "name-rev", "show-ref", "for-each-ref", "count-objects", "grep", "version", "help", "whatchanged",
]);
const GIT_SAFE_GLOBAL = new Set(["--no-pager", "-P", "--paginate", "-p", "--no-optional-locks", "--literal-pathspecs", "--no-replace-objects"]);

function gitReadOnly(words: readonly ShellWord[]): boolean {
  let index = 1;
  while (index < words.length && (words[index]?.value ?? "").startsWith("-")) {
    // `-c`, `--exec-path`, `-C`, `--git-dir` and the rest can run or redirect anything.
    if (!GIT_SAFE_GLOBAL.has(words[index]?.value ?? "")) return false;
    index++;
  }
  const sub = words[index]?.value ?? "";
  const args = words.slice(index + 1).map((word) => word.value);
  const flags = (short: string, long: readonly string[]) => hasOption(words.slice(index), short, long);
  if (args.some((arg) => arg.startsWith("--output") || arg === "--ext-diff" || arg.startsWith("--open-files-in-pager") || arg === "-O")) return false;
  if (GIT_READ_ONLY.has(sub)) return true;
  const positionals = args.filter((arg) => !arg.startsWith("-"));
  switch (sub) {
    case "branch":
      if (flags("dDmMcCfut", ["delete", "move", "copy", "force", "set-upstream-to", "unset-upstream", "edit-description", "track", "no-track", "create-reflog"])) return false;
      return positionals.length === 0 || flags("l", ["list"]);
    case "tag":
      if (flags("dasfmuFe", ["delete", "annotate", "sign", "force", "message", "local-user", "file", "edit"])) return false;
      return positionals.length === 0 || flags("l", ["list"]);
    case "remote":
      return args.every((arg) => arg === "-v" || arg === "--verbose") || ((args[0] === "get-url" || args[0] === "show") && args.length <= 3);
    case "config":
      if (args[0] === "get" || args[0] === "list") return true;
      return args.some((arg) => /^--(get|get-all|get-regexp|get-urlmatch|list)$/.test(arg) || arg === "-l") &&
        !args.some((arg) => /^--(add|unset|unset-all|replace-all|edit|rename-section|remove-section)$/.test(arg) || arg === "-e");
    case "stash":
      return args[0] === "list" || args[0] === "show";
    case "worktree":
      return args[0] === "list";
    case "reflog":
      return args.length === 0 || args[0] === "show";
    default:
      return false;
  }
}

/**
 * Commands whose options can write or run things: an argument only known at run time (`find .
 * *`, `rg $X`) could turn into such an option (a file named `-delete`, X=--pre=sh).
 */
const OPTION_SENSITIVE = new Set(["find", "rg", "file", "tree", "sort", "uniq", "date", "env", "printf", "command", "sed", "git"]);

function commandReadOnly(words: readonly ShellWord[]): boolean {
  const name = words[0]?.value ?? "";
  const args = words.slice(1);
  if (OPTION_SENSITIVE.has(name) && args.some((word) => word.dynamic)) return false;
  switch (name) {
    case "find":
      return !args.some((word) => /^-(exec|execdir|ok|okdir|delete|fprint|fprint0|fprintf|fls)$/.test(word.value));
    case "rg":
      return !hasOption(words, "", ["pre", "pre-glob", "hostname-bin"]);
    case "file":
      return !hasOption(words, "mfC", ["magic-file", "files-from", "compile"]);
    case "tree":
      return !hasOption(words, "o", ["output"]);
    case "sort":
      return !hasOption(words, "o", ["output", "compress-program"]);
    case "uniq":
      return positional(words, "fsw").length <= 1;
    case "date":
      return !hasOption(words, "s", ["set"]) && positional(words, "dfr").every((word) => word.value.startsWith("+"));
    case "env":
      return args.length === 0;
    case "printf":
      return !hasOption(words, "v", []);
    case "command":
      return hasOption(words, "vV", []);
    case "sed": {
      const sed = sedScripts(words);
      return !sed.inPlace && !sed.fromFile && sed.scripts.every(isSafeSedScript);
    }
    case "git":
      return gitReadOnly(words);
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
 * Whether the command is in the built-in read-only set. `cd` is judged by the caller (it depends
 * on where it goes); output redirections are checked separately.
 */
export function isReadOnlyCommand(command: SimpleCommand): boolean {
  const name = command.words[0];
  if (!name || name.dynamic || command.elevated || command.exactOnly) return false;
  if (!readOnlyWrappers(command)) return false;
  if (!command.assignments.every((raw) => SAFE_ENV_VARS.has(assignmentName(raw)))) return false;
  if (!READ_ONLY.has(name.value)) return false;
  return commandReadOnly(command.words);
}

const READERS: Record<string, string> = {
  cat: "", head: "nc", tail: "ncs", less: "", more: "", grep: "efmABCD", egrep: "efmABCD", fgrep: "efmABCD", rg: "efmABCgtT",
  sed: "efl", awk: "fvF", sort: "otkS", uniq: "fsw", wc: "", diff: "", cp: "tS", nl: "", od: "", xxd: "", strings: "",
  base64: "", md5sum: "", sha1sum: "", sha256sum: "", sha512sum: "", cksum: "", tac: "", jq: "", yq: "", cut: "df",
  paste: "d", comm: "", join: "", fold: "w", iconv: "ft", hexdump: "", bat: "", source: "", ".": "",
};
/** Readers whose first positional argument is a pattern or program, unless one was given by option. */
const PATTERN_FIRST: Record<string, { short: string; long: readonly string[] }> = {
  grep: { short: "ef", long: ["regexp", "file"] }, egrep: { short: "ef", long: ["regexp", "file"] },
  fgrep: { short: "ef", long: ["regexp", "file"] }, rg: { short: "ef", long: ["regexp", "file"] },
  sed: { short: "ef", long: ["expression", "file"] }, awk: { short: "f", long: ["file"] },
  jq: { short: "", long: [] }, yq: { short: "", long: [] },
};

/** Files the command reads: reader arguments (best effort) and `<` redirections. */
export function fileReads(command: SimpleCommand): ShellWord[] {
  const reads = command.redirects.filter((redirect) => redirect.op === "<" || redirect.op === "<>").map((redirect) => redirect.target);
  const name = command.words[0]?.value.replace(/^.*\//, "") ?? "";
  const valueFlags = READERS[name];
  if (valueFlags === undefined) return reads;
  const args = positional(command.words, valueFlags);
  const patternFirst = PATTERN_FIRST[name];
  if (patternFirst && !hasOption(command.words, patternFirst.short, patternFirst.long)) args.shift();
  if (name === "cp") args.pop();
  // Script and pattern files named by option are read too.
  const fromOptions = skipOptions(command.words, 1, { short: valueFlags }).seen
    .filter((option) => option.name === "-f" || option.name === "--file")
    .map((option) => ({ value: option.value ?? "", raw: option.value ?? "", dynamic: false, tilde: false }));
  return [...reads, ...args, ...fromOptions];
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
    if (sed.fromFile || !sed.scripts.every(isSafeSedScript)) return undefined;
    return sed.files;
  }
  return positional(command.words, name === "cp" || name === "mv" ? "tS" : name === "mkdir" ? "m" : name === "touch" ? "rdt" : "");
}
