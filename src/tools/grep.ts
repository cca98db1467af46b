import { stat } from "node:fs/promises";
import { z } from "zod";
import { ToolError } from "../util/errors.ts";
import { DEFAULT_HEAD_LIMIT, formatGrep } from "./shared/grep-format.ts";
import { grepWithJs } from "./shared/grep-js.ts";
import { hasLiteralNewline } from "./shared/grep-regex.ts";
import { splitGlobs, type GrepRequest } from "./shared/grep-request.ts";
import { grepWithRipgrep } from "./shared/grep-rg.ts";
import { isMissing, resolveToolPath } from "./shared/paths.ts";
import { defineTool, type ToolSession } from "./types.ts";
import description from "./grep.md" with { type: "text" };

const contextLines = (flag: string, what: string) =>
  z
    .number()
    .int()
    .min(0)
    .optional()
    .describe(`Number of lines to show ${what} each match (rg ${flag}). Requires output_mode: "content", ignored otherwise.`);

const input = z.object({
  pattern: z.string().describe("The regular expression pattern to search for in file contents"),
  path: z
    .string()
    .optional()
    .describe("File or directory to search in (rg PATH). Defaults to current working directory."),
  glob: z
    .string()
    .optional()
    .describe('Glob pattern to filter files (e.g. "*.js", "*.{ts,tsx}") - maps to rg --glob'),
  output_mode: z
    .enum(["content", "files_with_matches", "count"])
    .optional()
    .describe(
      'Output mode: "content" shows matching lines (supports -A/-B/-C context, -n line numbers, head_limit), "files_with_matches" shows file paths (supports head_limit), "count" shows match counts (supports head_limit). Defaults to "files_with_matches".',
    ),
  "-B": contextLines("-B", "before"),
  "-A": contextLines("-A", "after"),
  "-C": contextLines("-C", "before and after"),
  "-n": z
    .boolean()
    .optional()
    .describe('Show line numbers in output (rg -n). Requires output_mode: "content", ignored otherwise. Defaults to true.'),
  "-i": z.boolean().optional().describe("Case insensitive search (rg -i)"),
  type: z
    .string()
    .optional()
    .describe("File type to search (rg --type). Common types: js, py, rust, go, java, etc. More efficient than include for standard file types."),
  head_limit: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe(
      `Limit output to first N lines/entries, equivalent to "| head -N". Works across all output modes: content (limits output lines), files_with_matches (limits file paths), count (limits count entries). Defaults to ${DEFAULT_HEAD_LIMIT} when unspecified. Pass 0 for unlimited (use sparingly - large result sets waste context).`,
    ),
  offset: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('Skip first N lines/entries before applying head_limit, equivalent to "| tail -n +N | head -N". Works across all output modes. Defaults to 0.'),
  multiline: z
    .boolean()
    .optional()
    .describe("Enable multiline mode where . matches newlines and patterns can span lines (rg -U --multiline-dotall). Default: false."),
});

type GrepInput = z.infer<typeof input>;

export const grepTool = defineTool({
  name: "Grep",
  description,
  input,
  access: "read",
  subject: (args, session) => searchRoot(args, session),
  async run(args, { session, signal }) {
    const request = await buildRequest(args, session);
    const rg = Bun.which("rg", { PATH: session.env.PATH ?? "" });
    const raw = rg ? await grepWithRipgrep(rg, request, session.env, signal) : await grepWithJs(request, signal);
    return formatGrep(raw, {
      headLimit: args.head_limit ?? DEFAULT_HEAD_LIMIT,
      offset: args.offset ?? 0,
      lineNumbers: args["-n"] ?? true,
    });
  },
});

function searchRoot(args: GrepInput, session: ToolSession): string {
  return args.path === undefined ? session.cwd : resolveToolPath(args.path, session);
}

async function buildRequest(args: GrepInput, session: ToolSession): Promise<GrepRequest> {
  const root = searchRoot(args, session);
  const rootStat = await stat(root).catch((error: unknown) => {
    if (isMissing(error)) throw new ToolError(`Path does not exist: ${root}. Current working directory: ${session.cwd}.`, "tool_input");
    throw new ToolError(`Cannot search ${root}: ${error instanceof Error ? error.message : String(error)}`);
  });
  if (!args.multiline && hasLiteralNewline(args.pattern)) {
    throw new ToolError(
      `The pattern ${JSON.stringify(args.pattern)} contains a newline, which never matches line by line. Set multiline: true to match across lines.`,
      "tool_input",
    );
  }
  const mode = args.output_mode ?? "files_with_matches";
  const content = mode === "content";
  return {
    pattern: args.pattern,
    root,
    rootIsFile: !rootStat.isDirectory(),
    globs: splitGlobs(args.glob),
    type: args.type,
    mode,
    ignoreCase: args["-i"] ?? false,
    multiline: args.multiline ?? false,
    before: content ? (args["-B"] ?? args["-C"] ?? 0) : 0,
    after: content ? (args["-A"] ?? args["-C"] ?? 0) : 0,
  };
}
