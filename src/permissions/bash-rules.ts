/**
 * Matching Bash rule patterns against the simple commands of a command line. Deny and ask rules
 * see every form of a command (as written, after quote removal, with and without each wrapper
 * and assignment); allow rules see only the normalised command, with transparent wrappers and
 * safe environment assignments stripped, so that `Bash(npm test *)` never approves more than
 * `npm test …`.
 */
import type { CommandWrapper, ShellWord, SimpleCommand } from "./shell-types.ts";

/** Variables that may precede a command an allow rule approves (`NODE_ENV=test npm test`). */
export const SAFE_ENV_VARS: ReadonlySet<string> = new Set([
  "NODE_ENV", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "NO_COLOR", "FORCE_COLOR", "CI", "TZ", "DEBUG",
  "TERM", "COLUMNS", "RUST_BACKTRACE", "RUST_LOG", "PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE",
]);

/** Placeholder for the arguments `xargs` adds at run time. */
const XARGS_INPUT = "<xargs-input>";

const patternCache = new Map<string, RegExp>();

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function compilePattern(pattern: string): RegExp {
  const cached = patternCache.get(pattern);
  if (cached) return cached;
  const wild = (text: string) => text.split("*").map(escapeRegExp).join("[\\s\\S]*");
  // `ls *` matches `ls` and `ls -la` but not `lsof`: a trailing " *" is a word boundary.
  const source = pattern.endsWith(" *") ? `^${wild(pattern.slice(0, -2))}(?: [\\s\\S]*)?$` : `^${wild(pattern)}$`;
  const regexp = new RegExp(source);
  patternCache.set(pattern, regexp);
  return regexp;
}

export function hasWildcard(pattern: string): boolean {
  return pattern.includes("*");
}

/** Whether a Bash rule pattern (without `Bash(…)`) matches a command text. */
export function matchCommandPattern(pattern: string, text: string): boolean {
  if (!hasWildcard(pattern)) return pattern === text;
  return compilePattern(pattern).test(text);
}

/** Single-quotes a value when the shell would need quoting to read it back as one word. */
export function shellQuote(value: string): string {
  if (value !== "" && /^[A-Za-z0-9_@%+=:,./~^-]+$/.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

type Render = (word: ShellWord) => string;
const asWritten: Render = (word) => word.raw;
const quoted: Render = (word) => (word.dynamic ? word.raw : shellQuote(word.value));
const plain: Render = (word) => word.value;

function assignmentName(assignment: string): string {
  return /^([A-Za-z_][A-Za-z0-9_]*)\+?=/.exec(assignment)?.[1] ?? "";
}

function wrapperWords(command: SimpleCommand, from: number, render: Render): string[] {
  return command.wrappers.slice(from).flatMap((wrapper) =>
    wrapper.argv.map((value, index) => render({ value, raw: wrapper.raw[index] ?? value, dynamic: false, tilde: false })),
  );
}

function join(parts: readonly string[]): string {
  return parts.filter((part) => part !== "").join(" ");
}

/** `/bin/rm x` is `rm x` to a deny rule. */
function byBaseName(words: readonly ShellWord[]): ShellWord[] | undefined {
  const [first, ...rest] = words;
  if (!first || first.dynamic || !first.value.includes("/")) return undefined;
  const name = first.value.replace(/^.*\//, "");
  return [{ ...first, value: name, raw: name }, ...rest];
}

/** Every form of the command a deny or ask rule should see. */
export function denyTexts(command: SimpleCommand): string[] {
  const texts = new Set<string>();
  const spellings = [command.words, byBaseName(command.words)].filter((words) => words !== undefined);
  for (const render of [asWritten, quoted, plain]) {
    for (const words of spellings) {
      const argv = words.map(render);
      for (let layer = 0; layer <= command.wrappers.length; layer++) {
        const inner = [...wrapperWords(command, layer, render), ...argv];
        texts.add(join(inner));
        texts.add(join([...command.assignments, ...inner]));
      }
    }
  }
  texts.delete("");
  return [...texts];
}

function safeAssignments(command: SimpleCommand): boolean {
  return command.assignments.every((assignment) => SAFE_ENV_VARS.has(assignmentName(assignment)));
}

/** A wrapper allow rules may look through: transparent, and any `NAME=value` it passes (`env X=1`) is a safe one. */
export function strippable(wrapper: CommandWrapper): boolean {
  return wrapper.transparent && wrapper.argv.every((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word) || SAFE_ENV_VARS.has(assignmentName(word)));
}

function argvText(command: SimpleCommand, render: Render): string[] {
  const argv = command.words.map(render);
  if (command.appendsArgs) argv.push(XARGS_INPUT);
  return argv;
}

/** The whole command: assignments, every wrapper, the command. */
function fullText(command: SimpleCommand, render: Render): string {
  return join([...command.assignments, ...wrapperWords(command, 0, render), ...argvText(command, render)]);
}

/** Transparent wrappers (up to the first kept one) and safe assignments removed. */
function normalisedText(command: SimpleCommand, render: Render): string {
  const firstKept = command.wrappers.findIndex((wrapper) => !strippable(wrapper));
  const kept = wrapperWords(command, firstKept === -1 ? command.wrappers.length : firstKept, render);
  const assignments = safeAssignments(command) ? [] : command.assignments;
  return join([...assignments, ...kept, ...argvText(command, render)]);
}

/** The forms of the command an allow rule may approve. */
export function allowTexts(command: SimpleCommand): string[] {
  const texts = new Set<string>();
  for (const render of [asWritten, quoted]) {
    // The full command as written always counts: `Bash(sudo apt update)` approves exactly that.
    texts.add(fullText(command, render));
    if (!command.exactOnly) texts.add(normalisedText(command, render));
  }
  texts.delete("");
  return [...texts];
}

/** Whether `pattern` approves `command` as an allow rule. */
export function allowMatches(pattern: string, command: SimpleCommand): boolean {
  // `watch`, `setsid`, `find -exec` and friends: only an exact rule for the full command.
  if (command.exactOnly && hasWildcard(pattern)) return false;
  // A command run by sudo is approved only by a rule that names sudo.
  if (command.elevated && !/^(sudo|doas)\b/.test(pattern)) return false;
  return allowTexts(command).some((text) => matchCommandPattern(pattern, text));
}

export function denyMatches(pattern: string, command: SimpleCommand): boolean {
  return denyTexts(command).some((text) => matchCommandPattern(pattern, text));
}

/** Known tools whose second word is a subcommand: "don't ask again" suggests `tool sub *`. */
const SUBCOMMAND_TOOLS = new Set([
  "npm", "pnpm", "yarn", "bun", "npx", "bunx", "git", "cargo", "go", "make", "docker", "kubectl", "pip", "pip3", "uv",
  "poetry", "gradle", "mvn", "dotnet", "deno", "gh", "brew", "apt", "apt-get", "rustup", "terraform", "helm", "composer",
  "mix", "swift", "flutter", "dart", "pytest", "jest", "vitest", "tsc", "node", "python", "python3", "ruby", "bundle", "rake",
]);

/** The narrowest rule that would approve this command next time, or undefined when none is safe to offer. */
export function suggestRule(command: SimpleCommand): string | undefined {
  if (command.argv.length === 0 || command.appendsArgs || command.words.some((word) => word.dynamic)) return undefined;
  if (command.assignments.some((assignment) => /[$`]/.test(assignment))) return undefined;
  const exact = command.exactOnly || command.elevated || !safeAssignments(command);
  const text = exact ? fullText(command, quoted) : normalisedText(command, quoted);
  if (text.includes("\n") || text.length > 200) return undefined;
  const [name = "", sub] = command.argv;
  const plainWrappers = command.wrappers.every(strippable);
  if (!exact && plainWrappers && SUBCOMMAND_TOOLS.has(name) && sub !== undefined && /^[A-Za-z0-9][\w:.-]*$/.test(sub)) {
    const third = command.argv[2];
    const runScript = (sub === "run" || sub === "exec") && third !== undefined && /^[\w:.-]+$/.test(third);
    return `Bash(${runScript ? `${name} ${sub} ${third}` : `${name} ${sub}`} *)`;
  }
  return `Bash(${text})`;
}
