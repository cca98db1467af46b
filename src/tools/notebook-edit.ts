import { readFileSync } from "node:fs";
import { extname } from "node:path";
import type { z } from "zod";
import { lazySchema } from "../util/lazy-schema.ts";
import { ToolError } from "../util/errors.ts";
import { writeFileAtomic } from "../util/atomic-write.ts";
import { checkBeforeChange, rememberWritten } from "./shared/freshness.ts";
import { editNotebook, parseNotebook, type CellEditResult } from "./shared/notebook.ts";
import { fsToolError, missingFileError, resolveToolPath } from "./shared/paths.ts";
import { diffDisplay } from "./shared/unified-diff.ts";
import { defineTool } from "./types.ts";
import description from "./notebook-edit.md" with { type: "text" };

// Claude Code's input schema: the same names, optional fields and enums.
const input = lazySchema((z) =>
  z
    .object({
      notebook_path: z.string().describe("Absolute path of the notebook"),
      cell_id: z.string().optional(),
      new_source: z.string().describe("New cell source"),
      cell_type: z.enum(["code", "markdown"]).optional(),
      edit_mode: z.enum(["replace", "insert", "delete"]).optional().describe("Default replace"),
    })
    .superRefine((args, context) => {
      const mode = args.edit_mode ?? "replace";
      if (mode === "insert" && args.cell_type === undefined) {
        context.addIssue({ code: "custom", path: ["cell_type"], message: "cell_type is required when edit_mode is insert (code or markdown)" });
      }
      if (mode !== "insert" && args.cell_id === undefined) {
        context.addIssue({ code: "custom", path: ["cell_id"], message: `cell_id is required when edit_mode is ${mode}` });
      }
    }),
);

type NotebookEditInput = z.infer<ReturnType<typeof input>>;

/** As Claude Code's tool result (`toolUseResult`), without copies of the whole file. */
export interface NotebookEditData {
  notebook_path: string;
  cell_id: string;
  new_source: string;
  cell_type: string;
  language: string;
  edit_mode: "replace" | "insert" | "delete";
}

export const notebookEditTool = defineTool({
  name: "NotebookEdit",
  description,
  get input() {
    return input();
  },
  access: "write",
  subject: (args, session) => resolveToolPath(args.notebook_path, session),
  async run(args, { session }) {
    const absPath = resolveToolPath(args.notebook_path, session);
    if (extname(absPath).toLowerCase() !== ".ipynb") {
      throw new ToolError(`${absPath} is not a Jupyter notebook (.ipynb file). To change other files, use Edit or Write.`);
    }
    const existing = await checkBeforeChange(absPath, session, "editing");
    if (!existing) throw await missingFileError(absPath, session);
    try {
      const notebook = parseNotebook(new TextDecoder().decode(readFileSync(existing.target)), absPath);
      const mode = args.edit_mode ?? "replace";
      const result = editNotebook(notebook, { mode, cellId: args.cell_id, source: args.new_source, cellType: args.cell_type }, randomCellId);
      await writeFileAtomic(existing.target, result.text, existing.mode);
      await rememberWritten(session, absPath);
      const data: NotebookEditData = {
        notebook_path: absPath,
        cell_id: result.cellId,
        new_source: args.new_source,
        cell_type: result.cellType,
        language: notebook.language,
        edit_mode: mode,
      };
      const after = mode === "delete" ? "" : args.new_source;
      return {
        content: resultText(args, result, absPath),
        display: diffDisplay(`${absPath}#${result.cellId}`, result.before, after, () => `${verb(mode)} cell ${result.cellId} in ${absPath}`),
        data,
      };
    } catch (error) {
      throw fsToolError(error, absPath, "write") ?? error;
    }
  },
});

function verb(mode: NotebookEditInput["edit_mode"]): string {
  return mode === "insert" ? "Inserted" : mode === "delete" ? "Deleted" : "Replaced";
}

function resultText(args: NotebookEditInput, result: CellEditResult, absPath: string): string {
  const cells = `${result.cellCount} ${result.cellCount === 1 ? "cell" : "cells"}`;
  switch (args.edit_mode ?? "replace") {
    case "insert": {
      const where = args.cell_id === undefined ? "at the start" : `after cell ${args.cell_id}`;
      return `Inserted ${result.cellType} cell ${result.cellId} ${where} in ${absPath} (now ${cells}).`;
    }
    case "delete":
      return `Deleted cell ${result.cellId} from ${absPath} (now ${cells}).`;
    case "replace":
      return `Replaced the source of cell ${result.cellId} in ${absPath}${result.cellType === "code" ? "; its outputs were cleared" : ""}.`;
  }
}

/** Eight hex digits, as nbformat makes them, unused in this notebook. */
function randomCellId(taken: ReadonlySet<string>): string {
  for (;;) {
    const id = Array.from(crypto.getRandomValues(new Uint8Array(4)), (byte) => byte.toString(16).padStart(2, "0")).join("");
    if (!taken.has(id)) return id;
  }
}
