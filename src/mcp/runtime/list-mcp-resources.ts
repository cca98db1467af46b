import { ToolError } from "../../util/errors.ts";
import { lazySchema } from "../../util/lazy-schema.ts";
import { defineTool, type AnyTool, type ToolOutput } from "../../tools/types.ts";
import type { ResourceDirectory } from "./resource-directory.ts";
import description from "./list-mcp-resources.md" with { type: "text" };

const input = lazySchema((z) => z.object({ server: z.string().optional() }));

export function listMcpResourcesTool(directory: ResourceDirectory): AnyTool {
  return defineTool({
    name: "ListMcpResourcesTool",
    description: description.trim(),
    get input() {
      return input();
    },
    inputSchema: {
      type: "object",
      properties: { server: { type: "string", description: "Only this server's resources (optional)" } },
      additionalProperties: false,
    },
    access: "read",
    subject: (args) => args.server ?? "",
    async run(args): Promise<ToolOutput> {
      if (args.server !== undefined && !directory.resourceServers().includes(args.server)) {
        const known = directory.resourceServers();
        throw new ToolError(`No connected MCP server "${args.server}" offers resources. ${known.length > 0 ? `Servers with resources: ${known.join(", ")}.` : "No connected server offers resources."}`);
      }
      const resources = directory.listResources(args.server);
      if (resources.length === 0) return { content: "No resources found.", data: [] };
      return { content: JSON.stringify(resources, null, 2), data: resources };
    },
  });
}
