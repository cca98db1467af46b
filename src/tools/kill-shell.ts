import type { z } from "zod";
import { lazySchema } from "../util/lazy-schema.ts";
import { ToolError } from "../util/errors.ts";
import { unknownShellMessage } from "./bash-output.ts";
import { defineTool, type ToolOutput } from "./types.ts";
import description from "./kill-shell.md" with { type: "text" };

const input = lazySchema((z) =>
  z.object({
    shell_id: z.string().describe("Id of the background shell"),
  }),
);

export interface KillShellData {
  shellId: string;
  command: string;
  message: string;
}

export const killShellTool = defineTool({
  name: "KillShell",
  description,
  get input() {
    return input();
  },
  access: "exec",
  subject: (args) => args.shell_id,
  async run(args, ctx): Promise<ToolOutput> {
    const shells = ctx.session.shells;
    const job = shells.get(args.shell_id);
    if (job === undefined) throw new ToolError(unknownShellMessage(args.shell_id, shells), "tool_input");
    if (job.status !== "running") {
      throw new ToolError(`Shell ${job.id} is not running, so it cannot be killed (status: ${job.status}).`, "tool_input");
    }
    await shells.kill(job.id);
    const message = `Successfully killed shell: ${job.id} (${job.command})`;
    const data: KillShellData = { shellId: job.id, command: job.command, message };
    return { content: message, display: { summary: `killed ${job.id}` }, data };
  },
});
