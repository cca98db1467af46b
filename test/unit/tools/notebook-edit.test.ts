import { describe, expect, test } from "bun:test";
import { copyFileSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inputJsonSchema } from "../../../src/app/input-schema.ts";
import { notebookEditTool } from "../../../src/tools/notebook-edit.ts";
import { readTool } from "../../../src/tools/read.ts";
import type { ToolSession } from "../../../src/tools/types.ts";
import { ToolError } from "../../../src/util/errors.ts";
import { FIXTURE_NOTEBOOK, fixtureText, jupyterText, nbformatProblems } from "../../helpers/notebooks.ts";
import { runTool, tempDir, toolSession } from "../../helpers/tool-session.ts";

type Cell = Record<string, unknown>;

async function editError(input: unknown, session: ToolSession): Promise<ToolError> {
  const error = await runTool(notebookEditTool, input, session).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof ToolError)) throw new Error(`expected a ToolError, got ${String(error)}`);
  expect(error.code).toBe("tool_failed");
  return error;
}

function copyFixture(): { dir: string; file: string; session: ToolSession } {
  const dir = tempDir();
  const file = join(dir, "sales-analysis.ipynb");
  copyFileSync(FIXTURE_NOTEBOOK, file);
  return { dir, file, session: toolSession(dir) };
}

async function readFixture(): Promise<{ dir: string; file: string; session: ToolSession }> {
  const copy = copyFixture();
  await runTool(readTool, { file_path: copy.file }, copy.session);
  return copy;
}

const fixture = () => JSON.parse(fixtureText()) as { cells: Cell[] };

describe("NotebookEdit", () => {
  test("offers Claude Code's input schema", () => {
    expect(inputJsonSchema(notebookEditTool)).toEqual({
      type: "object",
      properties: {
        notebook_path: { type: "string", description: "Absolute path of the notebook" },
        cell_id: { type: "string" },
        new_source: { type: "string", description: "New cell source" },
        cell_type: { type: "string", enum: ["code", "markdown"] },
        edit_mode: { type: "string", enum: ["replace", "insert", "delete"], description: "Default replace" },
      },
      required: ["notebook_path", "new_source"],
    });
    expect({ access: notebookEditTool.access, subject: notebookEditTool.subject({ notebook_path: "nb/a.ipynb", new_source: "" }, toolSession("/work")) }).toEqual({ access: "write", subject: "/work/nb/a.ipynb" });
  });

  test("the schema asks for cell_type on insert and cell_id on replace and delete", () => {
    const issues = (input: unknown) => {
      const parsed = notebookEditTool.input.safeParse(input);
      return parsed.success ? [] : parsed.error.issues.map((issue) => [issue.path.join("."), issue.message]);
    };
    expect(issues({ notebook_path: "/a.ipynb", new_source: "x", edit_mode: "insert" })).toEqual([["cell_type", "cell_type is required when edit_mode is insert (code or markdown)"]]);
    expect(issues({ notebook_path: "/a.ipynb", new_source: "x" })).toEqual([["cell_id", "cell_id is required when edit_mode is replace"]]);
    expect(issues({ notebook_path: "/a.ipynb", new_source: "", edit_mode: "delete" })).toEqual([["cell_id", "cell_id is required when edit_mode is delete"]]);
    expect(issues({ notebook_path: "/a.ipynb", new_source: "x", edit_mode: "insert", cell_type: "markdown" })).toEqual([]);
  });

  test("refuses a notebook that was not read in this session, and leaves it alone", async () => {
    const { file, session } = copyFixture();
    const error = await editError({ notebook_path: file, cell_id: "load", new_source: "pass" }, session);
    expect(error.message).toBe(`File has not been read yet. Read it first before editing it: ${file}`);
    expect(readFileSync(file, "utf8")).toBe(fixtureText());
  });

  test("refuses a notebook that changed on disk after it was read", async () => {
    const { file, session } = await readFixture();
    writeFileSync(file, fixtureText().replace("Sales analysis", "Sales analysis (draft)"));
    utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    const error = await editError({ notebook_path: file, cell_id: "load", new_source: "pass" }, session);
    expect(error.message).toContain(`File ${file} has been modified since it was read`);
  });

  test("replaces a cell, clears its outputs, and reports what changed", async () => {
    const { file, session } = await readFixture();
    const output = await runTool(notebookEditTool, { notebook_path: file, cell_id: "load", new_source: "df = pd.read_csv('sales.csv')\ndf.describe()" }, session);
    expect({ content: output.content, summary: output.display?.summary, data: output.data }).toEqual({
      content: `Replaced the source of cell load in ${file}; its outputs were cleared.`,
      summary: `Replaced cell load in ${file}`,
      data: {
        notebook_path: file,
        cell_id: "load",
        new_source: "df = pd.read_csv('sales.csv')\ndf.describe()",
        cell_type: "code",
        language: "python",
        edit_mode: "replace",
      },
    });
    expect(output.display?.diff).toContain("-print(df.shape)\n-df.head(2)\n+df.describe()");
    const expected = fixture();
    Object.assign(expected.cells[2] as Cell, { source: ["df = pd.read_csv('sales.csv')\n", "df.describe()"], outputs: [], execution_count: null });
    expect(readFileSync(file, "utf8")).toBe(jupyterText(expected));
  });

  test("edits in a row need no new Read: clew's own write counts as seen", async () => {
    const { file, session } = await readFixture();
    await runTool(notebookEditTool, { notebook_path: file, cell_id: "plot", new_source: "## Chart", edit_mode: "insert", cell_type: "markdown" }, session);
    const inserted = JSON.parse(readFileSync(file, "utf8")) as { cells: Cell[] };
    const newId = String(inserted.cells[5]?.id);
    expect(newId).toMatch(/^[0-9a-f]{8}$/);
    const output = await runTool(notebookEditTool, { notebook_path: file, cell_id: "broken", new_source: "", edit_mode: "delete" }, session);
    expect(output.content).toBe(`Deleted cell broken from ${file} (now 6 cells).`);
    const expected = fixture();
    expected.cells.splice(5, 1, { cell_type: "markdown", id: newId, metadata: {}, source: ["## Chart"] });
    const text = readFileSync(file, "utf8");
    expect(text).toBe(jupyterText(expected));
    expect(nbformatProblems(text)).toEqual([]);
  });

  test("an insert reports the new cell's id", async () => {
    const { file, session } = await readFixture();
    const output = await runTool(notebookEditTool, { notebook_path: file, new_source: "import numpy as np", edit_mode: "insert", cell_type: "code" }, session);
    const first = (JSON.parse(readFileSync(file, "utf8")) as { cells: Cell[] }).cells[0];
    expect(output.content).toBe(`Inserted code cell ${String(first?.id)} at the start in ${file} (now 7 cells).`);
    expect(first).toEqual({ cell_type: "code", execution_count: null, id: first?.id, metadata: {}, outputs: [], source: ["import numpy as np"] });
  });

  test("a cell that does not exist is an error the model can act on", async () => {
    const { file, session } = await readFixture();
    expect((await editError({ notebook_path: file, cell_id: "cell-9", new_source: "x" }, session)).message).toBe(`Cell cell-9 does not exist in ${file}: it has 6 cells (cell-0 to cell-5).`);
    expect(readFileSync(file, "utf8")).toBe(fixtureText());
  });

  test("only notebooks, and only existing ones", async () => {
    const dir = tempDir();
    const session = toolSession(dir);
    writeFileSync(join(dir, "notes.md"), "# notes\n");
    await runTool(readTool, { file_path: join(dir, "notes.md") }, session);
    expect((await editError({ notebook_path: join(dir, "notes.md"), cell_id: "cell-0", new_source: "x" }, session)).message).toBe(
      `${join(dir, "notes.md")} is not a Jupyter notebook (.ipynb file). To change other files, use Edit or Write.`,
    );
    expect((await editError({ notebook_path: join(dir, "missing.ipynb"), new_source: "x", edit_mode: "insert", cell_type: "code" }, session)).message).toStartWith(
      `File does not exist: ${join(dir, "missing.ipynb")}.`,
    );
  });

  test("a notebook whose JSON is broken is refused with the reason, after Read showed it as text", async () => {
    const dir = tempDir();
    const file = join(dir, "conflict.ipynb");
    const text = '{\n "cells": [\n<<<<<<< HEAD\n ]\n}\n';
    writeFileSync(file, text);
    const session = toolSession(dir);
    const read = await runTool(readTool, { file_path: file }, session);
    expect(String(read.content)).toStartWith(`${file} is not a valid notebook: its JSON does not parse (`);
    expect(String(read.content)).toContain("Its text follows.\n\n     1\t{\n     2\t \"cells\": [\n     3\t<<<<<<< HEAD");
    const error = await editError({ notebook_path: file, cell_id: "cell-0", new_source: "x" }, session);
    expect(error.message).toStartWith(`${file} is not a valid notebook: its JSON does not parse (`);
    expect(readFileSync(file, "utf8")).toBe(text);
  });
});
