import { describe, expect, test } from "bun:test";
import { editNotebook, findCell, parseNotebook, type CellEdit } from "../../../src/tools/shared/notebook.ts";
import { ToolError } from "../../../src/util/errors.ts";
import { fixtureText, jupyterText, nbformatProblems } from "../../helpers/notebooks.ts";

const PATH = "/work/sales-analysis.ipynb";

function edit(text: string, change: CellEdit, id = "n3wce11") {
  return editNotebook(parseNotebook(text, PATH), change, () => id);
}

function thrown(run: () => unknown): ToolError {
  try {
    run();
  } catch (error) {
    if (error instanceof ToolError) return error;
    throw error;
  }
  throw new Error("expected a ToolError");
}

type Cell = Record<string, unknown>;
const fixture = () => JSON.parse(fixtureText()) as { cells: Cell[]; [key: string]: unknown };

describe("notebook parsing", () => {
  test("reads cells, format version and the kernel's language", () => {
    const notebook = parseNotebook(fixtureText(), PATH);
    expect(notebook.cells.map((cell) => [cell.id, cell.cell_type])).toEqual([
      ["intro", "markdown"],
      ["imports", "code"],
      ["load", "code"],
      ["plot-notes", "markdown"],
      ["plot", "code"],
      ["broken", "code"],
    ]);
    expect({ nbformat: notebook.nbformat, minor: notebook.nbformatMinor, language: notebook.language }).toEqual({ nbformat: 4, minor: 5, language: "python" });
  });

  test("a file that is not a notebook is an error naming the file and what is wrong", () => {
    expect(thrown(() => parseNotebook("{\"cells\": [", PATH)).message).toStartWith(`${PATH} is not a valid notebook: its JSON does not parse (`);
    expect(thrown(() => parseNotebook("[]", PATH)).message).toBe(`${PATH} is not a valid notebook: the file must hold a JSON object with a "cells" array.`);
    expect(thrown(() => parseNotebook('{"worksheets": [], "nbformat": 3}', PATH)).message).toContain("nbformat 3 notebook");
    expect(thrown(() => parseNotebook('{"cells": [{"source": "x"}]}', PATH)).message).toBe(`${PATH} is not a valid notebook: cells[0] is not a cell object with a "cell_type".`);
  });

  test("cells are found by their id, then by the cell-N index form", () => {
    const notebook = parseNotebook(fixtureText(), PATH);
    expect(["plot", "cell-0", "cell-5"].map((id) => findCell(notebook, id))).toEqual([4, 0, 5]);
    expect(thrown(() => findCell(notebook, "cell-6")).message).toBe(`Cell cell-6 does not exist in ${PATH}: it has 6 cells (cell-0 to cell-5).`);
    expect(thrown(() => findCell(notebook, "nope")).message).toContain('Cell "nope" not found');
  });

  test("an own id that looks like the index form wins over the index", () => {
    const text = jupyterText({ cells: [{ cell_type: "markdown", id: "a", metadata: {}, source: [] }, { cell_type: "markdown", id: "cell-0", metadata: {}, source: [] }], metadata: {}, nbformat: 4, nbformat_minor: 5 });
    expect(findCell(parseNotebook(text, PATH), "cell-0")).toBe(1);
  });
});

describe("notebook edits keep Jupyter's formatting and nbformat's rules", () => {
  test("replacing a code cell sets its source as lines and clears its outputs and count; the rest of the file is unchanged", () => {
    const result = edit(fixtureText(), { mode: "replace", cellId: "load", source: "df = pd.read_csv('sales.csv')\ndf.describe()\n" });
    const expected = fixture();
    Object.assign(expected.cells[2] as Cell, { source: ["df = pd.read_csv('sales.csv')\n", "df.describe()\n"], outputs: [], execution_count: null });
    expect(result.text).toBe(jupyterText(expected));
    expect({ cellId: result.cellId, cellType: result.cellType, before: result.before, cellCount: result.cellCount }).toEqual({
      cellId: "load",
      cellType: "code",
      before: "df = pd.read_csv('sales.csv')\nprint(df.shape)\ndf.head(2)",
      cellCount: 6,
    });
    expect(nbformatProblems(result.text)).toEqual([]);
  });

  test("insert puts the new cell after the named one, with a fresh id and sorted keys", () => {
    const result = edit(fixtureText(), { mode: "insert", cellId: "plot", source: "ax.set_title('Revenue')", cellType: "code" });
    const expected = fixture();
    expected.cells.splice(5, 0, { cell_type: "code", execution_count: null, id: "n3wce11", metadata: {}, outputs: [], source: ["ax.set_title('Revenue')"] });
    expect(result.text).toBe(jupyterText(expected));
    expect(result.cellId).toBe("n3wce11");
    expect(nbformatProblems(result.text)).toEqual([]);
  });

  test("insert without a cell id puts a markdown cell first", () => {
    const result = edit(fixtureText(), { mode: "insert", source: "# Title\n\nIntro", cellType: "markdown" });
    const expected = fixture();
    expected.cells.unshift({ cell_type: "markdown", id: "n3wce11", metadata: {}, source: ["# Title\n", "\n", "Intro"] });
    expect(result.text).toBe(jupyterText(expected));
  });

  test("delete removes exactly one cell, named by id or index", () => {
    const expected = fixture();
    expected.cells.splice(3, 1);
    expect(edit(fixtureText(), { mode: "delete", cellId: "plot-notes", source: "" }).text).toBe(jupyterText(expected));
    expect(edit(fixtureText(), { mode: "delete", cellId: "cell-3", source: "" }).text).toBe(jupyterText(expected));
  });

  test("deleting the last cell leaves an empty cells array, and inserting into one lays it out as Jupyter does", () => {
    const one = jupyterText({ cells: [{ cell_type: "markdown", id: "only", metadata: {}, source: ["x"] }], metadata: {}, nbformat: 4, nbformat_minor: 5 });
    const empty = edit(one, { mode: "delete", cellId: "only", source: "" }).text;
    expect(empty).toBe(jupyterText({ cells: [], metadata: {}, nbformat: 4, nbformat_minor: 5 }));
    const refilled = edit(empty, { mode: "insert", source: "print(1)", cellType: "code" }).text;
    expect(refilled).toBe(jupyterText({ cells: [{ cell_type: "code", execution_count: null, id: "n3wce11", metadata: {}, outputs: [], source: ["print(1)"] }], metadata: {}, nbformat: 4, nbformat_minor: 5 }));
  });

  test("changing a cell's type adds or drops the fields nbformat requires or forbids", () => {
    const text = jupyterText({
      cells: [
        { attachments: { "a.png": { "image/png": "iVBORw0KGgo=" } }, cell_type: "markdown", id: "m", metadata: {}, source: ["![a](attachment:a.png)"] },
        { cell_type: "code", execution_count: 7, id: "c", metadata: { collapsed: false }, outputs: [{ name: "stdout", output_type: "stream", text: ["hi\n"] }], source: ["print('hi')"] },
      ],
      metadata: {},
      nbformat: 4,
      nbformat_minor: 5,
    });
    const toCode = JSON.parse(edit(text, { mode: "replace", cellId: "m", source: "1 + 1", cellType: "code" }).text) as { cells: Cell[] };
    expect(toCode.cells[0]).toEqual({ cell_type: "code", execution_count: null, id: "m", metadata: {}, outputs: [], source: ["1 + 1"] });
    expect(Object.keys(toCode.cells[0] as Cell)).toEqual(["cell_type", "execution_count", "id", "metadata", "outputs", "source"]);
    const toMarkdown = edit(text, { mode: "replace", cellId: "c", source: "Notes", cellType: "markdown" }).text;
    expect((JSON.parse(toMarkdown) as { cells: Cell[] }).cells[1]).toEqual({ cell_type: "markdown", id: "c", metadata: { collapsed: false }, source: ["Notes"] });
    expect(nbformatProblems(toMarkdown)).toEqual([]);
  });

  test("a notebook from before nbformat 4.5 gets no ids; the new cell is named by its index", () => {
    const text = jupyterText({ cells: [{ cell_type: "markdown", metadata: {}, source: ["a"] }, { cell_type: "markdown", metadata: {}, source: ["b"] }], metadata: {}, nbformat: 4, nbformat_minor: 2 });
    const result = edit(text, { mode: "insert", cellId: "cell-0", source: "between", cellType: "markdown" });
    expect(result.cellId).toBe("cell-1");
    expect((JSON.parse(result.text) as { cells: Cell[] }).cells).toEqual([
      { cell_type: "markdown", metadata: {}, source: ["a"] },
      { cell_type: "markdown", metadata: {}, source: ["between"] },
      { cell_type: "markdown", metadata: {}, source: ["b"] },
    ]);
    expect(nbformatProblems(result.text)).toEqual([]);
  });

  test("bytes JavaScript would print differently (floats, escapes, key order) survive in cells that were not edited", () => {
    const text = [
      "{",
      ' "cells": [',
      "  {",
      '   "source": "keep\\u00e9 1.50",',
      '   "metadata": {"scale": 1.0, "ratio": 2.50e1},',
      '   "cell_type": "markdown"',
      "  },",
      '  {"cell_type": "markdown", "id": "x", "metadata": {}, "source": "old"}',
      " ],",
      ' "metadata": {"version": 3.10},',
      ' "nbformat": 4,',
      ' "nbformat_minor": 4',
      "}",
      "",
    ].join("\n");
    const result = edit(text, { mode: "replace", cellId: "x", source: "new", cellType: "markdown" });
    const lines = text.split("\n");
    lines.splice(7, 1, '  {\n   "cell_type": "markdown",\n   "id": "x",\n   "metadata": {},\n   "source": "new"\n  }');
    expect(result.text).toBe(lines.join("\n"));
  });

  test("a notebook written on one line stays on one line; a CRLF notebook keeps CRLF", () => {
    const compact = JSON.stringify({ cells: [{ cell_type: "markdown", id: "a", metadata: {}, source: "x" }], metadata: {}, nbformat: 4, nbformat_minor: 5 });
    const inserted = edit(compact, { mode: "insert", cellId: "a", source: "y", cellType: "markdown" }).text;
    expect(inserted).toBe(JSON.stringify({ cells: [{ cell_type: "markdown", id: "a", metadata: {}, source: "x" }, { cell_type: "markdown", id: "n3wce11", metadata: {}, source: "y" }], metadata: {}, nbformat: 4, nbformat_minor: 5 }));
    const crlf = jupyterText({ cells: [{ cell_type: "markdown", id: "a", metadata: {}, source: ["x"] }], metadata: {}, nbformat: 4, nbformat_minor: 5 }).replaceAll("\n", "\r\n");
    const replaced = edit(crlf, { mode: "replace", cellId: "a", source: "z" }).text;
    expect(replaced).toBe(jupyterText({ cells: [{ cell_type: "markdown", id: "a", metadata: {}, source: ["z"] }], metadata: {}, nbformat: 4, nbformat_minor: 5 }).replaceAll("\n", "\r\n"));
  });

  test("a cell stored as one string keeps that form when replaced", () => {
    const text = jupyterText({ cells: [{ cell_type: "code", execution_count: 1, id: "s", metadata: {}, outputs: [], source: "a = 1\nb = 2" }], metadata: {}, nbformat: 4, nbformat_minor: 5 });
    const result = JSON.parse(edit(text, { mode: "replace", cellId: "s", source: "a = 3\nb = 4" }).text) as { cells: Cell[] };
    expect(result.cells[0]?.source).toBe("a = 3\nb = 4");
  });

  test("replace and delete without a cell id are refused", () => {
    expect(thrown(() => edit(fixtureText(), { mode: "delete", source: "" })).message).toBe("cell_id is required to delete a cell.");
  });
});
