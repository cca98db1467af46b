/**
 * "Certainly valid" for the JSON Schemas zod derives from the settings schemas at build time
 * (json-schemas.macro.ts). A file every key of which passes is the same file zod would accept, so
 * zod is not evaluated at start-up for it — measured ≈ 4 ms for the --permission-mode flag alone.
 * Anything this checker does not fully understand (a keyword it does not know, a value it cannot
 * place) answers false, and zod, the validator of record, checks the file and words the problems.
 */
export type JsonSchema = Readonly<Record<string, unknown>>;

const KEYWORDS = new Set([
  "type", "properties", "required", "additionalProperties", "propertyNames", "items", "enum", "const",
  "oneOf", "anyOf", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "description",
]);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isSchema(value: unknown): value is JsonSchema {
  return isObject(value);
}

function withinBounds(schema: JsonSchema, value: number): boolean {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = schema;
  for (const bound of [minimum, maximum, exclusiveMinimum, exclusiveMaximum]) if (bound !== undefined && typeof bound !== "number") return false;
  if (typeof minimum === "number" && value < minimum) return false;
  if (typeof maximum === "number" && value > maximum) return false;
  if (typeof exclusiveMinimum === "number" && value <= exclusiveMinimum) return false;
  if (typeof exclusiveMaximum === "number" && value >= exclusiveMaximum) return false;
  return true;
}

/** The primitive type a schema of nothing but `type` asks for (`{ type: "boolean" }`), else undefined. */
function bareType(schema: unknown): "string" | "boolean" | undefined {
  if (!isSchema(schema) || (schema.type !== "string" && schema.type !== "boolean")) return undefined;
  for (const key in schema) if (key !== "type") return undefined;
  return schema.type;
}

/**
 * A record of plain values (`enabledPlugins`: names to booleans) checked with one `typeof` per
 * entry: hundreds of plugins would otherwise walk the general path, schema lookups and all.
 */
function plainRecordValid(schema: JsonSchema, value: Record<string, unknown>): boolean | undefined {
  const { properties, required, additionalProperties, propertyNames } = schema;
  if (properties !== undefined || required !== undefined) return undefined;
  if (propertyNames !== undefined && bareType(propertyNames) !== "string") return undefined;
  const type = bareType(additionalProperties);
  if (type === undefined) return undefined;
  for (const key in value) if (typeof value[key] !== type) return false;
  return true;
}

function objectValid(schema: JsonSchema, value: Record<string, unknown>): boolean {
  const plain = plainRecordValid(schema, value);
  if (plain !== undefined) return plain;
  const { properties = {}, required = [], additionalProperties, propertyNames } = schema;
  if (!isObject(properties) || !Array.isArray(required)) return false;
  for (const name of required) if (typeof name !== "string" || !Object.hasOwn(value, name)) return false;
  for (const [key, item] of Object.entries(value)) {
    if (propertyNames !== undefined && !(isSchema(propertyNames) && certainlyValid(propertyNames, key))) return false;
    const declared = Object.hasOwn(properties, key) ? properties[key] : undefined;
    if (declared !== undefined) {
      if (!isSchema(declared) || !certainlyValid(declared, item)) return false;
    } else if (additionalProperties === false) {
      return false;
    } else if (additionalProperties !== undefined && !(isSchema(additionalProperties) && certainlyValid(additionalProperties, item))) {
      return false;
    }
  }
  return true;
}

function typeValid(schema: JsonSchema, value: unknown): boolean {
  switch (schema.type) {
    case undefined:
      return true;
    case "string":
      return typeof value === "string";
    case "boolean":
      return typeof value === "boolean";
    case "number":
      return typeof value === "number" && Number.isFinite(value) && withinBounds(schema, value);
    case "integer":
      // zod's int() means a safe integer.
      return typeof value === "number" && Number.isSafeInteger(value) && withinBounds(schema, value);
    case "array": {
      const { items } = schema;
      if (!Array.isArray(value)) return false;
      if (items === undefined) return true;
      return isSchema(items) && value.every((item) => certainlyValid(items, item));
    }
    case "object":
      return isObject(value) && objectValid(schema, value);
    default:
      return false;
  }
}

export function certainlyValid(schema: JsonSchema, value: unknown): boolean {
  for (const keyword of Object.keys(schema)) if (!KEYWORDS.has(keyword)) return false;
  if ("const" in schema && (typeof schema.const === "object" || value !== schema.const)) return false;
  if ("enum" in schema && !(Array.isArray(schema.enum) && schema.enum.some((option) => typeof option !== "object" && option === value))) return false;
  if ("oneOf" in schema) {
    const options = schema.oneOf;
    if (!Array.isArray(options) || options.filter((option) => isSchema(option) && certainlyValid(option, value)).length !== 1) return false;
  }
  if ("anyOf" in schema) {
    const options = schema.anyOf;
    if (!Array.isArray(options) || !options.some((option) => isSchema(option) && certainlyValid(option, value))) return false;
  }
  return typeValid(schema, value);
}
