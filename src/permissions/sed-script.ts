/**
 * sed command lines: which scripts and files they name, and whether a script only substitutes,
 * prints and deletes (no `e`/`w`/`r` commands or flags, which run commands or read and write
 * other files).
 */
import { parseArgs, valuesOf } from "./option-parse.ts";
import type { ShellWord } from "./shell-types.ts";

/** A sed script made only of substitutions without `e`/`w` flags and print/delete/quit commands. */
export function isSafeSedScript(script: string): boolean {
  const rest = script
    .replace(/s(.)(?:(?!\1)[^\\\n]|\\.)*\1(?:(?!\1)[^\\\n]|\\.)*\1[gpIiMm0-9]*/g, " ")
    .replace(/y(.)(?:(?!\1)[^\\\n]|\\.)*\1(?:(?!\1)[^\\\n]|\\.)*\1/g, " ")
    .replace(/\/(?:[^\\/\n]|\\.)*\/I?/g, " ");
  return /^[\s\d,$;!{}+~pdqQ=nNlgGhHxz]*$/.test(rest);
}

const SED_OPTIONS = {
  flags: "nrEsuzi",
  values: "efl",
  long: ["quiet", "silent", "expression=", "file=", "line-length=", "null-data", "zero-terminated", "regexp-extended", "separate", "unbuffered", "posix", "debug", "sandbox", "in-place", "follow-symlinks", "help", "version"],
};

export interface SedLine {
  scripts: string[];
  /** Script files (`-f`): read, and what they do is unknown. */
  scriptFiles: ShellWord[];
  /** Input files. */
  files: ShellWord[];
  inPlace: boolean;
  /** Options not known to be harmless. */
  unknown: string[];
}

export function sedScripts(words: readonly ShellWord[]): SedLine {
  const parsed = parseArgs(words, SED_OPTIONS);
  const scripts = valuesOf(parsed, ["-e", "--expression"]).map((word) => (word.dynamic ? "\0" : word.value));
  const scriptFiles = valuesOf(parsed, ["-f", "--file"]);
  // `-i` may carry a suffix (`-i.bak`), which the getopt reading above takes as more flags.
  const inPlace = words.slice(1).some((word) => /^-[a-zA-Z]*i/.test(word.value) && !word.value.startsWith("--")) || parsed.options.some((option) => option.name === "--in-place");
  const files = [...parsed.operands];
  if (scripts.length === 0 && scriptFiles.length === 0) {
    const first = files.shift();
    if (first) scripts.push(first.dynamic ? "\0" : first.value);
  }
  return { scripts, scriptFiles, files, inPlace, unknown: inPlace ? [] : parsed.unknown };
}
