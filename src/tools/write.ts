import { readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import type { z } from "zod";
import { lazySchema } from "../util/lazy-schema.ts";
import { writeFileAtomic } from "../util/atomic-write.ts";
import { checkBeforeChange, rememberWritten } from "./shared/freshness.ts";
import { fsToolError, resolveToolPath } from "./shared/paths.ts";
import { diffDisplay } from "./shared/unified-diff.ts";
import { defineTool } from "./types.ts";
import description from "./write.md" with { type: "text" };

const input = lazySchema((z) =>
  z.object({
    file_path: z.string().describe("Absolute path of the file"),
    content: z.string().describe("The complete file content"),
  }),
);

export interface WriteData {
  type: "create" | "update";
  filePath: string;
  content: string;
}

/** Beyond this many characters (before + after) the UI gets a summary without a diff. */
const MAX_DIFF_CHARS = 4_000_000;

export const writeTool = defineTool({
  name: "Write",
  description,
  get input() {
    return input();
  },
  access: "write",
  subject: (args, session) => resolveToolPath(args.file_path, session),
  async run(args, { session }) {
    const absPath = resolveToolPath(args.file_path, session);
    const existing = await checkBeforeChange(absPath, session, "writing to");
    try {
      if (!existing) await mkdir(dirname(absPath), { recursive: true });
      const before = existing ? readFileSync(existing.target, "utf8") : undefined;
      await writeFileAtomic(existing?.target ?? absPath, args.content, existing?.mode);
      await rememberWritten(session, absPath);

      if (before === undefined) {
        const lines = countLines(args.content);
        const data: WriteData = { type: "create", filePath: absPath, content: args.content };
        return {
          content: `File created successfully at: ${absPath}`,
          display: { summary: `Wrote ${lines} ${lines === 1 ? "line" : "lines"} to ${absPath}` },
          data,
        };
      }
      const data: WriteData = { type: "update", filePath: absPath, content: args.content };
      const showDiff = before.length + args.content.length <= MAX_DIFF_CHARS;
      return {
        content: `The file ${absPath} has been updated successfully.`,
        display: showDiff
          ? diffDisplay(absPath, before, args.content, (change) => `Updated ${absPath} (+${change.added} -${change.removed})`)
          : { summary: `Updated ${absPath}` },
        data,
      };
    } catch (error) {
      throw fsToolError(error, absPath, "write") ?? error;
    }
  },
});

export function countLines(text: string): number {
  if (text === "") return 0;
  const newlines = text.split("\n").length - 1;
  return text.endsWith("\n") ? newlines : newlines + 1;
}
