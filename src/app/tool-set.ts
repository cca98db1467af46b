/**
 * The built-in tools and their API definitions. The built-ins' JSON Schemas are computed at build
 * time by the macro below; only a tool from elsewhere (MCP, plugins) derives its schema at run time.
 */
import type { ApiTool } from "../model/types.ts";
import type { AnyTool } from "../tools/types.ts";
import { builtinTools } from "./builtin-tools.ts";
import type { InputSchema } from "./input-schema.ts";
import { builtinInputSchemas } from "./tool-schemas.macro.ts" with { type: "macro" };

export { builtinTools };

const BUILTIN_INPUT_SCHEMAS: Readonly<Record<string, InputSchema>> = builtinInputSchemas();

/** `--tools` / `--disallowedTools` bare names narrow the set; unknown names are reported. */
export function selectTools(
  tools: readonly AnyTool[],
  only: readonly string[] | undefined,
  removed: readonly string[],
): { tools: AnyTool[]; unknown: string[] } {
  const known = new Set(tools.map((tool) => tool.name));
  const unknown = [...(only ?? []), ...removed].filter((name) => !known.has(name) && name !== "default" && name !== "");
  const keep = only && !(only.length === 1 && only[0] === "default") ? new Set(only) : undefined;
  const drop = new Set(removed);
  return {
    tools: tools.filter((tool) => (keep ? keep.has(tool.name) : true) && !drop.has(tool.name)),
    unknown,
  };
}

function inputSchemaOf(tool: AnyTool): InputSchema {
  if (tool.inputSchema) {
    // Servers often stamp their schemas with `$schema`; the definition goes out without it, as the built-ins' do.
    const { $schema: _dialect, ...schema } = tool.inputSchema;
    return schema as InputSchema;
  }
  const precomputed = builtinTools.includes(tool) ? BUILTIN_INPUT_SCHEMAS[tool.name] : undefined;
  if (precomputed) return precomputed;
  // Not a built-in (MCP, plugins): derive it now, loading zod's converter only for this.
  const { inputJsonSchema } = require("./input-schema.ts") as typeof import("./input-schema.ts");
  return inputJsonSchema(tool);
}

export function toApiTool(tool: AnyTool): ApiTool {
  return { name: tool.name, description: tool.description.trim(), input_schema: inputSchemaOf(tool) };
}
