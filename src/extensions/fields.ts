/**
 * Reading frontmatter fields the way Claude Code does: booleans as true/false/yes/no/on/off/1/0 in
 * any case, lists as a YAML list or a comma- or space-separated string (split outside
 * parentheses, so `Bash(git add *)` stays one entry), non-string scalars coerced to strings. A
 * value of the wrong type is reported with its file line and the field falls back to its default;
 * it never costs the rest of the file.
 */
import type { ExtensionProblem } from "./types.ts";

const TRUE_WORDS = new Set(["true", "yes", "on", "1"]);
const FALSE_WORDS = new Set(["false", "no", "off", "0"]);

/** Tool names real agent files still use, mapped to today's equivalent (spec C.5). */
const LEGACY_TOOLS: Record<string, string> = { Task: "Agent", MultiEdit: "Edit", NotebookRead: "Read" };

/** Splits on commas and whitespace that are outside parentheses. */
export function splitToolList(value: string): string[] {
  const entries: string[] = [];
  let depth = 0;
  let current = "";
  for (const char of value) {
    if (char === "(") depth++;
    if (char === ")") depth = Math.max(0, depth - 1);
    if (depth === 0 && (char === "," || /\s/.test(char))) {
      if (current !== "") entries.push(current);
      current = "";
    } else current += char;
  }
  if (current !== "") entries.push(current);
  return entries;
}

/** `Task` → `Agent`, `Task(Explore)` → `Agent(Explore)`; other names as written. */
export function modernToolName(entry: string): string {
  const open = entry.indexOf("(");
  const base = open < 0 ? entry : entry.slice(0, open);
  const modern = LEGACY_TOOLS[base];
  return modern === undefined ? entry : modern + entry.slice(base.length);
}

function scalarText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return undefined;
}

export class FieldReader {
  constructor(
    private readonly data: Record<string, unknown>,
    private readonly lines: Record<string, number>,
    private readonly file: string,
    readonly problems: ExtensionProblem[],
  ) {}

  has(field: string): boolean {
    return this.data[field] !== undefined && this.data[field] !== null;
  }

  raw(field: string): unknown {
    return this.data[field];
  }

  report(field: string, message: string, severity: ExtensionProblem["severity"] = "warning", code: ExtensionProblem["code"] = "invalid-field"): void {
    const line = this.lines[field];
    this.problems.push({ code, severity, file: this.file, ...(line === undefined ? {} : { line }), field, message });
  }

  /** A string; numbers and booleans become their text, a list of scalars is joined with ", ". */
  string(field: string): string | undefined {
    const value = this.data[field];
    if (value === undefined || value === null) return undefined;
    const text = scalarText(value);
    if (text !== undefined) return text;
    if (Array.isArray(value) && value.every((item) => scalarText(item) !== undefined)) return value.map(scalarText).join(", ");
    this.report(field, `"${field}" must be text, not ${kindOf(value)}; it is ignored. Write it on one line or quote it.`);
    return undefined;
  }

  boolean(field: string, fallback: boolean): boolean {
    const value = this.data[field];
    if (value === undefined || value === null) return fallback;
    if (typeof value === "boolean") return value;
    const word = scalarText(value)?.trim().toLowerCase();
    if (word !== undefined && TRUE_WORDS.has(word)) return true;
    if (word !== undefined && FALSE_WORDS.has(word)) return false;
    this.report(field, `"${field}" must be true or false (yes/no, on/off, 1/0 also work), not ${JSON.stringify(value)}; using ${fallback}.`);
    return fallback;
  }

  /** One of `values`; anything else is reported and ignored. */
  oneOf<T extends string>(field: string, values: readonly T[], aliases: Record<string, T> = {}): T | undefined {
    const text = this.string(field)?.trim();
    if (text === undefined || text === "") return undefined;
    const match = values.find((value) => value === text) ?? aliases[text];
    if (match !== undefined) return match;
    this.report(field, `"${field}" must be one of ${values.join(", ")}, not "${text}"; it is ignored.`);
    return undefined;
  }

  positiveInt(field: string): number | undefined {
    const value = this.data[field];
    if (value === undefined || value === null) return undefined;
    const number = typeof value === "number" ? value : Number(scalarText(value)?.trim() ?? Number.NaN);
    if (Number.isInteger(number) && number > 0) return number;
    this.report(field, `"${field}" must be a whole number above 0, not ${JSON.stringify(value)}; it is ignored.`);
    return undefined;
  }

  /** A YAML list, or a string split on commas and whitespace outside parentheses. */
  list(field: string): string[] | undefined {
    const value = this.data[field];
    if (value === undefined || value === null) return undefined;
    if (Array.isArray(value)) {
      const items = value.map(scalarText);
      if (items.every((item): item is string => item !== undefined)) return items.flatMap((item) => item.trim() === "" ? [] : [item.trim()]);
    } else {
      const text = scalarText(value);
      if (text !== undefined) return splitToolList(text.trim().replace(/^\[(.*)\]$/s, "$1"));
    }
    this.report(field, `"${field}" must be a list or a comma-separated string, not ${kindOf(value)}; it is ignored.`);
    return undefined;
  }

  /** A tool list with legacy names mapped (`Task` → `Agent`). */
  tools(field: string): string[] | undefined {
    return this.list(field)?.map(modernToolName);
  }

  /** A map; anything else is reported and dropped. */
  map(field: string): Record<string, unknown> | undefined {
    const value = this.data[field];
    if (value === undefined || value === null) return undefined;
    if (typeof value === "object" && !Array.isArray(value) && !(value instanceof Date)) return value as Record<string, unknown>;
    this.report(field, `"${field}" must be a map of keys to values, not ${kindOf(value)}; it is ignored.`);
    return undefined;
  }

  /** Keys CC ignores that look like a misspelt field: ignored as CC does, but said so. */
  misspellings(table: Record<string, string>): void {
    for (const [wrong, right] of Object.entries(table)) {
      if (this.has(wrong) && !this.has(right)) {
        this.report(wrong, `"${wrong}" is not a field and is ignored; did you mean "${right}"?`, "warning", "misspelled-field");
      }
    }
  }
}

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object" && value !== null) return "a map";
  return JSON.stringify(value);
}
