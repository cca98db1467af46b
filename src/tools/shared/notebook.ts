/**
 * Jupyter notebooks (nbformat 4) as Read shows them and NotebookEdit changes them. An edit is
 * spliced into the file's own text: the cells it does not touch, the metadata and every byte
 * around the cells array stay as they were, and only the changed cell is serialized again, in the
 * file's indentation (Jupyter writes one space per level and sorted keys). So a one-cell edit is a
 * one-cell diff, whatever produced the notebook.
 */
import { ToolError } from "../../util/errors.ts";

export type EditableCellType = "code" | "markdown";

export interface NotebookCell {
  cell_type: string;
  [key: string]: unknown;
}

export interface Notebook {
  readonly path: string;
  /** The file's text as read. */
  readonly text: string;
  readonly cells: readonly NotebookCell[];
  readonly nbformat: number;
  readonly nbformatMinor: number;
  /** The kernel's language (`metadata.language_info.name`), "python" when the file doesn't say. */
  readonly language: string;
}

export interface CellEdit {
  mode: "replace" | "insert" | "delete";
  cellId?: string;
  source: string;
  cellType?: EditableCellType;
}

export interface CellEditResult {
  /** The new file text. */
  text: string;
  /** The edited, inserted or deleted cell's id (`cell-N` for a notebook without ids). */
  cellId: string;
  cellType: string;
  /** The cell's source before the edit (empty for an insert). */
  before: string;
  cellCount: number;
}

type Jsonc = typeof import("jsonc-parser");
let jsonc: Jsonc | undefined;

function parser(): Jsonc {
  // The ES module build: the UMD one (what a bare require resolves to) loads its parts dynamically.
  jsonc ??= require("jsonc-parser/lib/esm/main.js") as Jsonc;
  return jsonc;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Parses a notebook; a file that isn't one gets a ToolError naming the file and what is wrong. */
export function parseNotebook(text: string, path: string): Notebook {
  let value: unknown;
  try {
    value = JSON.parse(text.startsWith("\uFEFF") ? text.slice(1) : text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ToolError(`${path} is not a valid notebook: its JSON does not parse (${reason}). Read it as text with Bash (for example \`head -c 2000\`) to see what is wrong.`);
  }
  if (!isRecord(value)) throw new ToolError(`${path} is not a valid notebook: the file must hold a JSON object with a "cells" array.`);
  if (!Array.isArray(value.cells)) {
    const old = Array.isArray(value.worksheets) ? " It looks like an nbformat 3 notebook; convert it with `jupyter nbconvert --to notebook` first." : "";
    throw new ToolError(`${path} is not a valid notebook: it has no "cells" array.${old}`);
  }
  const cells = value.cells.map((cell, index) => {
    if (!isRecord(cell) || typeof cell.cell_type !== "string") {
      throw new ToolError(`${path} is not a valid notebook: cells[${index}] is not a cell object with a "cell_type".`);
    }
    return cell as NotebookCell;
  });
  const metadata = isRecord(value.metadata) ? value.metadata : {};
  const languageInfo = isRecord(metadata.language_info) ? metadata.language_info : {};
  const kernelspec = isRecord(metadata.kernelspec) ? metadata.kernelspec : {};
  const language = typeof languageInfo.name === "string" ? languageInfo.name : typeof kernelspec.language === "string" ? kernelspec.language : "python";
  return {
    path,
    text,
    cells,
    nbformat: typeof value.nbformat === "number" ? value.nbformat : 4,
    nbformatMinor: typeof value.nbformat_minor === "number" ? value.nbformat_minor : 0,
    language,
  };
}

/** A multiline string as nbformat stores it: a string, or an array of lines to join. */
export function joinLines(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.filter((line): line is string => typeof line === "string").join("");
  return "";
}

/** The id Read shows and NotebookEdit accepts: the nbformat 4.5 `id`, else `cell-N` by index. */
export function cellIdOf(cell: NotebookCell, index: number): string {
  return typeof cell.id === "string" && cell.id !== "" ? cell.id : `cell-${index}`;
}

/** The index of the cell `cellId` names: its own id first, then the `cell-N` index form. */
export function findCell(notebook: Notebook, cellId: string): number {
  const byId = notebook.cells.findIndex((cell) => cell.id === cellId);
  if (byId !== -1) return byId;
  const indexed = /^cell-(\d+)$/.exec(cellId);
  if (indexed) {
    const index = Number(indexed[1]);
    if (index < notebook.cells.length) return index;
    const count = notebook.cells.length;
    throw new ToolError(`Cell ${cellId} does not exist in ${notebook.path}: it has ${count} ${count === 1 ? "cell" : "cells"}${count > 0 ? ` (cell-0 to cell-${count - 1})` : ""}.`);
  }
  throw new ToolError(`Cell "${cellId}" not found in ${notebook.path}. Use an id from Read's <cell id="…"> output; cell-N names the cell at 0-based index N.`);
}

/** nbformat 4.5 made cell ids required; older notebooks have none and must not gain any. */
function usesCellIds(notebook: Notebook): boolean {
  return notebook.nbformat > 4 || (notebook.nbformat === 4 && notebook.nbformatMinor >= 5);
}

/** Applies one NotebookEdit and returns the new file text. `newId` makes ids for inserted cells. */
export function editNotebook(notebook: Notebook, edit: CellEdit, newId: (taken: ReadonlySet<string>) => string): CellEditResult {
  const cells = [...notebook.cells];
  let result: Omit<CellEditResult, "text" | "cellCount">;
  if (edit.mode === "insert") {
    const at = edit.cellId === undefined ? 0 : findCell(notebook, edit.cellId) + 1;
    const cellType = edit.cellType ?? "code";
    const taken = new Set(cells.flatMap((cell) => (typeof cell.id === "string" ? [cell.id] : [])));
    const id = usesCellIds(notebook) ? newId(taken) : undefined;
    cells.splice(at, 0, newCell(cellType, sourceValue(edit.source, prefersLineArrays(cells)), id));
    result = { cellId: id ?? `cell-${at}`, cellType, before: "" };
  } else {
    if (edit.cellId === undefined) throw new ToolError(`cell_id is required to ${edit.mode} a cell.`);
    const index = findCell(notebook, edit.cellId);
    const cell = cells[index] as NotebookCell;
    const before = joinLines(cell.source);
    if (edit.mode === "delete") {
      cells.splice(index, 1);
      result = { cellId: cellIdOf(cell, index), cellType: cell.cell_type, before };
    } else {
      const replaced = replacedCell(cell, edit.source, edit.cellType ?? cell.cell_type);
      cells[index] = replaced;
      result = { cellId: cellIdOf(cell, index), cellType: replaced.cell_type, before };
    }
  }
  const text = spliceCells(notebook, cells);
  return { ...result, text, cellCount: cells.length };
}

function newCell(cellType: EditableCellType, source: string | string[], id: string | undefined): NotebookCell {
  // Keys in sorted order, as Jupyter writes them.
  const cell: NotebookCell = { cell_type: cellType };
  if (cellType === "code") cell.execution_count = null;
  if (id !== undefined) cell.id = id;
  cell.metadata = {};
  if (cellType === "code") cell.outputs = [];
  cell.source = source;
  return cell;
}

/** New source in the cell's own form; a code cell's outputs belong to the old source, so they go. */
function replacedCell(cell: NotebookCell, source: string, cellType: string): NotebookCell {
  const next: NotebookCell = { ...cell, cell_type: cellType, source: sourceValue(source, Array.isArray(cell.source) || cell.source === undefined) };
  if (cellType === "code") {
    next.execution_count = null;
    next.outputs = [];
    // nbformat allows attachments on markdown and raw cells only.
    delete next.attachments;
  } else {
    delete next.execution_count;
    delete next.outputs;
  }
  return keysSorted(cell) ? sortKeys(next) : next;
}

function keysSorted(cell: NotebookCell): boolean {
  const keys = Object.keys(cell);
  return keys.every((key, i) => i === 0 || (keys[i - 1] ?? "") < key);
}

function sortKeys(cell: NotebookCell): NotebookCell {
  return Object.fromEntries(Object.entries(cell).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) as NotebookCell;
}

/** Jupyter stores sources as arrays of lines; keep to whichever form most of this file's cells use. */
function prefersLineArrays(cells: readonly NotebookCell[]): boolean {
  const strings = cells.filter((cell) => typeof cell.source === "string").length;
  return strings * 2 <= cells.length;
}

function sourceValue(source: string, asLines: boolean): string | string[] {
  if (!asLines) return source;
  return source === "" ? [] : source.split(/(?<=\n)/);
}

interface CellsLayout {
  /** Offsets (in the file's text) of the cells array's `[` and `]`. */
  open: number;
  close: number;
  /** Each cell's [start, end) in the text. */
  spans: Array<[number, number]>;
  /** One level of indentation ("" for a file written on one line) and the line ending. */
  unit: string;
  eol: string;
}

/** Finds where the cells array and each cell sit in the text, without building a tree of the rest. */
function layoutOf(notebook: Notebook): CellsLayout {
  const offset = notebook.text.startsWith("\uFEFF") ? 1 : 0;
  const body = notebook.text.slice(offset);
  let depth = 0;
  let inCells = false;
  let open = -1;
  let close = -1;
  let cellStart = -1;
  const spans: Array<[number, number]> = [];
  // Depth counts open containers: the root object is 1, the cells array 2, each cell 3.
  parser().visit(body, {
    onObjectBegin(at) {
      depth += 1;
      if (!inCells || depth !== 3) return;
      cellStart = at;
      // A cell's insides are not needed: skip their callbacks (its end is still reported).
      return false;
    },
    onObjectEnd(at, length) {
      if (inCells && depth === 3) spans.push([cellStart + offset, at + length + offset]);
      depth -= 1;
    },
    onArrayBegin(at, _length, _line, _column, path) {
      depth += 1;
      if (open !== -1 || depth !== 2) return;
      const where = path();
      if (where.length === 1 && where[0] === "cells") {
        inCells = true;
        open = at + offset;
      }
    },
    onArrayEnd(at) {
      if (inCells && depth === 2) {
        inCells = false;
        close = at + offset;
      }
      depth -= 1;
    },
  });
  if (open === -1 || close === -1 || spans.length !== notebook.cells.length) {
    throw new ToolError(`${notebook.path}: could not locate its cells array to edit it in place. Check the file is plain notebook JSON.`);
  }
  const indent = /^\{(\r?\n)([ \t]+)"/.exec(body);
  return { open, close, spans, unit: indent?.[2] ?? "", eol: indent?.[1] ?? (body.includes("\r\n") ? "\r\n" : "\n") };
}

/** The file's text with `cells` in the cells array: cells kept from the file as their original bytes. */
function spliceCells(notebook: Notebook, cells: readonly NotebookCell[]): string {
  const layout = layoutOf(notebook);
  const { text } = notebook;
  const { spans, unit, eol } = layout;
  const pad = unit.repeat(2);
  const first = spans[0];
  const last = spans[spans.length - 1];
  const head = first ? text.slice(layout.open + 1, first[0]) : unit ? eol + pad : "";
  const tail = last ? text.slice(last[1], layout.close) : unit ? eol + unit : "";
  const second = spans[1];
  const separator = first && second ? text.slice(first[1], second[0]) : `,${head}`;
  const original = new Map(notebook.cells.map((cell, i) => [cell, spans[i] as [number, number]]));
  const items = cells.map((cell) => {
    const span = original.get(cell);
    if (span) return text.slice(span[0], span[1]);
    const json = unit ? JSON.stringify(cell, null, unit) : JSON.stringify(cell);
    return json.split("\n").join(eol + pad);
  });
  const array = items.length === 0 ? "[]" : `[${head}${items.join(separator)}${tail}]`;
  return text.slice(0, layout.open) + array + text.slice(layout.close + 1);
}
