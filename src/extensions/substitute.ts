/**
 * String substitutions in a skill or command body (spec A.6), pure: `$ARGUMENTS`, `$ARGUMENTS[N]`
 * and `$N` (0-based since CC 2.1.19: `$0` is the first argument), named `$arg` from the
 * `arguments` field, and the `${CLAUDE_*}` / `${user_config.KEY}` variables. One backslash right
 * before an argument token keeps it literal; `${…}` variables cannot be escaped.
 */

export interface RenderVariables {
  sessionId: string;
  /** `${CLAUDE_PROJECT_DIR}`: where the session started. */
  projectDir: string;
  effort?: string;
  /** Plugin items: `${CLAUDE_PLUGIN_ROOT}`, `${CLAUDE_PLUGIN_DATA}`, non-sensitive `${user_config.KEY}`. */
  pluginRoot?: string;
  pluginData?: string;
  userConfig?: Readonly<Record<string, string | number | boolean>>;
}

export interface SubstitutionTarget {
  /** `${CLAUDE_SKILL_DIR}`. */
  dir: string;
  argumentNames: readonly string[];
}

/** Shell-style words: whitespace separates, quotes group (`"a b" c` → `a b`, `c`), `\` escapes. */
export function splitArguments(raw: string): string[] {
  const words: string[] = [];
  let current = "";
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let index = 0; index < raw.length; index++) {
    const char = raw.charAt(index);
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else current += char;
    } else if (char === "\\" && index + 1 < raw.length && (quote === undefined || /["\\$`]/.test(raw.charAt(index + 1)))) {
      current += raw.charAt(++index);
      inWord = true;
    } else if (quote === '"') {
      if (char === '"') quote = undefined;
      else current += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(current);
      current = "";
      inWord = false;
    } else {
      current += char;
      inWord = true;
    }
  }
  if (inWord) words.push(current);
  return words;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Values of the `${NAME}` variables; undefined leaves the token as written. */
function variable(name: string, target: SubstitutionTarget, vars: RenderVariables): string | undefined {
  switch (name) {
    case "CLAUDE_SESSION_ID":
      return vars.sessionId;
    case "CLAUDE_EFFORT":
      return vars.effort;
    case "CLAUDE_SKILL_DIR":
      return target.dir;
    case "CLAUDE_PROJECT_DIR":
      return vars.projectDir;
    case "CLAUDE_PLUGIN_ROOT":
      return vars.pluginRoot;
    case "CLAUDE_PLUGIN_DATA":
      return vars.pluginData;
  }
  if (name.startsWith("user_config.")) {
    const value = vars.userConfig?.[name.slice("user_config.".length)];
    return value === undefined ? undefined : String(value);
  }
  return undefined;
}

/** Replaces only the `${…}` variables: what `allowed-tools` Bash rules get (spec A.2). */
export function substituteVariables(text: string, target: SubstitutionTarget, vars: RenderVariables): string {
  return text.replace(/\$\{(CLAUDE_[A-Z_]+|user_config\.[A-Za-z_][A-Za-z0-9_]*)\}/g, (token, name: string) => variable(name, target, vars) ?? token);
}

export interface Substituted {
  text: string;
  /** The body has an argument placeholder; otherwise given arguments are appended. */
  usesArguments: boolean;
  /** Where argument values were put in `text`: never scanned for `!` commands or `@` files. */
  argumentSpans: { start: number; end: number }[];
}

export function substitute(body: string, args: string, target: SubstitutionTarget, vars: RenderVariables): Substituted {
  const words = splitArguments(args);
  const names = target.argumentNames.filter((name) => /^[A-Za-z_][A-Za-z0-9_-]*$/.test(name)).sort((a, b) => b.length - a.length);
  // Always a sixth group (one that never matches when there are no names) keeps the replacer's arguments in place.
  const named = names.length === 0 ? "|((?!)x)" : `|(${names.map(escapeRegExp).join("|")})(?![A-Za-z0-9_])`;
  // One pass, so a value put in (an argument, a path) is never scanned for tokens again.
  const pattern = new RegExp(
    `(\\\\*)\\$(?:\\{(CLAUDE_[A-Z_]+|user_config\\.[A-Za-z_][A-Za-z0-9_]*)\\}|ARGUMENTS\\[(\\d+)\\]|(ARGUMENTS)(?![A-Za-z0-9_])|(\\d+)${named})`,
    "g",
  );
  let usesArguments = false;
  const argumentSpans: { start: number; end: number }[] = [];
  let shift = 0;
  const text = body.replace(pattern, (token: string, slashes: string, variableName: string | undefined, bracket: string | undefined, all: string | undefined, digits: string | undefined, name: string | undefined, offset: number) => {
    let replacement: string;
    if (variableName !== undefined) replacement = slashes + (variable(variableName, target, vars) ?? token.slice(slashes.length));
    else if (slashes.length === 1) replacement = token.slice(1);
    else {
      usesArguments = true;
      let value: string | undefined;
      if (all !== undefined) value = args.trim();
      else if (bracket !== undefined || digits !== undefined) value = words[Number(bracket ?? digits)];
      else if (name !== undefined) value = words[target.argumentNames.indexOf(name)] ?? "";
      replacement = value === undefined ? token : slashes + value;
      if (value !== undefined && value !== "") {
        const start = offset + shift + slashes.length;
        argumentSpans.push({ start, end: start + value.length });
      }
    }
    shift += replacement.length - token.length;
    return replacement;
  });
  return { text, usesArguments, argumentSpans };
}
