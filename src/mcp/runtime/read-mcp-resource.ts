import { ToolError } from "../../util/errors.ts";
import { lazySchema } from "../../util/lazy-schema.ts";
import { defineTool, type AnyTool, type ToolOutput } from "../../tools/types.ts";
import type { ResourceDirectory } from "./resource-directory.ts";
import description from "./read-mcp-resource.md" with { type: "text" };

const input = lazySchema((z) => z.object({ server: z.string(), uri: z.string() }));

export function readMcpResourceTool(directory: ResourceDirectory): AnyTool {
  return defineTool({
    name: "ReadMcpResourceTool",
    description: description.trim(),
    get input() {
      return input();
    },
    inputSchema: {
      type: "object",
      properties: {
        server: { type: "string", description: "The MCP server's name" },
        uri: { type: "string", description: "The resource URI to read" },
      },
      required: ["server", "uri"],
      additionalProperties: false,
    },
    access: "read",
    subject: (args) => `${args.server}:${args.uri}`,
    async run(args, ctx): Promise<ToolOutput> {
      const result = await directory.readResource(args.server, args.uri, ctx.signal);
      if (!result.ok) throw new ToolError(result.message);
      return { content: result.text };
    },
  });
}
