import type { z } from "zod";
import { lazySchema } from "../util/lazy-schema.ts";
import { ToolError } from "../util/errors.ts";
import { defineTool, type ToolOutput } from "./types.ts";
import description from "./agent.md" with { type: "text" };

const input = lazySchema((z) =>
  z.object({
    description: z.string().describe("The task in 3-5 words"),
    prompt: z.string().describe("The task, self-contained"),
    subagent_type: z.string().optional().describe("Helper type (default general-purpose)"),
    model: z.enum(["sonnet", "opus", "haiku", "fable"]).optional().describe("Model override"),
    run_in_background: z.boolean().optional(),
    isolation: z.enum(["worktree"]).optional(),
    name: z.string().optional().describe("Name for SendMessage"),
  }),
);

export type AgentToolInput = z.infer<ReturnType<typeof input>>;

export const agentTool = defineTool({
  name: "Agent",
  description,
  get input() {
    return input();
  },
  // Launching needs no approval and runs alongside other launches: every call the helper makes passes the gate itself.
  access: "read",
  subject: (args) => args.subagent_type ?? "general-purpose",
  async run(args, ctx): Promise<ToolOutput> {
    const agents = ctx.session.agents;
    if (!agents) throw new ToolError("Helper agents cannot be started from here.", "tool_input");
    return agents.run(args, ctx);
  },
});
