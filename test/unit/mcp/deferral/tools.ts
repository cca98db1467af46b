/** Tools shaped like the MCP adapter's: their own JSON Schema and an MCP origin. */
import { z } from "zod";
import { defineTool, type AnyTool, type JsonInputSchema } from "../../../../src/tools/types.ts";

export function mcpTool(server: string, tool: string, description: string, options: { alwaysLoad?: boolean; schema?: JsonInputSchema } = {}): AnyTool {
  return defineTool({
    name: `mcp__${server}__${tool}`,
    description,
    input: z.object({}).passthrough(),
    inputSchema: options.schema ?? { type: "object", properties: { text: { type: "string", description: "What to send" } }, required: ["text"] },
    origin: { kind: "mcp", server, tool, alwaysLoad: options.alwaysLoad ?? false, requiresUserInteraction: false },
    access: "network",
    subject: () => "",
    run: async () => ({ content: `${tool} ran` }),
  });
}

export function builtin(name: string): AnyTool {
  return defineTool({
    name,
    description: `${name} does built-in work.`,
    input: z.object({}),
    access: "read",
    subject: () => "",
    run: async () => ({ content: "ok" }),
  });
}

/** `count` tools on one server, each description about `descriptionChars` long. */
export function manyTools(server: string, count: number, descriptionChars = 400): AnyTool[] {
  return Array.from({ length: count }, (_, i) => {
    const base = `Tool number ${i} of ${server}: reads and writes record ${i}. `;
    return mcpTool(server, `tool_${i}`, base.repeat(Math.ceil(descriptionChars / base.length)).slice(0, descriptionChars));
  });
}
