import type { z } from "zod";
import { lazySchema } from "../util/lazy-schema.ts";
import { ToolError } from "../util/errors.ts";
import { defineTool, type ToolOutput } from "./types.ts";
import description from "./agent.md" with { type: "text" };

const input = lazySchema((z) =>
  z.object({
    description: z.string().describe("A short (3-5 word) description of the task"),
    prompt: z.string().describe("The task for the agent to perform"),
    subagent_type: z.string().optional().describe("The type of specialized agent to use for this task"),
    model: z.enum(["sonnet", "opus", "haiku", "fable"]).optional().describe("Optional model override for this agent; without it the agent type's model (or this conversation's) is used"),
    run_in_background: z.boolean().optional().describe("Set to true to run this agent in the background; you are notified when it completes"),
    isolation: z.enum(["worktree"]).optional().describe('"worktree" runs the agent in a temporary git worktree on its own branch'),
    name: z.string().optional().describe("A name for the spawned agent, so SendMessage can address it"),
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
