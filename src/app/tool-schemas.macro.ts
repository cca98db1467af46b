/**
 * Imported `with { type: "macro" }`: the bundler runs this at build time and inlines the JSON
 * Schemas it returns, so the shipped binary never evaluates zod or `z.toJSONSchema` to describe
 * the built-in tools to the model.
 */
import { builtinTools } from "./builtin-tools.ts";
import { inputJsonSchema, type InputSchema } from "./input-schema.ts";

export function builtinInputSchemas(): Record<string, InputSchema> {
  return Object.fromEntries(builtinTools.map((tool) => [tool.name, inputJsonSchema(tool)]));
}
