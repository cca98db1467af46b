/**
 * Finds the script a command hook would start and checks that it exists and can be executed, so a
 * typo in a path shows up in `/hooks` and `clew doctor` instead of as an exit 127 at the worst
 * moment. Only plain paths are checked: a word that still holds `$`, a glob or a backtick after the
 * known placeholders are resolved is left to the shell.
 */
import { accessSync, constants, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";

/** Commands that take the script as their first argument. */
const INTERPRETERS = new Set(["bash", "sh", "zsh", "dash", "python", "python3", "node", "bun", "deno", "ruby", "perl", "pwsh", "tsx"]);
const OPERATORS = new Set([";", "|", "&", "<", ">", "(", ")", "\n"]);

/** The first shell words of a command, unquoted; stops at the first operator. */
function leadingWords(command: string, count: number): string[] {
  const words: string[] = [];
  let current = "";
  let inWord = false;
  let i = 0;
  const push = (): void => {
    if (inWord) words.push(current);
    current = "";
    inWord = false;
  };
  while (i < command.length && words.length < count) {
    const char = command[i] as string;
    if (char === " " || char === "\t") {
      push();
      i++;
    } else if (OPERATORS.has(char)) {
      break;
    } else if (char === "'") {
      const end = command.indexOf("'", i + 1);
      if (end < 0) return words;
      current += command.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (char === '"') {
      let j = i + 1;
      while (j < command.length && command[j] !== '"') {
        if (command[j] === "\\" && j + 1 < command.length) j++;
        current += command[j];
        j++;
      }
      if (j >= command.length) return words;
      inWord = true;
      i = j + 1;
    } else if (char === "\\" && i + 1 < command.length) {
      current += command[i + 1];
      inWord = true;
      i += 2;
    } else {
      current += char;
      inWord = true;
      i++;
    }
  }
  push();
  return words.slice(0, count);
}

function isCheckablePath(word: string): boolean {
  return word.includes("/") && !/[$`*?[\]~{}]/.test(word);
}

export interface ScriptIssue {
  path: string;
  problem: "missing" | "not-executable" | "directory";
}

function inspect(path: string, mustExecute: boolean): ScriptIssue | undefined {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    return { path, problem: "missing" };
  }
  if (isDirectory) return { path, problem: "directory" };
  if (!mustExecute) return undefined;
  try {
    accessSync(path, constants.X_OK);
    return undefined;
  } catch {
    return { path, problem: "not-executable" };
  }
}

/**
 * Checks the script of a shell-form command (`/x/hook.sh arg`, `python3 "/x/hook.py"`) or of an
 * exec-form executable. `command` must already have its placeholders resolved.
 */
export function checkScript(command: string, cwd: string, execForm: boolean): ScriptIssue | undefined {
  const words = execForm ? [command] : leadingWords(command.trimStart(), 2);
  const first = words[0];
  if (first === undefined) return undefined;
  if (isCheckablePath(first)) return inspect(isAbsolute(first) ? first : resolve(cwd, first), true);
  const base = first.slice(first.lastIndexOf("/") + 1);
  const second = words[1];
  if (!execForm && INTERPRETERS.has(base) && second !== undefined && isCheckablePath(second) && !second.startsWith("-")) {
    return inspect(isAbsolute(second) ? second : resolve(cwd, second), false);
  }
  return undefined;
}

export function describeScriptIssue(issue: ScriptIssue): string {
  switch (issue.problem) {
    case "missing":
      return `runs ${issue.path}, which does not exist; create it or fix the path (until then the hook fails with exit code 127 and does nothing)`;
    case "directory":
      return `runs ${issue.path}, which is a directory, not a script; point it at the script file`;
    case "not-executable":
      return `runs ${issue.path}, which is not executable; run \`chmod +x ${issue.path}\` or start it through its interpreter (e.g. \`bash ${issue.path}\`)`;
  }
}
