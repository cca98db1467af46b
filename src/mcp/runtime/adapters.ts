/**
 * An MCP server's tools as clew tools: `mcp__<server>__<tool>`, the server's own JSON Schema sent
 * to the API, a loose object for the executor to check (the server validates the arguments), the
 * permission subject empty (rules match the tool name), and the result mapped by results.ts.
 */
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { lazySchema } from "../../util/lazy-schema.ts";
import type { AnyTool, ToolContext, ToolOutput } from "../../tools/types.ts";
import { capText, uniqueMcpName } from "./names.ts";
import { mapToolResult } from "./results.ts";
import { flattenInputSchema } from "./schema.ts";

const looseInput = lazySchema((z) => z.looseObject({}));

/** What an adapter needs of its server's connection. */
export interface ToolCaller {
  callTool(tool: string, args: Record<string, unknown>, options: { signal: AbortSignal; timeoutMs: number }): Promise<unknown>;
}

export interface AdapterContext {
  server: string;
  caller: ToolCaller;
  /** The server entry's `alwaysLoad`. */
  alwaysLoad: boolean;
  timeoutMs: number;
  maxOutputTokens: number;
}

export interface BuiltAdapters {
  tools: AnyTool[];
  /** `mcp__server__tool` → the tool's real name on its server. */
  realNames: Map<string, string>;
  /** A sentence per tool that could not be offered. */
  skipped: string[];
}

function meta(tool: McpTool): Record<string, unknown> {
  const value = (tool as { _meta?: unknown })._meta;
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}

export function buildAdapters(context: AdapterContext, tools: readonly McpTool[], taken: Set<string>): BuiltAdapters {
  const built: BuiltAdapters = { tools: [], realNames: new Map(), skipped: [] };
  for (const tool of tools) {
    const flat = flattenInputSchema(tool.inputSchema);
    if (!flat.ok) {
      built.skipped.push(`tool "${tool.name}" is not offered: ${flat.reason}`);
      continue;
    }
    const name = uniqueMcpName(context.server, tool.name, taken);
    taken.add(name);
    built.realNames.set(name, tool.name);
    const toolMeta = meta(tool);
    const maxChars = toolMeta["anthropic/maxResultSizeChars"];
    const base = capText(tool.description ?? tool.title ?? "");
    const description = flat.note ? `${base}${base ? "\n\n" : ""}${flat.note}` : base;
    const limits = { maxOutputTokens: context.maxOutputTokens, ...(typeof maxChars === "number" ? { toolMaxChars: maxChars } : {}) };
    const adapter: AnyTool = {
      name,
      description,
      get input() {
        return looseInput();
      },
      inputSchema: flat.schema,
      origin: {
        kind: "mcp",
        server: context.server,
        tool: tool.name,
        alwaysLoad: context.alwaysLoad || toolMeta["anthropic/alwaysLoad"] === true,
        requiresUserInteraction: toolMeta["anthropic/requiresUserInteraction"] === true,
      },
      access: tool.annotations?.readOnlyHint === true ? "read" : "exec",
      subject: () => "",
      async run(input: unknown, ctx: ToolContext): Promise<ToolOutput> {
        const args = typeof input === "object" && input !== null ? (input as Record<string, unknown>) : {};
        const raw = await context.caller.callTool(tool.name, args, { signal: ctx.signal, timeoutMs: context.timeoutMs });
        return mapToolResult(raw, limits);
      },
    };
    built.tools.push(adapter);
  }
  return built;
}
