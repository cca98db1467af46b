import type { z } from "zod";
import type { ToolReferenceBlockParam } from "@anthropic-ai/sdk/resources/messages";
import { lazySchema } from "../util/lazy-schema.ts";
import { ToolError } from "../util/errors.ts";
import { defineTool, type ToolOutput } from "./types.ts";
import description from "./tool-search.md" with { type: "text" };

/** Claude Code's ToolSearch input: `query`, and `max_results` defaulting to 5. */
const input = lazySchema((z) =>
  z.object({
    query: z.string().describe('What to load: "select:<name>[,<name>...]" for tools by name, or keywords to search for'),
    max_results: z.number().optional().default(5).describe("How many tools a keyword search may load (default: 5)"),
  }),
);

export type ToolSearchInput = z.infer<ReturnType<typeof input>>;

export interface ToolSearchData {
  matches: string[];
  query: string;
}

export const toolSearchTool = defineTool({
  name: "ToolSearch",
  description,
  get input() {
    return input();
  },
  access: "read",
  subject: (args) => args.query,
  async run(args, ctx): Promise<ToolOutput> {
    const search = ctx.session.toolSearch;
    if (!search) throw new ToolError("No tools are deferred in this session, so there is nothing to load.", "tool_input");
    const matches = search.search(args.query, args.max_results);
    const data: ToolSearchData = { matches, query: args.query };
    if (matches.length === 0) {
      return {
        content: `No deferred tool matches "${args.query}". Check the names in the deferred tools reminder, or try other keywords.`,
        display: { summary: "No matching tools" },
        data,
      };
    }
    // The API expands each reference into the tool's full definition right here in the conversation.
    const content: ToolReferenceBlockParam[] = matches.map((name) => ({ type: "tool_reference", tool_name: name }));
    return { content, display: { summary: `Loaded ${matches.length} tool${matches.length === 1 ? "" : "s"}: ${matches.join(", ")}` }, data };
  },
});
