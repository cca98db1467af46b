import type { z } from "zod";
import { lazySchema } from "../util/lazy-schema.ts";
import { ToolError } from "../util/errors.ts";
import { defineTool, type ToolOutput } from "./types.ts";
import description from "./skill.md" with { type: "text" };

const input = lazySchema((z) =>
  z.object({
    skill: z.string().min(1).describe('The skill name, e.g. "commit" or "my-plugin:review"'),
    args: z.string().optional().describe("Optional arguments for the skill"),
  }),
);

export type SkillInput = z.infer<ReturnType<typeof input>>;

export const skillTool = defineTool({
  name: "Skill",
  description,
  get input() {
    return input();
  },
  // Loading instructions reads files the registry already knows; `!` commands in them pass the gate.
  access: "read",
  subject: (args) => [args.skill.replace(/^\//, ""), args.args].filter(Boolean).join(" "),
  async run(args, ctx): Promise<ToolOutput> {
    const loader = ctx.session.skills;
    if (!loader) throw new ToolError("No skills are available in this session.", "tool_input");
    const name = args.skill.replace(/^\//, "");
    const loaded = await loader.load(name, args.args ?? "", ctx.signal);
    if (!loaded.ok) throw new ToolError(loaded.message, "tool_input");
    return { content: loaded.text, display: { summary: `Loaded skill ${name}` }, data: { success: true, commandName: name } };
  },
});
