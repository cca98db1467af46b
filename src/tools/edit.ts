import { readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import type { z } from "zod";
import { lazySchema } from "../util/lazy-schema.ts";
import { ToolError } from "../util/errors.ts";
import { writeFileAtomic } from "../util/atomic-write.ts";
import { checkBeforeChange, rememberWritten } from "./shared/freshness.ts";
import { fsToolError, missingFileError, resolveToolPath } from "./shared/paths.ts";
import { diffDisplay } from "./shared/unified-diff.ts";
import { defineTool, type ToolOutput } from "./types.ts";
import description from "./edit.md" with { type: "text" };

const input = lazySchema((z) =>
  z.object({
    file_path: z.string().describe("Absolute path of the file"),
    old_string: z.string().describe("Exact text to replace"),
    new_string: z.string().describe("Replacement text"),
    // Optional rather than .default(false): a default makes the field "required" in the derived JSON Schema.
    replace_all: z.boolean().optional().describe("Replace every occurrence (default false)"),
  }),
);

type EditInput = z.infer<ReturnType<typeof input>>;

export interface EditData {
  filePath: string;
  oldString: string;
  newString: string;
  replaceAll: boolean;
}

export const editTool = defineTool({
  name: "Edit",
  description,
  get input() {
    return input();
  },
  access: "write",
  subject: (args, session) => resolveToolPath(args.file_path, session),
  async run(args, { session }) {
    const absPath = resolveToolPath(args.file_path, session);
    if (args.old_string === args.new_string) {
      throw new ToolError("No changes to make: old_string and new_string are exactly the same.");
    }
    const existing = await checkBeforeChange(absPath, session, "editing");
    const data: EditData = {
      filePath: absPath,
      oldString: args.old_string,
      newString: args.new_string,
      replaceAll: args.replace_all ?? false,
    };
    try {
      if (!existing) {
        if (args.old_string !== "") throw await missingFileError(absPath, session);
        // Claude Code behaviour: an empty old_string on a missing file creates it.
        await mkdir(dirname(absPath), { recursive: true });
        await writeFileAtomic(absPath, args.new_string);
        await rememberWritten(session, absPath);
        return { content: `File created successfully at: ${absPath}`, display: { summary: `Created ${absPath}` }, data };
      }
      const original = decodeUtf8(readFileSync(existing.target), absPath);
      const { updated, replacements } = applyEdit(original, args, absPath);
      await writeFileAtomic(existing.target, updated, existing.mode);
      await rememberWritten(session, absPath);
      return editOutput(absPath, original, updated, replacements, data);
    } catch (error) {
      throw fsToolError(error, absPath, "write") ?? error;
    }
  },
});

function editOutput(absPath: string, original: string, updated: string, replacements: number, data: EditData): ToolOutput {
  const what = replacements > 1 ? ` (${replacements} occurrences replaced)` : "";
  return {
    content: `The file ${absPath} has been updated successfully${what}.`,
    display: diffDisplay(absPath, original, updated, (change) => `Edited ${absPath} (+${change.added} -${change.removed})`),
    data,
  };
}

function applyEdit(original: string, args: EditInput, absPath: string): { updated: string; replacements: number } {
  if (args.old_string === "") {
    if (original.trim() !== "") {
      throw new ToolError(
        `Cannot create ${absPath}: it already exists and is not empty. To change it, set old_string to the ` +
          "exact text to replace; to replace the whole file, use Write.",
      );
    }
    return { updated: args.new_string, replacements: 1 };
  }
  const { oldText, newText, count } = matchLineEndings(original, args.old_string, args.new_string);
  if (count === 0) {
    throw new ToolError(
      `String to replace not found in ${absPath}. Read the file again and copy the exact text into old_string, ` +
        "including whitespace and indentation, without the line-number prefix.",
    );
  }
  if (count > 1 && !args.replace_all) {
    throw new ToolError(
      `Found ${count} matches of old_string in ${absPath}, but replace_all is false. To replace one of them, ` +
        "include more surrounding lines in old_string so it matches exactly once; to replace every occurrence, " +
        "set replace_all to true.",
    );
  }
  // split/join and slicing insert newText literally; String.replace would expand `$&`, `$1`, … in it.
  if (args.replace_all) return { updated: original.split(oldText).join(newText), replacements: count };
  const at = original.indexOf(oldText);
  return { updated: original.slice(0, at) + newText + original.slice(at + oldText.length), replacements: 1 };
}

/**
 * Models usually send `\n` line endings whatever the file uses. For a file that mostly uses
 * CRLF, old_string and new_string are converted to CRLF, so the text matches and the lines
 * written keep the file's style (and the reverse for an LF file given CRLF). If the converted
 * text is not found, the strings are tried exactly as sent, for files with mixed endings.
 */
function matchLineEndings(content: string, oldString: string, newString: string): { oldText: string; newText: string; count: number } {
  const eol = dominantLineEnding(content);
  const candidates = [
    { oldText: withLineEnding(oldString, eol), newText: withLineEnding(newString, eol) },
    { oldText: oldString, newText: newString },
  ];
  for (const candidate of candidates) {
    const count = countOccurrences(content, candidate.oldText);
    if (count > 0) return { ...candidate, count };
  }
  return { oldText: oldString, newText: newString, count: 0 };
}

function dominantLineEnding(content: string): "\r\n" | "\n" {
  const crlf = content.split("\r\n").length - 1;
  const lf = content.split("\n").length - 1 - crlf;
  return crlf > lf ? "\r\n" : "\n";
}

function withLineEnding(text: string, eol: "\r\n" | "\n"): string {
  return eol === "\r\n" ? text.replace(/\r?\n/g, "\r\n") : text.replace(/\r\n/g, "\n");
}

function countOccurrences(content: string, needle: string): number {
  let count = 0;
  for (let at = content.indexOf(needle); at !== -1; at = content.indexOf(needle, at + needle.length)) count += 1;
  return count;
}

function decodeUtf8(bytes: Uint8Array, absPath: string): string {
  try {
    // ignoreBOM keeps a leading byte-order mark in the text, so the rewritten file keeps it too.
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new ToolError(
      `${absPath} is not valid UTF-8 text, so Edit can't change it without corrupting it. ` +
        "Use Bash with a tool that handles its encoding instead.",
    );
  }
}
