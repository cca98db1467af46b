/**
 * The built-in tools, in the fixed order the model sees them (a stable order keeps the prompt
 * cache warm), and their API definitions derived once from the zod schemas.
 */
import { z } from "zod";
import type { ApiTool } from "../model/types.ts";
import { bashOutputTool } from "../tools/bash-output.ts";
import { bashTool } from "../tools/bash.ts";
import { editTool } from "../tools/edit.ts";
import { globTool } from "../tools/glob.ts";
import { grepTool } from "../tools/grep.ts";
import { killShellTool } from "../tools/kill-shell.ts";
import { readTool } from "../tools/read.ts";
import { todoWriteTool } from "../tools/todo-write.ts";
import type { AnyTool } from "../tools/types.ts";
import { writeTool } from "../tools/write.ts";

export const builtinTools: readonly AnyTool[] = [
  bashTool,
  bashOutputTool,
  killShellTool,
  globTool,
  grepTool,
  readTool,
  editTool,
  writeTool,
  todoWriteTool,
];

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

export function toApiTool(tool: AnyTool): ApiTool {
  const schema = z.toJSONSchema(tool.input, { io: "input" }) as Record<string, unknown>;
  delete schema.$schema;
  return { name: tool.name, description: tool.description.trim(), input_schema: schema as ApiTool["input_schema"] };
}
