/**
 * Validates one parsed settings file against the schema and repairs it by removing only what is
 * wrong: one bad rule, one bad env value, one handler with an unknown type. Everything valid stays,
 * and a deny rule that is a string is never removed. Each removal becomes a warning that names
 * the key path and the line.
 */
import type { z } from "zod";
import type { ParsedJson, Position } from "./json-source.ts";
import { deepClone, formatKeyPath, getAt, isPlainObject, jsonTypeName, type PathSegment, removeAt } from "./key-path.ts";
import { HOOK_EVENTS } from "./schema/hooks.ts";
import { certainlyValid } from "./schema/certainly-valid.ts";
import { settingsKeyJsonSchemas } from "./schema/json-schemas.macro.ts" with { type: "macro" };
import { SETTINGS_KEYS, settingsKeySchema } from "./schema/settings.ts";
import type { SettingsProblem } from "./types.ts";

export interface ValidationResult {
  data: Record<string, unknown>;
  problems: SettingsProblem[];
}

type Issue = z.core.$ZodIssue;

const TYPE_WORDS: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "true or false",
  array: "an array",
  object: "an object",
  record: "an object",
};

const MAX_PASSES = 20;

function pathOf(issue: Issue): PathSegment[] {
  return issue.path.filter((segment): segment is PathSegment => typeof segment === "string" || typeof segment === "number");
}

function list(values: readonly unknown[]): string {
  return values.map((value) => JSON.stringify(value)).join(", ");
}

/** zod reports an unknown discriminator (`type`, `source`) with the allowed values in `options`. */
function discriminatorOptions(issue: Issue): readonly unknown[] | undefined {
  if (issue.code !== "invalid_union" || !("discriminator" in issue)) return undefined;
  const options: unknown = (issue as { options?: unknown }).options;
  return Array.isArray(options) ? options : undefined;
}

function describeIssue(issue: Issue, actual: unknown): string {
  switch (issue.code) {
    case "invalid_type": {
      const expected = TYPE_WORDS[issue.expected] ?? issue.expected;
      return actual === undefined ? `is required (${expected})` : `must be ${expected} (got ${jsonTypeName(actual)})`;
    }
    case "invalid_value":
      return issue.values.length === 1
        ? `must be ${list(issue.values)} (got ${JSON.stringify(actual)})`
        : `must be one of ${list(issue.values)} (got ${JSON.stringify(actual)})`;
    case "too_small":
      return `must be ${issue.inclusive === false ? "greater than" : "at least"} ${String(issue.minimum)} (got ${JSON.stringify(actual)})`;
    case "too_big":
      return `must be ${issue.inclusive === false ? "less than" : "at most"} ${String(issue.maximum)} (got ${JSON.stringify(actual)})`;
    case "invalid_union": {
      const options = discriminatorOptions(issue);
      if (options === undefined) return "does not match any allowed form";
      return actual === undefined ? `is required (one of ${list(options)})` : `must be one of ${list(options)} (got ${JSON.stringify(actual)})`;
    }
    default:
      return `is invalid: ${issue.message}`;
  }
}

/** What to remove for an issue: the bad value itself, or its parent when the value is missing. */
function removalTarget(data: unknown, issue: Issue, path: PathSegment[]): PathSegment[] {
  let target = path;
  if (discriminatorOptions(issue) !== undefined && target.length > 1) target = target.slice(0, -1);
  while (target.length > 1 && getAt(data, target) === undefined) target = target.slice(0, -1);
  return target;
}

/** Descending order, so removing an array element never shifts one still to be removed. */
function compareDescending(a: readonly PathSegment[], b: readonly PathSegment[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i] as PathSegment;
    const y = b[i] as PathSegment;
    if (x === y) continue;
    if (typeof x === "number" && typeof y === "number") return y - x;
    return String(y) < String(x) ? -1 : 1;
  }
  return b.length - a.length;
}

/** After a removal, array indices no longer match the file: locate by the part before the first index. */
function stablePrefix(path: readonly PathSegment[]): PathSegment[] {
  const index = path.findIndex((segment) => typeof segment === "number");
  return index < 0 ? [...path] : path.slice(0, index);
}

function problemAt(file: string, position: Position | undefined, keyPath: string, message: string): SettingsProblem {
  return { file, ...(position ?? {}), keyPath, message, severity: "warning" };
}

/** A lone string where a deny/ask list belongs is a rule, not garbage: keep it as a one-item list. */
function repairRestrictiveLists(data: Record<string, unknown>, file: string, json: ParsedJson, problems: SettingsProblem[]): void {
  const permissions = data.permissions;
  if (!isPlainObject(permissions)) return;
  for (const kind of ["deny", "ask"] as const) {
    const value = permissions[kind];
    if (typeof value !== "string") continue;
    permissions[kind] = [value];
    const keyPath = formatKeyPath(["permissions", kind]);
    problems.push(problemAt(file, json.locate(["permissions", kind]), keyPath, `${keyPath} should be an array of rules (got a single string); using it as one rule`));
  }
}

function warnUnknownHookEvents(data: Record<string, unknown>, file: string, json: ParsedJson, problems: SettingsProblem[]): void {
  if (!isPlainObject(data.hooks)) return;
  for (const event of Object.keys(data.hooks)) {
    if (HOOK_EVENTS.includes(event)) continue;
    const keyPath = formatKeyPath(["hooks", event]);
    problems.push(problemAt(file, json.locate(["hooks", event]), keyPath, `${keyPath}: unknown hook event '${event}' (event names are case-sensitive); its hooks never run`));
  }
}

const KEY_JSON_SCHEMAS = settingsKeyJsonSchemas();

/** True when every typed key present is certainly what its schema accepts (no zod needed). */
function certainlyValidSettings(data: Record<string, unknown>): boolean {
  for (const key of SETTINGS_KEYS) {
    if (!Object.hasOwn(data, key)) continue;
    const schema = KEY_JSON_SCHEMAS[key];
    if (schema === undefined || !certainlyValid(schema, data[key])) return false;
  }
  return true;
}

/**
 * The issues one loose object schema of all typed keys would report, found key by key so only the
 * schemas of keys present in the file are ever built.
 */
function settingsIssues(data: Record<string, unknown>): Issue[] {
  const issues: Issue[] = [];
  for (const key of SETTINGS_KEYS) {
    if (!Object.hasOwn(data, key)) continue;
    const result = settingsKeySchema(key)?.safeParse(data[key]);
    if (result && !result.success) for (const issue of result.error.issues) issues.push({ ...issue, path: [key, ...issue.path] });
  }
  return issues;
}

/**
 * `owned`: the value was parsed for this call alone (a settings file's text), so it is repaired in
 * place; otherwise (an object handed in) a copy is. 600 `enabledPlugins` cost ~0.35 ms to copy.
 */
export function validateSettingsFile(json: ParsedJson, file: string, options: { owned?: boolean } = {}): ValidationResult {
  const data = (options.owned === true ? json.value : deepClone(json.value)) as Record<string, unknown>;
  // Allowed in every settings file for editor completion, and meaningless to clew.
  delete data.$schema;
  const problems: SettingsProblem[] = [];
  repairRestrictiveLists(data, file, json, problems);
  const removed = new Set<string>();
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    if (pass === 0 && certainlyValidSettings(data)) break;
    const issues = settingsIssues(data);
    if (issues.length === 0) break;
    const targets = new Map<string, PathSegment[]>();
    for (const issue of issues) {
      const path = pathOf(issue);
      const target = removalTarget(data, issue, path);
      targets.set(formatKeyPath(target), target);
      // A key reported missing because an earlier pass removed it was already explained.
      if (removed.has(formatKeyPath(path))) continue;
      const keyPath = formatKeyPath(path);
      const position = json.locate(pass === 0 ? path : stablePrefix(path));
      const wider = target.length < path.length ? `; ignoring ${formatKeyPath(target)}` : "";
      problems.push(problemAt(file, position, keyPath, `${keyPath} ${describeIssue(issue, getAt(data, path))}${wider}`));
    }
    const ordered = [...targets.values()].sort(compareDescending);
    let progressed = false;
    for (const target of ordered) {
      if (removeAt(data, target)) {
        removed.add(formatKeyPath(target));
        progressed = true;
      }
    }
    // Cannot happen with the current schema; guarantees termination if a future one misbehaves.
    if (!progressed) for (const target of ordered) if (target[0] !== undefined) delete data[String(target[0])];
  }
  warnUnknownHookEvents(data, file, json, problems);
  // In file order, the way a person fixes them.
  problems.sort((a, b) => (a.line ?? Infinity) - (b.line ?? Infinity) || (a.column ?? 0) - (b.column ?? 0));
  return { data, problems };
}
