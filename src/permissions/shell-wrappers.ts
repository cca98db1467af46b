/**
 * Commands that run another command: `timeout 5 CMD`, `env X=1 CMD`, `sudo CMD`, `xargs CMD`,
 * `bash -c 'SCRIPT'`, `eval …`, `watch …`, `find … -exec CMD ;`. `peel` removes one such layer
 * so the permission rules see the command that actually runs.
 */
import type { CommandOrigin, CommandWrapper, ShellRedirect, ShellWord } from "./shell-types.ts";
import { literalWord } from "./shell-words.ts";

export type Peel =
  | { kind: "none" }
  | {
      kind: "wrapper";
      wrapper: CommandWrapper;
      rest: ShellWord[];
      elevated: boolean;
      exactOnly: boolean;
      appendsArgs: boolean;
      /** Files the wrapper itself writes (`time -o FILE`), checked like output redirections. */
      writes: ShellRedirect[];
    }
  | { kind: "script"; script: ShellWord; origin: CommandOrigin; exactOnly: boolean }
  | { kind: "dynamic-script"; detail: string };

interface OptionSpec {
  /** Short options that take a value (`-n 5` or `-n5`). */
  short?: string;
  /** Long options that take a value (`--signal X` or `--signal=X`). */
  long?: readonly string[];
}

interface Options {
  /** Index of the first word after the options. */
  index: number;
  /** Options seen, with their values: `["-n", "5"]`. */
  seen: Array<{ name: string; value?: string }>;
}

/** Skips the options of `words` starting at `start`, as getopt would. */
export function skipOptions(words: readonly ShellWord[], start: number, spec: OptionSpec): Options {
  const seen: Options["seen"] = [];
  let index = start;
  while (index < words.length) {
    const word = words[index]?.value ?? "";
    if (word === "--") return { index: index + 1, seen };
    if (!word.startsWith("-") || word === "-") break;
    if (word.startsWith("--")) {
      const [name = "", value] = word.slice(2).split(/=(.*)/s);
      if (value === undefined && spec.long?.includes(name)) {
        seen.push({ name: `--${name}`, value: words[index + 1]?.value });
        index += 2;
      } else {
        seen.push({ name: `--${name}`, value });
        index += 1;
      }
      continue;
    }
    let consumed = 1;
    for (let i = 1; i < word.length; i++) {
      const flag = word[i] ?? "";
      if (spec.short?.includes(flag)) {
        const attached = word.slice(i + 1);
        const value = attached !== "" ? attached : words[index + 1]?.value;
        if (attached === "") consumed = 2;
        seen.push({ name: `-${flag}`, value });
        break;
      }
      seen.push({ name: `-${flag}` });
    }
    index += consumed;
  }
  return { index, seen };
}

interface WrapperSpec extends OptionSpec {
  transparent: boolean;
  /** Positional words between the options and the command (`timeout DURATION`, `flock FILE`). */
  positional?: number;
  elevated?: boolean;
  exactOnly?: boolean;
  /** `NAME=value` words may follow the options (`env`, `sudo`). */
  assignments?: boolean;
}

const WRAPPERS: Record<string, WrapperSpec> = {
  timeout: { transparent: true, short: "sk", long: ["signal", "kill-after"], positional: 1 },
  nice: { transparent: true, short: "n", long: ["adjustment"] },
  nohup: { transparent: true },
  stdbuf: { transparent: true, short: "ioe", long: ["input", "output", "error"] },
  builtin: { transparent: true },
  noglob: { transparent: true },
  time: { transparent: true, short: "fo", long: ["format", "output"] },
  command: { transparent: true },
  exec: { transparent: false, short: "a" },
  env: { transparent: true, short: "uCS", long: ["unset", "chdir", "split-string"], assignments: true },
  sudo: {
    transparent: false, elevated: true, assignments: true, short: "ughpCDrtTU",
    long: ["user", "group", "host", "prompt", "close-from", "chdir", "role", "type", "command-timeout", "other-user"],
  },
  doas: { transparent: false, elevated: true, short: "uC" },
  setsid: { transparent: false, exactOnly: true },
  ionice: { transparent: false, exactOnly: true, short: "cnpPu", long: ["class", "classdata", "pid", "pgid", "uid"] },
  flock: { transparent: false, exactOnly: true, short: "wEc", long: ["timeout", "conflict-exit-code", "command"], positional: 1 },
  xargs: {
    transparent: true, short: "adEeIiLlnPs",
    long: ["arg-file", "delimiter", "eof", "replace", "max-lines", "max-args", "max-procs", "max-chars", "process-slot-var"],
  },
};

const SHELLS = new Set(["bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "busybox-sh"]);
const SHELL_OPTIONS_WITH_VALUE = ["o", "O"];
const FIND_EXEC = new Set(["-exec", "-execdir", "-ok", "-okdir"]);

function toWrapper(words: readonly ShellWord[], transparent: boolean): CommandWrapper {
  return { argv: words.map((word) => word.value), raw: words.map((word) => word.raw), transparent };
}

function joinScript(words: readonly ShellWord[], what: string, exactOnly = false): Peel {
  const dynamic = words.find((word) => word.dynamic);
  if (dynamic) return { kind: "dynamic-script", detail: `${what} runs text only known at run time (${dynamic.raw})` };
  return { kind: "script", script: literalWord(words.map((word) => word.value).join(" ")), origin: what === "eval" ? "eval" : "exec-wrapper", exactOnly };
}

function peelShell(words: readonly ShellWord[], redirects: readonly ShellRedirect[]): Peel {
  let index = 1;
  let hasC = false;
  while (index < words.length) {
    const word = words[index]?.value ?? "";
    if (word === "--" || word === "-") {
      index++;
      break;
    }
    if (!/^[-+]/.test(word)) break;
    if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(word)) hasC = true;
    const takesValue = word.length === 2 && SHELL_OPTIONS_WITH_VALUE.includes(word[1] ?? "");
    const longValue = word === "--rcfile" || word === "--init-file";
    index += takesValue || longValue ? 2 : 1;
  }
  if (hasC) {
    const script = words[index];
    if (!script) return { kind: "none" };
    if (script.dynamic) return { kind: "dynamic-script", detail: `${words[0]?.value} -c runs a script only known at run time (${script.raw})` };
    return { kind: "script", script, origin: "shell-c", exactOnly: false };
  }
  if (index < words.length) return { kind: "none" };
  const stdin = redirects.find((redirect) => redirect.op === "<<" || redirect.op === "<<-" || redirect.op === "<<<");
  if (!stdin) return { kind: "none" };
  if (stdin.target.dynamic) return { kind: "dynamic-script", detail: `${words[0]?.value} reads a script only known at run time` };
  return { kind: "script", script: stdin.target, origin: "shell-stdin", exactOnly: false };
}

function peelWatch(words: readonly ShellWord[]): Peel {
  const options = skipOptions(words, 1, { short: "nq", long: ["interval", "differences", "equexit"] });
  const rest = words.slice(options.index);
  if (rest.length === 0) return { kind: "none" };
  const direct = options.seen.some((option) => option.name === "-x" || option.name === "--exec");
  if (direct) {
    return { kind: "wrapper", wrapper: toWrapper(words.slice(0, options.index), false), rest, elevated: false, exactOnly: true, appendsArgs: false, writes: [] };
  }
  return joinScript(rest, "watch", true);
}

function peelSpec(name: string, spec: WrapperSpec, words: readonly ShellWord[]): Peel {
  const options = skipOptions(words, 1, spec);
  if (name === "command" && options.seen.some((option) => option.name === "-v" || option.name === "-V")) return { kind: "none" };
  if (name === "env") {
    const split = options.seen.find((option) => option.name === "-S" || option.name === "--split-string");
    if (split) return joinScript([literalWord(split.value ?? ""), ...words.slice(options.index)], "env -S");
  }
  if (name === "flock") {
    // `flock [options] FILE -c SCRIPT`: options may also follow the lock file.
    const after = skipOptions(words, options.index + 1, spec);
    const script = [...options.seen, ...after.seen].find((option) => option.name === "-c" || option.name === "--command");
    if (script) return joinScript([literalWord(script.value ?? "")], "flock -c", true);
  }
  let index = options.index + (spec.positional ?? 0);
  while (spec.assignments && index < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[index]?.value ?? "")) index++;
  const rest = words.slice(index);
  if (rest.length === 0 && name !== "xargs") return { kind: "none" };
  const writes: ShellRedirect[] = [];
  const output = options.seen.find((option) => name === "time" && (option.name === "-o" || option.name === "--output"));
  if (output?.value) writes.push({ op: ">", target: literalWord(output.value) });
  const transparent = spec.transparent && (options.seen.length === 0 || name === "timeout" || name === "nice" || name === "stdbuf" || (name === "time" && !output));
  return {
    kind: "wrapper",
    wrapper: toWrapper(words.slice(0, index), transparent),
    // xargs without a command runs echo.
    rest: rest.length === 0 ? [literalWord("echo")] : rest,
    elevated: spec.elevated ?? false,
    exactOnly: spec.exactOnly ?? false,
    appendsArgs: name === "xargs",
    writes,
  };
}

/** Removes one wrapper layer from `words`, or says what script the command hands to a shell. */
export function peel(words: readonly ShellWord[], redirects: readonly ShellRedirect[]): Peel {
  const name = words[0]?.value.replace(/^.*\//, "") ?? "";
  if (SHELLS.has(name)) return peelShell(words, redirects);
  if (name === "eval") return words.length > 1 ? joinScript(words.slice(1), "eval") : { kind: "none" };
  if (name === "watch") return peelWatch(words);
  const spec = WRAPPERS[name];
  return spec ? peelSpec(name, spec, words) : { kind: "none" };
}

/** The commands `find … -exec CMD {} ;` would run, and whether find writes or deletes by itself. */
export function findActions(words: readonly ShellWord[]): { commands: ShellWord[][]; mutates: boolean } {
  const commands: ShellWord[][] = [];
  let mutates = false;
  for (let i = 1; i < words.length; i++) {
    const word = words[i]?.value ?? "";
    if (word === "-delete" || word.startsWith("-fprint") || word === "-fls") mutates = true;
    if (!FIND_EXEC.has(word)) continue;
    mutates = true;
    const start = i + 1;
    let end = start;
    while (end < words.length && words[end]?.value !== ";" && words[end]?.value !== "+") end++;
    commands.push(words.slice(start, end));
    i = end;
  }
  return { commands, mutates };
}
