import { existsSync } from "node:fs";
import { join } from "node:path";
import type { z } from "zod";
import { lazySchema } from "../util/lazy-schema.ts";
import { errorMessage, ToolError } from "../util/errors.ts";
import { runShell, type RunResult, type ShellSpec } from "./shared/shell.ts";
import { defineTool, type SandboxPlan, type ToolOutput, type ToolSession } from "./types.ts";
import description from "./bash.md" with { type: "text" };

const input = lazySchema((z) =>
  z.object({
    command: z.string().describe("The command to run"),
    timeout: z.number().positive().optional().describe("Timeout in ms (max 600000)"),
    description: z
      .string()
      .optional()
      .describe("What the command does, in 5-10 words"),
    run_in_background: z
      .boolean()
      .optional()
      .describe("Run in the background; read output with BashOutput"),
    dangerouslyDisableSandbox: z
      .boolean()
      .optional()
      .describe("Run outside the sandbox (asks the user)"),
  }),
);

type BashInput = z.infer<ReturnType<typeof input>>;

/** `toolUseResult` shape of Claude Code's Bash tool. */
export interface BashData {
  stdout: string;
  stderr: string;
  interrupted: boolean;
  isImage: false;
  exitCode: number | null;
  backgroundTaskId?: string;
}

export const bashTool = defineTool({
  name: "Bash",
  description,
  get input() {
    return input();
  },
  access: "exec",
  subject: (args) => args.command,
  async run(args, ctx): Promise<ToolOutput> {
    const { session } = ctx;
    const notes = ensureCwdExists(session);
    const plan = await planSandbox(args, session);
    const launch = plan?.sandboxed ? { launch: plan.launch } : {};
    if (args.run_in_background === true) return startInBackground(args, session, notes, launch);

    const limits = session.limits;
    const timeoutMs = Math.min(args.timeout ?? limits.bashDefaultTimeoutMs, limits.bashMaxTimeoutMs);
    let result: RunResult;
    try {
      result = await runShell({
        command: args.command,
        cwd: session.cwd,
        env: session.env,
        maxOutputChars: limits.bashMaxOutputChars,
        ...(session.spillDir ? { spillStem: join(session.spillDir, ctx.toolUseId) } : {}),
        timeoutMs,
        signal: ctx.signal,
        ...launch,
      });
    } catch (error) {
      throw new ToolError(`Could not run the command: ${errorMessage(error)}`);
    }
    // CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR: a `cd` lasts for its own command only.
    const keepProjectDir = ["1", "true", "yes", "on"].includes((session.env.CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR ?? "").toLowerCase());
    if (result.finalCwd !== undefined) session.cwd = keepProjectDir ? session.projectDir : result.finalCwd;

    const data: BashData = {
      stdout: result.stdout,
      stderr: result.stderr,
      interrupted: result.interrupted,
      isImage: false,
      exitCode: result.exitCode,
    };
    const blocked = plan?.sandboxed && !result.interrupted ? plan.explain(result) : undefined;
    return {
      content: [...notes, formatContent(result, timeoutMs), ...(blocked ? [blocked] : [])].join("\n"),
      display: { summary: summarize(result) },
      data,
      // The output so far is still worth showing, but a command that never finished failed.
      ...(result.timedOut || result.interrupted ? { isError: true } : {}),
    };
  },
});

/** Whether the command runs inside the OS sandbox (undefined: there is none in this session). */
async function planSandbox(args: BashInput, session: ToolSession): Promise<SandboxPlan | undefined> {
  if (!session.sandbox) return undefined;
  try {
    return await session.sandbox.prepare({
      command: args.command,
      cwd: session.cwd,
      ...(args.dangerouslyDisableSandbox === true ? { dangerouslyDisableSandbox: true } : {}),
    });
  } catch (error) {
    // Never run unsandboxed because the sandbox failed: the gate may have approved it for being contained.
    throw new ToolError(`The sandbox could not start for this command: ${errorMessage(error)}`);
  }
}

function startInBackground(args: BashInput, session: ToolSession, notes: string[], launch: Pick<ShellSpec, "launch">): ToolOutput {
  const job = session.shells.start({
    ...launch,
    command: args.command,
    cwd: session.cwd,
    env: session.env,
    maxOutputChars: session.limits.bashMaxOutputChars,
    description: args.description,
  });
  const data: BashData = {
    stdout: "",
    stderr: "",
    interrupted: false,
    isImage: false,
    exitCode: null,
    backgroundTaskId: job.id,
  };
  return {
    content: [
      ...notes,
      `Command running in background with ID: ${job.id}. ` +
        `Use BashOutput with bash_id "${job.id}" to read its output, and KillShell to stop it.`,
    ].join("\n"),
    display: { summary: `started ${job.id}` },
    data,
  };
}

/** A `cd` into a directory that was later deleted must not make every following command fail. */
function ensureCwdExists(session: ToolSession): string[] {
  if (existsSync(session.cwd)) return [];
  const gone = session.cwd;
  session.cwd = session.projectDir;
  return [`(Working directory ${gone} no longer exists; running in ${session.projectDir} instead.)`];
}

function formatContent(result: RunResult, timeoutMs: number): string {
  const parts: string[] = [];
  const stdout = result.stdout.replace(/\n+$/, "");
  const stderr = result.stderr.replace(/\n+$/, "");
  if (stdout.length > 0) parts.push(stdout);
  if (stderr.length > 0) parts.push(stderr);
  if (result.timedOut) parts.push(`Command timed out after ${formatSeconds(timeoutMs)}`);
  else if (result.interrupted) parts.push("Command was interrupted");
  else if (result.exitCode !== 0) parts.push(`Exit code ${result.exitCode ?? "unknown"}`);
  return parts.length > 0 ? parts.join("\n") : "(no output)";
}

function summarize(result: RunResult): string {
  if (result.timedOut) return "timed out";
  if (result.interrupted) return "interrupted";
  return `exit ${result.exitCode ?? "unknown"}`;
}

function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))}s`;
}
