/**
 * A server's input schema as the API accepts it: a plain object schema at the root. Schemas whose
 * root is `anyOf` / `oneOf` / `allOf` (which the API rejects) are flattened into one object with
 * every branch's properties, and the description says which parameters go together. A schema that
 * cannot be flattened (a branch that is not an object) makes only that tool unavailable.
 */
import type { JsonInputSchema } from "../../tools/types.ts";

type Json = Record<string, unknown>;

export type FlattenResult = { ok: true; schema: JsonInputSchema; note?: string } | { ok: false; reason: string };

const COMBINATORS = ["allOf", "anyOf", "oneOf"] as const;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function requiredOf(schema: Json): string[] {
  return Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === "string") : [];
}

function propertiesOf(schema: Json): Json {
  return isObject(schema.properties) ? schema.properties : {};
}

function describeGroups(kind: "anyOf" | "oneOf", branches: Json[]): string {
  const groups = branches.map((branch, index) => {
    const names = Object.keys(propertiesOf(branch));
    const required = requiredOf(branch);
    const listed = names.length > 0 ? names.map((name) => (required.includes(name) ? `${name} (required)` : name)).join(", ") : "no parameters";
    return `(${index + 1}) ${listed}`;
  });
  const rule = kind === "oneOf" ? "Pass the parameters of exactly one of these groups" : "Pass the parameters of at least one of these groups";
  return `${rule}: ${groups.join("; ")}.`;
}

export function flattenInputSchema(raw: unknown): FlattenResult {
  if (!isObject(raw)) return { ok: false, reason: "its inputSchema is not a JSON object" };
  const kind = COMBINATORS.find((key) => Array.isArray(raw[key]));
  if (!kind) {
    if (raw.type !== undefined && raw.type !== "object") return { ok: false, reason: `its inputSchema has type "${String(raw.type)}", not "object"` };
    return { ok: true, schema: { ...raw, type: "object" } };
  }
  const branches = raw[kind] as unknown[];
  const objects: Json[] = [];
  for (const [index, branch] of branches.entries()) {
    if (!isObject(branch) || (branch.type !== undefined && branch.type !== "object") || "$ref" in branch || COMBINATORS.some((key) => key in branch)) {
      return { ok: false, reason: `its inputSchema's root ${kind}[${index}] is not a plain object schema, so it cannot be flattened into one object` };
    }
    objects.push(branch);
  }
  const properties: Json = { ...propertiesOf(raw) };
  for (const branch of objects) {
    for (const [name, schema] of Object.entries(propertiesOf(branch))) if (!(name in properties)) properties[name] = schema;
  }
  const rootRequired = requiredOf(raw);
  const branchRequired =
    kind === "allOf"
      ? objects.flatMap(requiredOf)
      : objects.length === 0
        ? []
        : requiredOf(objects[0] ?? {}).filter((name) => objects.every((branch) => requiredOf(branch).includes(name)));
  const required = [...new Set([...rootRequired, ...branchRequired])];
  const rest: Json = {};
  for (const [key, value] of Object.entries(raw)) if (!(COMBINATORS as readonly string[]).includes(key)) rest[key] = value;
  const schema: JsonInputSchema = { ...rest, type: "object", properties, ...(required.length > 0 ? { required } : {}) };
  if (kind === "allOf") return { ok: true, schema };
  return { ok: true, schema, note: describeGroups(kind, objects) };
}
