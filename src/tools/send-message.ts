import type { z } from "zod";
import { lazySchema } from "../util/lazy-schema.ts";
import { ToolError } from "../util/errors.ts";
import { defineTool, type ToolOutput } from "./types.ts";
import description from "./send-message.md" with { type: "text" };

const input = lazySchema((z) =>
  z.object({
    to: z.string().min(1).describe("Agent id or name"),
    message: z.string().min(1),
    summary: z.string().optional().describe("A 5-10 word preview"),
  }),
);

export type SendMessageInput = z.infer<ReturnType<typeof input>>;

export const sendMessageTool = defineTool({
  name: "SendMessage",
  description,
  get input() {
    return input();
  },
  access: "read",
  subject: (args) => args.to,
  async run(args, ctx): Promise<ToolOutput> {
    const agents = ctx.session.agents;
    if (!agents) throw new ToolError("There are no helper agents to message here.", "tool_input");
    return agents.send({ to: args.to, message: args.message }, ctx);
  },
});
