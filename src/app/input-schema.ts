/**
 * The API's `input_schema` for a tool: the JSON Schema of its zod input, without `$schema`.
 * Used at build time for the built-in tools (tool-schemas.macro.ts) and at run time only for
 * tools that come from elsewhere.
 */
import type { ApiTool } from "../model/types.ts";
import { loadZod } from "../util/lazy-schema.ts";
import type { AnyTool } from "../tools/types.ts";

export type InputSchema = ApiTool["input_schema"];

export function inputJsonSchema(tool: AnyTool): InputSchema {
  // A plain JSON copy: zod attaches a hidden `~standard` object that has no place in a request.
  const schema = JSON.parse(JSON.stringify(loadZod().toJSONSchema(tool.input, { io: "input" }))) as Record<string, unknown>;
  delete schema.$schema;
  return schema as InputSchema;
}
