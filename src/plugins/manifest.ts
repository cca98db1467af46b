/**
 * `.claude-plugin/plugin.json` (plugins.md §3) and the manifest fields a marketplace entry may
 * carry (marketplaces.md §3): reading the file, checking each recognised field's type, and
 * reporting unknown keys. A wrongly typed field is reported and ignored rather than failing the
 * plugin (Claude Code refuses the whole plugin; clew keeps what it can and says what to fix).
 */
import { join } from "node:path";
import { isObject, ProblemList, readJson } from "./plugin-files.ts";
import { editDistance } from "../util/edit-distance.ts";

export const MANIFEST_PATH = ".claude-plugin/plugin.json";

type FieldKind = "string" | "boolean" | "strings" | "object" | "array" | "paths" | "pathsOrObject" | "author" | "repository" | "soft-object" | "legacy";

/** Every field of plugins.md §3.2, by the shape it must have. */
const MANIFEST_FIELDS: Record<string, FieldKind> = {
  $schema: "string",
  name: "string",
  displayName: "string",
  version: "string",
  description: "string",
  author: "author",
  homepage: "string",
  repository: "repository",
  license: "string",
  keywords: "strings",
  metadata: "soft-object",
  defaultEnabled: "boolean",
  skills: "paths",
  commands: "paths",
  agents: "paths",
  workflows: "paths",
  hooks: "pathsOrObject",
  mcpServers: "pathsOrObject",
  lspServers: "pathsOrObject",
  outputStyles: "paths",
  experimental: "soft-object",
  themes: "legacy",
  monitors: "legacy",
  userConfig: "object",
  channels: "array",
  dependencies: "array",
  settings: "object",
};

/** Marketplace-only entry fields (marketplaces.md §3); everything else an entry may hold is a manifest field. */
const ENTRY_FIELDS: Record<string, FieldKind> = {
  source: "legacy",
  category: "string",
  tags: "strings",
  strict: "boolean",
  relevance: "object",
};

/** The fields that make a manifest "declare components" (the strict: false conflict rule, marketplaces.md §5). */
export const COMPONENT_FIELDS = ["skills", "commands", "agents", "workflows", "hooks", "mcpServers", "lspServers", "outputStyles"] as const;

export function declaresComponents(manifest: Record<string, unknown>): boolean {
  return COMPONENT_FIELDS.some((field) => manifest[field] !== undefined);
}

function hasShape(kind: FieldKind, value: unknown): boolean {
  switch (kind) {
    case "string":
      return typeof value === "string";
    case "boolean":
      return typeof value === "boolean";
    case "strings":
      return Array.isArray(value) && value.every((item) => typeof item === "string");
    case "object":
      return isObject(value);
    case "array":
      return Array.isArray(value);
    case "paths":
      // The `{name: {source}}` map is a real-world form (Dev-GOM); path checks report bad items.
      return typeof value === "string" || Array.isArray(value) || isObject(value);
    case "pathsOrObject":
      return typeof value === "string" || Array.isArray(value) || isObject(value);
    case "author":
      // Documented as an object; real manifests also use a plain string.
      return typeof value === "string" || (isObject(value) && typeof value.name === "string");
    case "repository":
      return typeof value === "string" || isObject(value);
    case "soft-object":
    case "legacy":
      return true;
  }
}

const EXPECTED_SHAPE: Record<FieldKind, string> = {
  string: "a string",
  boolean: "true or false",
  strings: "a list of strings",
  object: "an object",
  array: "a list",
  paths: 'a path such as "./x" or a list of paths',
  pathsOrObject: "a path, a list of paths, or an inline object",
  author: 'an object with a "name" (or a plain string)',
  repository: "a URL string",
  "soft-object": "an object",
  legacy: "",
};

function suggestion(key: string, known: readonly string[]): string | undefined {
  let best: { name: string; score: number } | undefined;
  for (const name of known) {
    const score = editDistance(key.toLowerCase(), name.toLowerCase(), 2);
    if (score <= 2 && score < key.length && (best === undefined || score < best.score)) best = { name, score };
  }
  return best?.name;
}

export interface FieldCheckContext {
  /** The file the fields were read from (plugin.json, or marketplace.json for an entry). */
  file: string;
  /** How messages name the object: `plugin.json`, `plugins[3] "x"`. */
  label: string;
  /** Field path prefix for an entry: `plugins[3].`; empty for plugin.json. */
  fieldPrefix: string;
  kind: "manifest" | "entry";
}

/**
 * Type checks and unknown-key findings for a manifest or an entry. Returns the fields to use:
 * wrongly typed ones are dropped (and reported as errors).
 */
export function checkFields(raw: Record<string, unknown>, context: FieldCheckContext, problems: ProblemList): Record<string, unknown> {
  const table = context.kind === "entry" ? { ...MANIFEST_FIELDS, ...ENTRY_FIELDS } : MANIFEST_FIELDS;
  const known = Object.keys(table);
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    const field = `${context.fieldPrefix}${key}`;
    const kind = table[key];
    if (kind === undefined) {
      const near = suggestion(key, known);
      const code = context.kind === "entry" ? "entry-unknown-key" : "manifest-unknown-key";
      // A foreign key (category, tier, …) is common and harmless: a note. A near-miss of a real field is likely a typo.
      if (near !== undefined) problems.add("warning", code, context.file, `${context.label}: unknown key "${key}" (ignored); did you mean "${near}"?`, field);
      else problems.add("note", code, context.file, `${context.label}: unknown key "${key}" (ignored)`, field);
      continue;
    }
    if (!hasShape(kind, value)) {
      problems.add("error", "manifest-invalid-field", context.file, `${context.label}: "${key}" must be ${EXPECTED_SHAPE[kind]}; the field is ignored until it is fixed.`, field);
      continue;
    }
    if (kind === "soft-object" && !isObject(value)) {
      problems.add("warning", "manifest-invalid-field", context.file, `${context.label}: "${key}" must be an object; it is ignored.`, field);
      continue;
    }
    if (kind === "legacy" && (key === "themes" || key === "monitors")) {
      problems.add("warning", "manifest-legacy-field", context.file, `${context.label}: "${key}" at the top level is the pre-2.1.129 location; move it to "experimental.${key}".`, field);
    }
    kept[key] = value;
  }
  return kept;
}

export type ManifestRead =
  | { kind: "none"; file: string }
  | { kind: "invalid"; file: string; message: string }
  | { kind: "ok"; file: string; raw: Record<string, unknown> };

/** Reads `<root>/.claude-plugin/plugin.json`; the manifest is optional. */
export function readManifest(root: string): ManifestRead {
  const file = join(root, MANIFEST_PATH);
  const read = readJson(file);
  if (read.kind === "missing") return { kind: "none", file };
  if (read.kind === "invalid") return { kind: "invalid", file, message: `plugin.json is not valid JSON (${read.message}); fix the syntax, the plugin does not load until then.` };
  if (!isObject(read.value)) return { kind: "invalid", file, message: "plugin.json must be a JSON object with at least a \"name\"; the plugin does not load until then." };
  return { kind: "ok", file, raw: read.value };
}

/** plugin.json checks beyond field types: the required `name`, the name form (plugins.md §1). */
export function checkManifest(raw: Record<string, unknown>, file: string, problems: ProblemList): Record<string, unknown> {
  const fields = checkFields(raw, { file, label: "plugin.json", fieldPrefix: "", kind: "manifest" }, problems);
  if (typeof raw.name !== "string" || raw.name.trim() === "") {
    problems.add("error", "manifest-no-name", file, 'plugin.json has no "name" (the only required field); add "name": "<kebab-case-name>".', "name");
  } else if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(raw.name)) {
    problems.add("warning", "manifest-name-format", file, `plugin.json "name" "${raw.name}" is not kebab-case (lowercase letters, digits, hyphens); claude.ai sync rejects such names.`, "name");
  }
  return fields;
}
