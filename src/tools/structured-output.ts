/**
 * StructuredOutput: offered only with `--json-schema` (the Agent SDK's `outputFormat`). The model
 * ends its work by calling it with the answer as the input; the input is checked against the
 * user's schema here (the API does not enforce a tool's schema), and a valid one becomes the
 * result's `structured_output`. The loop asks again when the model stops without it (see
 * `FinalOutput.atEnd`), a bounded number of times.
 */
import { Validator, type OutputUnit, type Schema } from "@cfworker/json-schema";
import { lazySchema } from "../util/lazy-schema.ts";
import { ToolError } from "../util/errors.ts";
import { defineTool, type AnyTool, type JsonInputSchema } from "./types.ts";

export const STRUCTURED_OUTPUT_TOOL = "StructuredOutput";

/** Attempts (calls that failed the schema, and replies that ended without a call) before the turn gives up. */
export const MAX_STRUCTURED_OUTPUT_ATTEMPTS = 5;

const looseInput = lazySchema((z) => z.looseObject({}));

const DESCRIPTION = `Return the final answer of this task in the structured form the user asked for. Call it exactly once, after all other work is done, with the whole answer as the input; the input must match the schema. If a call is refused, correct the input as the error says and call it again.`;

/** What the turn's answer is so far, and what checking it took. */
export class FinalOutput {
  private answer: { value: unknown } | undefined;
  private attempts = 0;

  constructor(readonly maxAttempts = MAX_STRUCTURED_OUTPUT_ATTEMPTS) {}

  provide(value: unknown): void {
    this.answer = { value };
  }

  /** A call whose input failed the schema. */
  refuse(): void {
    this.attempts++;
  }

  /** The answer given, once; the next turn needs its own. */
  take(): { value: unknown } | undefined {
    const answer = this.answer;
    this.answer = undefined;
    this.attempts = 0;
    return answer;
  }

  /** After a reply's tool calls: why the turn gives up, once invalid answers used up the attempts. */
  exhausted(): string | undefined {
    return this.answer === undefined && this.attempts >= this.maxAttempts ? this.giveUp() : undefined;
  }

  /** When the model stopped: end the turn, remind it to answer, or give up. */
  atEnd(): { kind: "done" } | { kind: "remind"; text: string } | { kind: "exhausted"; message: string } {
    if (this.answer !== undefined) return { kind: "done" };
    this.attempts++;
    if (this.attempts >= this.maxAttempts) return { kind: "exhausted", message: this.giveUp() };
    return { kind: "remind", text: `You have not given your final answer yet. Call the ${STRUCTURED_OUTPUT_TOOL} tool now with the complete answer as its input, matching its schema.` };
  }

  private giveUp(): string {
    return `Failed to provide valid structured output after ${this.maxAttempts} attempts`;
  }
}

/**
 * The API takes an object schema as a tool's input: any other root (an array, a string, a union)
 * is wrapped as the one property `output`, unwrapped again when the answer is taken.
 */
export function toolSchemaFor(schema: Record<string, unknown>): { inputSchema: JsonInputSchema; wrapped: boolean } {
  const isObject = schema.type === "object" || (schema.type === undefined && ("properties" in schema || "required" in schema) && !("anyOf" in schema || "oneOf" in schema));
  if (isObject) return { inputSchema: { ...schema, type: "object" }, wrapped: false };
  return { inputSchema: { type: "object", properties: { output: schema }, required: ["output"], additionalProperties: false }, wrapped: true };
}

function describeErrors(errors: readonly OutputUnit[]): string {
  // cfworker reports each failing keyword and every schema above it; the leaves say what to fix.
  const leaves = errors.filter((error) => !errors.some((other) => other !== error && other.keywordLocation.startsWith(`${error.keywordLocation}/`)));
  const shown = (leaves.length > 0 ? leaves : errors).slice(0, 10);
  return shown.map((error) => `- ${error.instanceLocation === "#" ? "(the input)" : error.instanceLocation.slice(1)}: ${error.error}`).join("\n");
}

export function structuredOutputTool(schema: Record<string, unknown>, output: FinalOutput): AnyTool {
  const { inputSchema, wrapped } = toolSchemaFor(schema);
  const validator = new Validator(inputSchema as Schema, "2020-12", false);
  return defineTool({
    name: STRUCTURED_OUTPUT_TOOL,
    description: DESCRIPTION,
    get input() {
      return looseInput();
    },
    inputSchema,
    // Only the session's own answer changes: nothing on disk, no process, no network.
    access: "read",
    subject: () => "",
    async run(args) {
      const checked = validator.validate(args);
      if (!checked.valid) {
        output.refuse();
        throw new ToolError(`The input does not match the required schema:\n${describeErrors(checked.errors)}\nCall ${STRUCTURED_OUTPUT_TOOL} again with a corrected input.`, "tool_input");
      }
      output.provide(wrapped ? (args as { output?: unknown }).output : args);
      return { content: "Structured output provided successfully" };
    },
  });
}

const TYPES = new Set(["object", "array", "string", "number", "integer", "boolean", "null"]);
const SCHEMA_KEYWORDS = ["not", "if", "then", "else", "additionalProperties", "items", "contains", "propertyNames", "unevaluatedItems", "unevaluatedProperties", "additionalItems"];
const SCHEMA_LIST_KEYWORDS = ["anyOf", "oneOf", "allOf", "prefixItems"];
const SCHEMA_MAP_KEYWORDS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

/** Where `value` breaks the shape of a JSON Schema (draft 2020-12's keywords), or undefined. */
function schemaProblem(value: unknown, at: string): string | undefined {
  if (typeof value === "boolean") return undefined;
  if (typeof value !== "object" || value === null || Array.isArray(value)) return `${at} must be a schema (an object or a boolean)`;
  const schema = value as Record<string, unknown>;
  const type = schema.type;
  if (type !== undefined) {
    const names = Array.isArray(type) ? type : [type];
    const bad = names.find((name) => typeof name !== "string" || !TYPES.has(name));
    if (bad !== undefined || names.length === 0) return `${at}.type must be one of ${[...TYPES].join(", ")} (or a list of them), not ${JSON.stringify(type)}`;
  }
  if (schema.required !== undefined && !(Array.isArray(schema.required) && schema.required.every((name) => typeof name === "string"))) return `${at}.required must be a list of property names`;
  if (schema.enum !== undefined && !Array.isArray(schema.enum)) return `${at}.enum must be a list`;
  for (const key of SCHEMA_KEYWORDS) {
    const sub = schema[key];
    if (sub === undefined) continue;
    // `items` as a list is draft 2019's tuple form.
    const problem = Array.isArray(sub) && key === "items" ? sub.map((item, i) => schemaProblem(item, `${at}.items[${i}]`)).find(Boolean) : schemaProblem(sub, `${at}.${key}`);
    if (problem) return problem;
  }
  for (const key of SCHEMA_LIST_KEYWORDS) {
    const list = schema[key];
    if (list === undefined) continue;
    if (!Array.isArray(list) || list.length === 0) return `${at}.${key} must be a non-empty list of schemas`;
    const problem = list.map((item, i) => schemaProblem(item, `${at}.${key}[${i}]`)).find(Boolean);
    if (problem) return problem;
  }
  for (const key of SCHEMA_MAP_KEYWORDS) {
    const map = schema[key];
    if (map === undefined) continue;
    if (typeof map !== "object" || map === null || Array.isArray(map)) return `${at}.${key} must be an object of schemas`;
    const problem = Object.entries(map).map(([name, sub]) => schemaProblem(sub, `${at}.${key}.${name}`)).find(Boolean);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * `--json-schema`'s value (or initialize's `jsonSchema`): a JSON Schema object, as JSON text or
 * already parsed. Throws with what is wrong: not JSON, not an object, a keyword of the wrong
 * shape, a `$ref` that resolves nowhere.
 */
export function readJsonSchema(given: unknown): Record<string, unknown> {
  let value = given;
  if (typeof given === "string") {
    try {
      value = JSON.parse(given);
    } catch (error) {
      throw new Error(`it is not JSON (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error("it must be a JSON object, e.g. {\"type\":\"object\",\"properties\":{…}}");
  const problem = schemaProblem(value, "schema");
  if (problem) throw new Error(problem);
  const schema = value as Record<string, unknown>;
  const dangling = refsOf(schema).find((ref) => !resolves(schema, ref));
  if (dangling !== undefined) throw new Error(`its $ref ${JSON.stringify(dangling)} points nowhere in the schema (only references within it, "#/…", are followed)`);
  try {
    new Validator(toolSchemaFor(schema).inputSchema as Schema, "2020-12", false).validate({});
  } catch (error) {
    throw new Error(error instanceof Error ? error.message : String(error));
  }
  return schema;
}

function refsOf(value: unknown): string[] {
  if (typeof value !== "object" || value === null) return [];
  if (Array.isArray(value)) return value.flatMap(refsOf);
  const ref = (value as { $ref?: unknown }).$ref;
  return [...(typeof ref === "string" ? [ref] : []), ...Object.values(value).flatMap(refsOf)];
}

/** Whether `ref`, a JSON pointer into `root` ("#" or "#/$defs/item"), names something there. */
function resolves(root: unknown, ref: string): boolean {
  if (!ref.startsWith("#")) return false;
  let at: unknown = root;
  for (const part of ref.slice(1).split("/").slice(1)) {
    const key = decodeURIComponent(part).replaceAll("~1", "/").replaceAll("~0", "~");
    if (typeof at !== "object" || at === null || !(key in at)) return false;
    at = (at as Record<string, unknown>)[key];
  }
  return true;
}
