/**
 * CLAUDE_ENV_FILE (hooks.md §5): SessionStart hooks append lines such as `export NODE_ENV=prod`
 * to a file, and later Bash commands see those variables. Claude Code sources the file in the
 * shell; clew reads it without running anything: `export NAME=value` and `NAME=value` lines,
 * single/double quotes, and `$NAME` / `${NAME}` expansion against the environment so far (so
 * `export PATH="$HOME/bin:$PATH"` works). A line that would need a shell to evaluate (command
 * substitution, other statements) is reported with its number and skipped.
 */
import { readFileSync } from "node:fs";

export interface EnvFileResult {
  vars: Record<string, string>;
  problems: string[];
}

const ASSIGNMENT = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s;

function expand(text: string, lookup: (name: string) => string): string {
  return text.replace(/\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g, (_, braced: string | undefined, bare: string | undefined) =>
    lookup(braced ?? bare ?? ""),
  );
}

/** The value part of `NAME=value`, shell-style; undefined when it needs a real shell. */
function parseValue(raw: string, lookup: (name: string) => string): string | undefined {
  let out = "";
  let i = 0;
  const text = raw.trim();
  while (i < text.length) {
    const char = text[i] as string;
    if (char === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) return undefined;
      out += text.slice(i + 1, end);
      i = end + 1;
    } else if (char === '"') {
      let j = i + 1;
      let inner = "";
      while (j < text.length && text[j] !== '"') {
        if (text[j] === "\\" && j + 1 < text.length && '"\\$`'.includes(text[j + 1] as string)) {
          // An escaped `$` must survive expansion as a literal dollar.
          inner += text[j + 1] === "$" ? "\u0000" : text[j + 1];
          j += 2;
          continue;
        }
        inner += text[j];
        j++;
      }
      if (j >= text.length) return undefined;
      if (/`|\$\(/.test(inner)) return undefined;
      out += expand(inner, lookup).replaceAll("\u0000", "$");
      i = j + 1;
    } else if (char === "#" && (i === 0 || /\s/.test(text[i - 1] as string))) {
      break;
    } else if (/\s/.test(char)) {
      // `A=1 B=2` or `A=1 cmd` is more than one assignment: leave it to a shell.
      const rest = text.slice(i).trim();
      if (rest === "" || rest.startsWith("#")) break;
      return undefined;
    } else {
      let j = i;
      while (j < text.length && !/[\s'"#]/.test(text[j] as string)) j++;
      const word = text.slice(i, j);
      if (/`|\$\(/.test(word)) return undefined;
      out += expand(word.replace(/\\(.)/g, "$1"), lookup);
      i = j;
    }
  }
  return out;
}

export function parseEnvFile(text: string, base: Readonly<Record<string, string>> = {}): EnvFileResult {
  const vars: Record<string, string> = {};
  const problems: string[] = [];
  const lookup = (name: string): string => vars[name] ?? base[name] ?? "";
  text.split(/\r?\n/).forEach((line, index) => {
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("#")) return;
    const match = ASSIGNMENT.exec(trimmed);
    const value = match ? parseValue(match[2] ?? "", lookup) : undefined;
    if (!match || value === undefined) {
      problems.push(`line ${index + 1}: ${JSON.stringify(trimmed.slice(0, 80))} is not a plain "export NAME=value" line; skipped (clew reads the file without running a shell)`);
      return;
    }
    vars[match[1] as string] = value;
  });
  return { vars, problems };
}

/** A missing file is an empty one: no hook wrote to it. */
export function readEnvFile(path: string, base: Readonly<Record<string, string>> = {}): EnvFileResult {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return { vars: {}, problems: [] };
  }
  return parseEnvFile(text, base);
}
