/**
 * Rules: Markdown files under `.clew/rules/` and `.claude/rules/` (and `<config dir>/rules/`),
 * recursive, symlinks followed. A rule without `paths:` frontmatter loads at start; a rule with
 * `paths:` waits until the agent reads a matching file. gray-matter (and its YAML parser) and
 * minimatch are imported only when a rule actually has frontmatter or globs, because they cost
 * more start-up time than everything else in this folder together.
 */
import { readdirSync, statSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import { errorMessage } from "../util/errors.ts";
import { canonicalPath, type InstructionFile, type InstructionLabel, type InstructionReader } from "./instruction-reader.ts";

/** Expanded-pattern budget per rule, as in Claude Code. */
export const MAX_RULE_PATTERNS = 1000;

export interface ConditionalRule {
  path: string;
  label: InstructionLabel;
  /** Relative globs match paths relative to this directory (the one holding `.clew/` or `.claude/`). */
  base: string;
  /** The `paths:` globs as written. */
  globs: string[];
  /** The globs brace-expanded, at most MAX_RULE_PATTERNS. */
  patterns: string[];
  /** The body, frontmatter removed. */
  content: string;
}

type ParsedRule = { body: string; globs: string[] | undefined } | { problem: string };

/** `.md` files under `root`, relative, in code-unit order; directory cycles are walked once. */
function markdownFilesUnder(root: string): string[] {
  const found: string[] = [];
  const visited = new Set<string>();
  const walk = (dir: string, prefix: string): void => {
    const real = canonicalPath(dir);
    if (visited.has(real)) return;
    visited.add(real);
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const name of names) {
      const full = join(dir, name);
      const relPath = prefix === "" ? name : `${prefix}/${name}`;
      let stat;
      try {
        stat = statSync(full, { throwIfNoEntry: false });
      } catch {
        continue;
      }
      if (stat?.isDirectory()) walk(full, relPath);
      else if (stat?.isFile() && name.endsWith(".md")) found.push(relPath);
    }
  };
  walk(root, "");
  return found;
}

/** Splits `a/**, {b,c}/*.ts` on the commas that are not inside braces. */
function splitGlobList(value: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = "";
  for (const char of value) {
    if (char === "{") depth++;
    if (char === "}") depth = Math.max(0, depth - 1);
    if (char === "," && depth === 0) {
      parts.push(current);
      current = "";
    } else current += char;
  }
  parts.push(current);
  return parts.map((part) => part.trim()).filter((part) => part !== "");
}

function refuseEngine(): never {
  throw new Error("only YAML frontmatter is supported");
}

/** Frontmatter and body of a rule file. Only YAML is parsed: gray-matter would `eval` `---js`. */
async function parseRule(path: string, text: string): Promise<ParsedRule> {
  if (!text.startsWith("---")) return { body: text, globs: undefined };
  const matter = (await import("gray-matter")).default;
  let data: Record<string, unknown>;
  let body: string;
  try {
    const parsed = matter(text, { engines: { javascript: refuseEngine, coffee: refuseEngine } });
    data = parsed.data;
    body = parsed.content;
  } catch (error) {
    return { problem: `${path}: invalid frontmatter, rule skipped: ${(errorMessage(error).split("\n")[0] ?? "").replace(/:$/, "")}` };
  }
  const paths = data.paths;
  if (paths === undefined || paths === null) return { body, globs: undefined };
  const list = typeof paths === "string" ? splitGlobList(paths) : paths;
  if (!Array.isArray(list) || !list.every((entry): entry is string => typeof entry === "string")) {
    return { problem: `${path}: frontmatter "paths" must be a glob or a list of globs, rule skipped` };
  }
  const globs = list.map((entry) => entry.trim()).filter((entry) => entry !== "");
  return { body, globs: globs.length > 0 ? globs : undefined };
}

async function conditionalRule(
  reader: InstructionReader,
  rule: Omit<ConditionalRule, "patterns">,
): Promise<ConditionalRule> {
  const { braceExpand } = await import("minimatch");
  const patterns: string[] = [];
  for (const glob of rule.globs) {
    for (const pattern of braceExpand(glob)) {
      if (patterns.length === MAX_RULE_PATTERNS) {
        reader.problems.push(`${rule.path}: "paths" expands to more than ${MAX_RULE_PATTERNS} patterns; the rest are ignored`);
        return { ...rule, patterns };
      }
      patterns.push(pattern);
    }
  }
  return { ...rule, patterns };
}

/**
 * Loads the rules of `rulesDirs` (earlier directories win a clash on the same relative name, so
 * pass `.clew/rules` before `.claude/rules`): unconditional ones into `out`, conditional ones
 * into `conditional` for later.
 */
export async function addRules(
  reader: InstructionReader,
  rulesDirs: readonly string[],
  scope: { label: InstructionLabel; base: string },
  out: InstructionFile[],
  conditional: ConditionalRule[],
): Promise<void> {
  const taken = new Set<string>();
  for (const dir of rulesDirs) {
    for (const name of markdownFilesUnder(dir)) {
      const path = join(dir, name);
      if (taken.has(name) || !reader.isCandidate(path)) continue;
      taken.add(name);
      if (reader.isLoaded(path)) continue;
      const text = reader.readText(path);
      if (text === undefined) continue;
      const parsed = await parseRule(path, text);
      if ("problem" in parsed) reader.problems.push(parsed.problem);
      else if (!parsed.globs) reader.addContent({ path, label: scope.label, reason: "start", content: parsed.body }, out, 0);
      else conditional.push(await conditionalRule(reader, { path, ...scope, globs: parsed.globs, content: parsed.body }));
    }
  }
}

/** The conditional rules whose globs match `filePath` (absolute). */
export async function rulesMatching(rules: readonly ConditionalRule[], filePath: string): Promise<ConditionalRule[]> {
  if (rules.length === 0) return [];
  const { minimatch } = await import("minimatch");
  const options = { dot: true, nobrace: true };
  return rules.filter((rule) => {
    const rel = relative(rule.base, filePath).split(sep).join("/");
    const inside = rel !== "" && rel !== ".." && !rel.startsWith("../") && !isAbsolute(rel);
    return rule.patterns.some((pattern) =>
      isAbsolute(pattern)
        ? minimatch(filePath, pattern, options)
        : inside && minimatch(rel, pattern.replace(/^\.\//, ""), options),
    );
  });
}
