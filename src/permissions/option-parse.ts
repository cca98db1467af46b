/**
 * Reads a command's options the way GNU getopt_long does (options may follow operands, `--`
 * ends them, short flags bundle, values attach or follow), against a list of the options a
 * command is known to accept. Anything not on the list is reported, never guessed at: the read
 * gate treats an unknown option as one that might execute, write or widen what is read.
 */
import type { ShellWord } from "./shell-types.ts";

export interface OptionSpec {
  /** Short flags that take no value, e.g. "nqv". */
  flags?: string;
  /** Short options that take a value (`-n 5`, `-n5`). */
  values?: string;
  /**
   * Long options by name. A trailing `=` means the option needs a value (`--lines=5` or
   * `--lines 5`); without it the option takes none or an attached optional one (`--color[=WHEN]`).
   */
  long?: readonly string[];
  /** `-5` / `+5` number options (head, tail, grep context). */
  numbers?: boolean;
  /** Stop reading options at the first operand (POSIX order: find, sed scripts, git subcommands). */
  inOrder?: boolean;
}

export interface ParsedOption {
  /** `-n` or `--lines`. */
  name: string;
  value?: ShellWord;
}

export interface ParsedArgs {
  options: ParsedOption[];
  operands: ShellWord[];
  /** Options the spec does not list, as written (also in `options`, as options without a value). */
  unknown: string[];
  /** A value-taking option at the very end, with no value after it. */
  missingValue?: string;
}

function literal(value: string): ShellWord {
  return { value, raw: value, dynamic: false, tilde: false };
}

interface LongTable {
  bare: Set<string>;
  valued: Set<string>;
}

function longTable(long: readonly string[]): LongTable {
  const table: LongTable = { bare: new Set(), valued: new Set() };
  for (const name of long) {
    if (name.endsWith("=")) table.valued.add(name.slice(0, -1));
    else table.bare.add(name);
  }
  return table;
}

const tables = new WeakMap<readonly string[], LongTable>();

function tableFor(long: readonly string[]): LongTable {
  let table = tables.get(long);
  if (!table) {
    table = longTable(long);
    tables.set(long, table);
  }
  return table;
}

export function parseArgs(words: readonly ShellWord[], spec: OptionSpec, start = 1): ParsedArgs {
  const parsed: ParsedArgs = { options: [], operands: [], unknown: [] };
  const table = tableFor(spec.long ?? []);
  let optionsEnded = false;
  for (let index = start; index < words.length; index++) {
    const word = words[index] as ShellWord;
    const text = word.value;
    if (optionsEnded || text === "-" || !text.startsWith("-") || (word.dynamic && !/^-/.test(word.raw))) {
      if (spec.numbers && /^\+\d+$/.test(text) && parsed.operands.length === 0) {
        parsed.options.push({ name: text });
        continue;
      }
      parsed.operands.push(word);
      if (spec.inOrder) optionsEnded = true;
      continue;
    }
    if (text === "--") {
      optionsEnded = true;
      continue;
    }
    if (text.startsWith("--")) {
      const [written = "", attached] = text.slice(2).split(/=(.*)/s);
      // No abbreviations (`--recur`): a prefix could as well be another option (rg `--pre` vs `--pretty`).
      const name = table.bare.has(written) || table.valued.has(written) ? written : undefined;
      if (name === undefined) {
        parsed.unknown.push(`--${written}`);
        parsed.options.push(attached === undefined ? { name: `--${written}` } : { name: `--${written}`, value: literal(attached) });
        continue;
      }
      if (attached !== undefined) parsed.options.push({ name: `--${name}`, value: literal(attached) });
      else if (table.valued.has(name)) {
        const value = words[index + 1];
        if (value === undefined) parsed.missingValue = `--${name}`;
        parsed.options.push(value ? { name: `--${name}`, value } : { name: `--${name}` });
        index++;
      } else parsed.options.push({ name: `--${name}` });
      continue;
    }
    if (spec.numbers && /^-\d+$/.test(text)) {
      parsed.options.push({ name: text });
      continue;
    }
    for (let at = 1; at < text.length; at++) {
      const flag = text[at] ?? "";
      if (spec.values?.includes(flag)) {
        const rest = text.slice(at + 1);
        if (rest !== "") parsed.options.push({ name: `-${flag}`, value: literal(rest) });
        else {
          const value = words[index + 1];
          if (value === undefined) parsed.missingValue = `-${flag}`;
          parsed.options.push(value ? { name: `-${flag}`, value } : { name: `-${flag}` });
          index++;
        }
        break;
      }
      if (spec.flags?.includes(flag)) parsed.options.push({ name: `-${flag}` });
      else if (spec.numbers && /\d/.test(flag)) continue;
      else {
        parsed.unknown.push(`-${flag}`);
        parsed.options.push({ name: `-${flag}` });
      }
    }
  }
  return parsed;
}

/** Whether any of `names` (`-r`, `--recursive`) was given. */
export function hasAny(parsed: ParsedArgs, names: readonly string[]): boolean {
  return parsed.options.some((option) => names.includes(option.name));
}

/** The values given to any of `names`. */
export function valuesOf(parsed: ParsedArgs, names: readonly string[]): ShellWord[] {
  return parsed.options.flatMap((option) => (names.includes(option.name) && option.value ? [option.value] : []));
}
