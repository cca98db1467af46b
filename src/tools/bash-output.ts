import type { z } from "zod";
import { lazySchema } from "../util/lazy-schema.ts";
import { ToolError } from "../util/errors.ts";
import type { ShellJobs, ShellJobStatus } from "./shared/shell-jobs.ts";
import { defineTool, type ToolOutput } from "./types.ts";
import description from "./bash-output.md" with { type: "text" };

const input = lazySchema((z) =>
  z.object({
    bash_id: z.string().describe("Id of the background shell"),
    filter: z
      .string()
      .optional()
      .describe("Regex: return only matching lines"),
  }),
);

export interface BashOutputData {
  shellId: string;
  command: string;
  status: ShellJobStatus;
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

export const bashOutputTool = defineTool({
  name: "BashOutput",
  description,
  get input() {
    return input();
  },
  access: "read",
  subject: (args) => args.bash_id,
  async run(args, ctx): Promise<ToolOutput> {
    const shells = ctx.session.shells;
    const job = shells.get(args.bash_id);
    if (job === undefined) throw new ToolError(unknownShellMessage(args.bash_id, shells), "tool_input");
    const keep = lineFilter(args.filter);
    // Read the status before the output: a job that ends in between is reported as running
    // now, and its last lines and exit code arrive with the next call — never lost.
    const status = job.status;
    const exitCode = job.exitCode;
    const output = job.takeOutput();
    const stdout = keep(output.stdout);
    const stderr = keep(output.stderr);

    const lines = [`<status>${status}</status>`];
    if (status !== "running" && exitCode !== null) lines.push(`<exit_code>${exitCode}</exit_code>`);
    if (stdout.length > 0) lines.push(`<stdout>\n${stdout.replace(/\n+$/, "")}\n</stdout>`);
    if (stderr.length > 0) lines.push(`<stderr>\n${stderr.replace(/\n+$/, "")}\n</stderr>`);
    if (stdout.length === 0 && stderr.length === 0) lines.push("(no new output)");

    const data: BashOutputData = { shellId: job.id, command: job.command, status, exitCode, stdout, stderr };
    return {
      content: lines.join("\n"),
      display: { summary: exitCode === null || status === "running" ? status : `${status}, exit ${exitCode}` },
      data,
    };
  },
});

export function unknownShellMessage(id: string, shells: ShellJobs): string {
  const known = shells.ids();
  const list = known.length > 0 ? `Known shells: ${known.join(", ")}.` : "No background shells have been started.";
  return `No background shell with ID "${id}". ${list}`;
}

function lineFilter(pattern: string | undefined): (text: string) => string {
  if (pattern === undefined || pattern === "") return (text) => text;
  let regex: RegExp;
  try {
    regex = new RegExp(pattern);
  } catch (error) {
    throw new ToolError(`Invalid filter regular expression ${JSON.stringify(pattern)}: ${String(error)}`, "tool_input");
  }
  return (text) =>
    text
      .split("\n")
      .filter((line) => line.length > 0 && regex.test(line))
      .join("\n");
}
