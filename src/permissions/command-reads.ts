/**
 * Classifies one simple command by what it may read — paths it names, trees it reads
 * recursively, content git shows, files only known at run time — and whether, as called, it is
 * read-only. The Bash gate checks the result against Read deny rules, so a denied file stays out
 * of reach however a command names it.
 */
import { hasAny, parseArgs, valuesOf } from "./option-parse.ts";
import { isSafeSedScript, sedScripts } from "./sed-script.ts";
import { gitReads } from "./git-reads.ts";
import { READER_SPECS, SCRIPT_RUNNERS } from "./read-specs.ts";
import type { CommandReads, ReaderSpec, ReadTarget } from "./read-types.ts";
import type { ShellWord, SimpleCommand } from "./shell-types.ts";
import { literalWord } from "./shell-words.ts";

/** Readers none of whose options runs, writes or widens what is read: a glob that expands to an option is harmless. */
const OPTIONS_HARMLESS = new Set(["ls", "cat", "head", "tail", "stat", "cut", "tr", "realpath", "readlink", "basename", "dirname", "which", "nl", "tac", "rev", "md5sum", "sha1sum", "sha256sum", "sha512sum"]);

/** Commands that read no files and run nothing (their read-only-ness is judged in bash-readonly). */
const NO_FILES = new Set(["echo", "printf", "pwd", "whoami", "true", "false", ":", "test", "[", "type", "command", "env", "printenv", "cd", "id", "hostname", "uname", "nproc", "arch", "tty", "groups"]);

const DOT = literalWord(".");

const runTimeOnly = (word: ShellWord): boolean => word.dynamic && /[$`]/.test(word.raw);
/** A glob whose expansion may start with `-`: it begins with a pattern character. */
const mayExpandToOption = (word: ShellWord): boolean => word.dynamic && !runTimeOnly(word) && /^[*?[{]/.test(word.raw);

function readsOfSpec(words: readonly ShellWord[], spec: ReaderSpec): CommandReads {
  const parsed = parseArgs(words, spec.options);
  const reads: CommandReads = { targets: [], gitTracked: false };
  const unsafe = parsed.options.find((option) => spec.unsafe?.includes(option.name));
  if (!spec.readOnly) reads.notReadOnly = "it is not on the read-only list";
  else if (unsafe) reads.notReadOnly = `its option ${unsafe.name} can run a program or write a file`;
  else if (parsed.unknown.length > 0) reads.notReadOnly = `its option ${parsed.unknown[0]} is not known to be read-only`;
  else if (parsed.missingValue) reads.notReadOnly = `its option ${parsed.missingValue} has no value`;

  const recursive = spec.operands === "tree" || (spec.recursive !== undefined && hasAny(parsed, spec.recursive)) || directoriesRecurse(parsed);
  const follow = spec.follow === true ? !(spec.noFollow && hasAny(parsed, spec.noFollow)) : spec.follow !== undefined && hasAny(parsed, spec.follow);
  const skipped = spec.skipUnless && hasAny(parsed, spec.skipUnless) ? 0 : (spec.skip ?? 0);
  let operands = parsed.operands.slice(skipped);
  if (spec.lastIsDestination && operands.length > 1) operands = operands.slice(0, -1);
  if (spec.maxInputs !== undefined && operands.length > spec.maxInputs) {
    reads.notReadOnly ??= "it writes its output to a file";
    operands = operands.slice(0, spec.maxInputs);
  }
  if (spec.operands !== "none") {
    const kind = spec.operands === "names" ? "names" : recursive ? "tree" : "content";
    reads.targets.push(...operands.map((word): ReadTarget => (kind === "tree" ? { word, kind, follow } : { word, kind })));
    const implicit = spec.defaultTree === "always" || (spec.defaultTree === "recursive" && recursive);
    if (operands.length === 0 && implicit) reads.targets.push({ word: DOT, kind: "tree", follow });
  }
  for (const word of valuesOf(parsed, [...(spec.fileValues ?? []), ...(spec.nameFiles ?? [])])) reads.targets.push({ word, kind: "content" });
  if (spec.nameFiles && hasAny(parsed, spec.nameFiles)) reads.unknown = "it reads the names of the files to open from another file";
  if (words.slice(1).some(runTimeOnly)) {
    reads.unknown ??= "its arguments are only known at run time";
    reads.notReadOnly ??= "an argument only known at run time could be an option";
  }
  return reads;
}

/** grep `-d recurse` / `--directories=recurse`. */
function directoriesRecurse(parsed: ReturnType<typeof parseArgs>): boolean {
  return valuesOf(parsed, ["-d", "--directories"]).some((word) => word.value === "recurse");
}

function sedReads(words: readonly ShellWord[]): CommandReads {
  const sed = sedScripts(words);
  const reads: CommandReads = { targets: sed.files.map((word) => ({ word, kind: "content" })), gitTracked: false };
  reads.targets.push(...sed.scriptFiles.map((word): ReadTarget => ({ word, kind: "content" })));
  if (sed.inPlace) reads.notReadOnly = "sed -i edits files";
  else if (sed.scriptFiles.length > 0) reads.notReadOnly = "its script comes from a file";
  else if (!sed.scripts.every(isSafeSedScript)) reads.notReadOnly = "its script can run commands, or read or write other files";
  else if (sed.unknown.length > 0) reads.notReadOnly = `its option ${sed.unknown[0]} is not known to be read-only`;
  if (words.slice(1).some(runTimeOnly)) {
    reads.unknown = "its arguments are only known at run time";
    reads.notReadOnly ??= "an argument only known at run time could be an option";
  }
  return reads;
}

/** find's predicates that only test names and metadata, with the number of values each takes. */
const FIND_TESTS: Record<string, number> = {
  "-name": 1, "-iname": 1, "-path": 1, "-ipath": 1, "-wholename": 1, "-iwholename": 1, "-regex": 1, "-iregex": 1,
  "-lname": 1, "-ilname": 1, "-type": 1, "-xtype": 1, "-size": 1, "-mtime": 1, "-mmin": 1, "-atime": 1, "-amin": 1,
  "-ctime": 1, "-cmin": 1, "-newer": 1, "-anewer": 1, "-cnewer": 1, "-perm": 1, "-user": 1, "-group": 1, "-uid": 1,
  "-gid": 1, "-links": 1, "-inum": 1, "-samefile": 1, "-maxdepth": 1, "-mindepth": 1, "-regextype": 1, "-fstype": 1,
  "-used": 1, "-context": 1, "-printf": 1, "-nouser": 0, "-nogroup": 0, "-empty": 0, "-readable": 0, "-writable": 0,
  "-executable": 0, "-depth": 0, "-mount": 0, "-xdev": 0, "-noleaf": 0, "-follow": 0, "-daystart": 0,
  "-ignore_readdir_race": 0, "-noignore_readdir_race": 0, "-print": 0, "-print0": 0, "-ls": 0, "-prune": 0, "-quit": 0,
  "-true": 0, "-false": 0, "-not": 0, "-and": 0, "-or": 0, "-a": 0, "-o": 0, "!": 0, "(": 0, ")": 0, ",": 0,
  "-help": 0, "--help": 0, "-version": 0, "--version": 0,
};
const FIND_RUNS = new Set(["-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"]);

function findReads(words: readonly ShellWord[]): CommandReads {
  const reads: CommandReads = { targets: [], gitTracked: false };
  let index = 1;
  while (/^-[HLP]$|^-D$|^-O\d?$/.test(words[index]?.value ?? "")) index += words[index]?.value === "-D" ? 2 : 1;
  for (; index < words.length && !/^[-(!]/.test(words[index]?.value ?? ""); index++) reads.targets.push({ word: words[index] as ShellWord, kind: "names" });
  if (reads.targets.length === 0) reads.targets.push({ word: DOT, kind: "names" });
  while (index < words.length) {
    const word = words[index]?.value ?? "";
    if (word === "-files0-from") {
      const from = words[index + 1];
      if (from) reads.targets.push({ word: from, kind: "content" });
      reads.unknown = "it reads the names of the paths to search from another file";
      reads.notReadOnly ??= "it reads its starting points from a file";
      index += 2;
      continue;
    }
    if (FIND_RUNS.has(word)) {
      reads.notReadOnly ??= `find ${word} runs a command or changes files`;
      break;
    }
    const values = FIND_TESTS[word] ?? (/^-newer[aBcmt][aBcmt]$/.test(word) ? 1 : undefined);
    if (values === undefined) {
      reads.notReadOnly ??= `its predicate ${word} is not known to be read-only`;
      break;
    }
    index += 1 + values;
  }
  if (words.slice(1).some(runTimeOnly)) reads.notReadOnly ??= "an argument only known at run time could be an option";
  return reads;
}

function dateReads(words: readonly ShellWord[]): CommandReads {
  const parsed = parseArgs(words, { flags: "uRI", values: "dfr", long: ["date=", "file=", "reference=", "utc", "universal", "rfc-3339=", "iso-8601", "rfc-email", "rfc-2822", "debug", "resolution", "help", "version"] });
  const reads: CommandReads = { targets: valuesOf(parsed, ["-f", "--file"]).map((word) => ({ word, kind: "content" })), gitTracked: false };
  reads.targets.push(...valuesOf(parsed, ["-r", "--reference"]).map((word): ReadTarget => ({ word, kind: "names" })));
  if (parsed.unknown.length > 0 || parsed.operands.some((word) => !word.value.startsWith("+")) || words.slice(1).some(runTimeOnly)) {
    reads.notReadOnly = "it may set the clock";
  }
  return reads;
}

/** awk's own file reads (`getline < "f"`, `system()`, pipes) are in its program text. */
function awkReads(words: readonly ShellWord[]): CommandReads {
  const parsed = parseArgs(words, { values: "fvFE", long: ["file=", "assign=", "field-separator=", "exec=", "include=", "load="] });
  const programFiles = valuesOf(parsed, ["-f", "--file", "-E", "--exec", "--include", "-i"]);
  const operands = programFiles.length > 0 ? parsed.operands : parsed.operands.slice(1);
  const program = programFiles.length > 0 ? undefined : parsed.operands[0];
  const files = operands.filter((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word.value));
  const reads: CommandReads = {
    targets: [...programFiles, ...files].map((word) => ({ word, kind: "content" })),
    gitTracked: false,
    notReadOnly: "it is not on the read-only list",
  };
  if (program === undefined || program.dynamic || /getline|system|\||\bprint[^;{}]*>|@include|@load/.test(program.value)) {
    reads.unknown = "its program can open files of its own";
  }
  return reads;
}

/** curl/wget read local files for uploads and request bodies (`-d @file`, `-T file`, `--post-file`). */
function uploadReads(name: string, words: readonly ShellWord[]): CommandReads {
  const reads: CommandReads = { targets: [], gitTracked: false, notReadOnly: "it is not on the read-only list" };
  const valued = name === "curl" ? ["-d", "--data", "--data-binary", "--data-ascii", "--data-urlencode", "--json", "-F", "--form", "-T", "--upload-file", "-K", "--config", "-b", "--cookie", "-E", "--cert", "--key", "--cacert", "-H", "--header"] : ["--post-file", "--body-file", "-i", "--input-file", "--load-cookies", "--config"];
  const parsed = parseArgs(words, { values: name === "curl" ? "dFTKbEHoXAuUwxe" : "iOoePU", long: valued.filter((option) => option.startsWith("--")).map((option) => `${option.slice(2)}=`) });
  // A file:// URL reads a local file like any reader.
  for (const word of parsed.operands) {
    const local = /^file:\/\/(?:localhost)?(\/.*)$/i.exec(word.value)?.[1];
    if (local) reads.targets.push({ word: { ...word, value: decodeURIComponent(local) }, kind: "content" });
  }
  for (const option of parsed.options) {
    const value = option.value;
    if (!value || !valued.includes(option.name)) continue;
    const at = /(?:^|[=;])[@<](.+)$/.exec(value.value);
    const direct = ["-T", "--upload-file", "-K", "--config", "--post-file", "--body-file", "-i", "--input-file", "--load-cookies", "--key", "--cert", "-E", "--cacert"].includes(option.name);
    if (direct) reads.targets.push({ word: value, kind: "content" });
    else if (at?.[1]) reads.targets.push({ word: { ...value, value: at[1] }, kind: "content" });
    if (value.dynamic) reads.unknown = "what it uploads is only known at run time";
  }
  return reads;
}

function tarReads(words: readonly ShellWord[]): CommandReads {
  const first = words[1]?.value ?? "";
  const bundled = /^[A-Za-z]+$/.test(first) ? `-${first}` : "";
  const parsed = parseArgs(bundled ? [words[0] as ShellWord, literalWord(bundled), ...words.slice(2)] : words, { flags: "cruxtdAzjJZavpPhkmOSWiBlMGgw", values: "fCTXbHKLNV", long: ["create", "append", "update", "extract", "list", "dereference", "file=", "directory=", "files-from=", "exclude-from=", "exclude=", "to-command=", "use-compress-program=", "transform="] });
  const reads: CommandReads = { targets: [], gitTracked: false, notReadOnly: "it is not on the read-only list" };
  const creates = parsed.options.some((option) => /^-[cru]$|^--(create|append|update)$/.test(option.name));
  const follow = hasAny(parsed, ["-h", "--dereference"]);
  if (creates) reads.targets.push(...parsed.operands.map((word): ReadTarget => ({ word, kind: "tree", follow })));
  else reads.targets.push(...valuesOf(parsed, ["-f", "--file"]).map((word): ReadTarget => ({ word, kind: "content" })));
  reads.targets.push(...valuesOf(parsed, ["-T", "--files-from", "-X", "--exclude-from"]).map((word): ReadTarget => ({ word, kind: "content" })));
  if (hasAny(parsed, ["-T", "--files-from", "-C", "--directory"])) reads.unknown = "the files it archives are named elsewhere or in another directory";
  return reads;
}

/** Interpreters read their script file: `python3 x.py`, `bash .env` (a syntax error prints its lines). */
function scriptReads(words: readonly ShellWord[]): CommandReads {
  const reads: CommandReads = { targets: [], gitTracked: false, notReadOnly: "it runs a program" };
  for (let index = 1; index < words.length; index++) {
    const value = words[index]?.value ?? "";
    if (/^-(c|e|E|p|m|r|-eval|-print|-command)$/.test(value)) return reads;
    if (value === "--") {
      const script = words[index + 1];
      if (script) reads.targets.push({ word: script, kind: "content" });
      return reads;
    }
    if (value.startsWith("-")) continue;
    reads.targets.push({ word: words[index] as ShellWord, kind: "content" });
    return reads;
  }
  return reads;
}

function byName(name: string, words: readonly ShellWord[]): CommandReads | undefined {
  const spec = READER_SPECS[name];
  if (spec) return readsOfSpec(words, spec);
  switch (name) {
    case "sed":
      return sedReads(words);
    case "find":
      return findReads(words);
    case "git":
      return gitReads(words);
    case "date":
      return dateReads(words);
    case "awk": case "gawk": case "mawk": case "nawk":
      return awkReads(words);
    case "curl": case "wget":
      return uploadReads(name, words);
    case "tar":
      return tarReads(words);
  }
  if (SCRIPT_RUNNERS.has(name)) return scriptReads(words);
  if (NO_FILES.has(name)) return { targets: [], gitTracked: false };
  return undefined;
}

/**
 * What `command` may read, or undefined for a command whose reads are not modelled (it needs an
 * allow rule, and the user who wrote that rule decided what it may do).
 */
export function commandReads(command: SimpleCommand): CommandReads | undefined {
  const name = command.words[0]?.value.replace(/^.*\//, "") ?? "";
  const redirected = command.redirects
    .filter((redirect) => redirect.op === "<" || redirect.op === "<>")
    .map((redirect): ReadTarget => ({ word: redirect.target, kind: "content" }));
  const reads = command.words.length === 0 ? { targets: [], gitTracked: false } : byName(name, command.words);
  if (!reads) return redirected.length > 0 ? { targets: redirected, gitTracked: false, notReadOnly: "it is not on the read-only list" } : undefined;
  reads.targets.unshift(...redirected);
  const optionGlobs = command.words.slice(1).filter(mayExpandToOption);
  if (optionGlobs.length > 0 && !NO_FILES.has(name) && !OPTIONS_HARMLESS.has(name)) reads.optionGlobs = optionGlobs;
  for (const redirect of command.redirects) if (redirect.op === "<" && runTimeOnly(redirect.target)) reads.unknown ??= "it reads a file only known at run time";
  for (const wrapper of command.wrappers) {
    if (wrapper.argv[0] !== "xargs") continue;
    const argFile = wrapper.argv.findIndex((word) => word === "-a" || word === "--arg-file");
    const named = argFile !== -1 ? wrapper.argv[argFile + 1] : wrapper.argv.find((word) => word.startsWith("--arg-file="))?.slice(11);
    if (named !== undefined) reads.targets.push({ word: literalWord(named), kind: "content" });
  }
  if (command.appendsArgs) {
    // What would the command do with one more argument? If it reads it, xargs decides what is read.
    const probe = literalWord("\u0000xargs-input");
    const probed = byName(name, [...command.words, probe]);
    if (probed?.targets.some((target) => target.word === probe && target.kind !== "names")) reads.unknown ??= "xargs supplies the files it reads at run time";
  }
  if (command.origin === "find-exec" && command.words.some((word) => word.value.includes("{}"))) {
    reads.unknown ??= "find supplies the files it reads at run time";
  }
  return reads;
}
