import { statSync, type Stats } from "node:fs";
import type { z } from "zod";
import { lazySchema } from "../util/lazy-schema.ts";
import { ToolError } from "../util/errors.ts";
import { DEFAULT_HEAD_LIMIT, formatGrep } from "./shared/grep-format.ts";
import { grepSmallTree, grepWithJs } from "./shared/grep-js.ts";
import { hasLiteralNewline } from "./shared/grep-regex.ts";
import { splitGlobs, type ContentItem, type GrepRaw, type GrepRequest } from "./shared/grep-request.ts";
import { grepWithRipgrep } from "./shared/grep-rg.ts";
import { isMissing, resolveToolPath } from "./shared/paths.ts";
import { defineTool, type ToolSession } from "./types.ts";
import description from "./grep.md" with { type: "text" };

const input = lazySchema((z) => {
  const contextLines = (flag: string, what: string) =>
    z
      .number()
      .int()
      .min(0)
      .optional()
      .describe(`Lines of context ${what} each match (content mode)`);
  return z.object({
    pattern: z.string().describe("Regular expression to search for"),
    path: z
      .string()
      .optional()
      .describe("File or directory to search (default: working directory)"),
    glob: z
      .string()
      .optional()
      .describe('Glob filter for files, e.g. "*.{ts,tsx}"'),
    output_mode: z
      .enum(["content", "files_with_matches", "count"])
      .optional()
      .describe('"files_with_matches" (default), "content" or "count"'),
    "-B": contextLines("-B", "before"),
    "-A": contextLines("-A", "after"),
    "-C": contextLines("-C", "before and after"),
    "-n": z
      .boolean()
      .optional()
      .describe("Line numbers in content mode (default true)"),
    "-i": z.boolean().optional().describe("Case-insensitive"),
    type: z
      .string()
      .optional()
      .describe("File type, e.g. js, py, rust, go"),
    head_limit: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe(`Return at most N lines/entries (default ${DEFAULT_HEAD_LIMIT}; 0 = no limit)`),
    offset: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe("Skip the first N lines/entries"),
    multiline: z
      .boolean()
      .optional()
      .describe("Let patterns span lines (. matches newline)"),
  });
});

type GrepInput = z.infer<ReturnType<typeof input>>;

export const grepTool = defineTool({
  name: "Grep",
  description,
  get input() {
    return input();
  },
  access: "read",
  subject: (args, session) => searchRoot(args, session),
  async run(args, { session, signal }) {
    const request = buildRequest(args, session);
    const found = await search(request, session, signal);
    const raw = session.readDenied ? hideDenied(found, session.readDenied) : found;
    return formatGrep(raw, {
      headLimit: args.head_limit ?? DEFAULT_HEAD_LIMIT,
      offset: args.offset ?? 0,
      lineNumbers: args["-n"] ?? true,
    });
  },
});

/** What a tree searched in process may hold besides its file count (set by the session's limits). */
const SMALL_TREE = { bytes: 1_000_000, directories: 8 };

/** Search roots found too big for the in-process search, per session, so they go to ripgrep directly. */
const largeRoots = new WeakMap<ToolSession, Set<string>>();

async function search(request: GrepRequest, session: ToolSession, signal: AbortSignal): Promise<GrepRaw> {
  const large = largeRoots.get(session) ?? new Set<string>();
  largeRoots.set(session, large);
  const knownLarge = [...large].some((root) => request.root === root || request.root.startsWith(`${root}/`));
  const maxFiles = session.limits.grepInProcessMaxFiles;
  if (maxFiles > 0 && enginesAgree(request) && !knownLarge) {
    const small = await grepSmallTree(request, signal, { ...SMALL_TREE, files: maxFiles });
    if (small) return small;
    large.add(request.root);
  }
  // Looked up only now: a small tree is searched in process either way.
  const rg = Bun.which("rg", { PATH: session.env.PATH ?? "" });
  if (!rg) return grepWithJs(request, signal);
  return grepWithRipgrep(rg, request, session.env, signal);
}

/**
 * Patterns both engines read the same way: ASCII literals with the plain operators (`. * + ? ^ $
 * | ( )`) and escaped punctuation, case-sensitive, line by line. Classes, counted repetition,
 * `\w`-style escapes (Unicode in Rust, ASCII in JS), inline flags, look-around and case folding
 * differ between Rust's regex and JavaScript's, so those always go to ripgrep when it is there.
 */
export function enginesAgree(request: Pick<GrepRequest, "pattern" | "ignoreCase" | "multiline">): boolean {
  if (request.ignoreCase || request.multiline) return false;
  return /^(?:[A-Za-z0-9_ \-.,:;'"/=<>!@#%&~^$*+?()|]|\\[.*+?()[\]{}|^$\\/-])*$/.test(request.pattern) && !request.pattern.includes("(?");
}

/** Files a Read deny rule covers never show up in results, not even as a match count. */
function hideDenied(raw: GrepRaw, denied: (path: string) => boolean): GrepRaw {
  switch (raw.mode) {
    case "files_with_matches":
      return { ...raw, files: raw.files.filter((path) => !denied(path)) };
    case "count":
      return { ...raw, counts: raw.counts.filter((entry) => !denied(entry.path)) };
    case "content": {
      const items: ContentItem[] = [];
      for (const item of raw.items) {
        if (item.kind === "line" && denied(item.path)) continue;
        const previous = items[items.length - 1];
        if (item.kind === "separator" && (!previous || previous.kind === "separator")) continue;
        items.push(item);
      }
      if (items[items.length - 1]?.kind === "separator") items.pop();
      return { ...raw, items };
    }
  }
}

function searchRoot(args: GrepInput, session: ToolSession): string {
  return args.path === undefined ? session.cwd : resolveToolPath(args.path, session);
}

function buildRequest(args: GrepInput, session: ToolSession): GrepRequest {
  const root = searchRoot(args, session);
  // One stat, synchronously: through the thread pool it cost a round-trip longer than a small search.
  let rootStat: Stats;
  try {
    rootStat = statSync(root);
  } catch (error) {
    if (isMissing(error)) throw new ToolError(`Path does not exist: ${root}. Current working directory: ${session.cwd}.`, "tool_input");
    throw new ToolError(`Cannot search ${root}: ${error instanceof Error ? error.message : String(error)}`);
  }
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
