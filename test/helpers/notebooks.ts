// Notebook and image helpers for the NotebookEdit and Read tests: Jupyter's own serialization,
// a check of the nbformat 4 rules a validator would apply, and real PNG files made on the spot.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { deflateSync } from "node:zlib";

export const FIXTURE_NOTEBOOK = join(import.meta.dir, "../fixtures/notebooks/sales-analysis.ipynb");

export function fixtureText(): string {
  return readFileSync(FIXTURE_NOTEBOOK, "utf8");
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function sortDeep(value: Json): Json {
  if (Array.isArray(value)) return value.map(sortDeep);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortDeep(value[key] as Json)]));
}

/**
 * What Jupyter writes: `json.dumps(nb, sort_keys=True, indent=1, ensure_ascii=False)` and a final
 * newline. For values without floats JavaScript's JSON.stringify prints the same characters.
 */
export function jupyterText(notebook: unknown): string {
  return `${JSON.stringify(sortDeep(notebook as Json), null, 1)}\n`;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const CELL_KEYS: Record<string, { required: string[]; allowed: string[] }> = {
  code: { required: ["cell_type", "metadata", "source", "outputs", "execution_count"], allowed: ["id"] },
  markdown: { required: ["cell_type", "metadata", "source"], allowed: ["id", "attachments"] },
  raw: { required: ["cell_type", "metadata", "source"], allowed: ["id", "attachments"] },
};

const OUTPUT_KEYS: Record<string, string[]> = {
  stream: ["output_type", "name", "text"],
  display_data: ["output_type", "data", "metadata"],
  execute_result: ["output_type", "data", "metadata", "execution_count"],
  error: ["output_type", "ename", "evalue", "traceback"],
};

const isMultiline = (value: unknown) => typeof value === "string" || (Array.isArray(value) && value.every((line) => typeof line === "string"));

/**
 * The nbformat 4 schema's rules (required and allowed keys per cell and output type, id pattern,
 * execution counts) plus nbformat's unique-id check; ids are required from 4.5 on. Each problem
 * is a sentence naming the place.
 */
export function nbformatProblems(text: string): string[] {
  const problems: string[] = [];
  let notebook: unknown;
  try {
    notebook = JSON.parse(text);
  } catch (error) {
    return [`not JSON: ${String(error)}`];
  }
  if (!isRecord(notebook)) return ["the notebook is not an object"];
  const extra = Object.keys(notebook).filter((key) => !["cells", "metadata", "nbformat", "nbformat_minor"].includes(key));
  if (extra.length > 0) problems.push(`unexpected top-level keys ${extra.join(", ")}`);
  if (notebook.nbformat !== 4) problems.push("nbformat must be 4");
  if (!Number.isInteger(notebook.nbformat_minor)) problems.push("nbformat_minor must be an integer");
  if (!isRecord(notebook.metadata)) problems.push("metadata must be an object");
  if (!Array.isArray(notebook.cells)) return [...problems, "cells must be an array"];
  const idsRequired = typeof notebook.nbformat_minor === "number" && notebook.nbformat_minor >= 5;
  const seen = new Set<string>();
  notebook.cells.forEach((cell, i) => {
    const where = `cells[${i}]`;
    if (!isRecord(cell)) return problems.push(`${where} is not an object`);
    const rules = CELL_KEYS[String(cell.cell_type)];
    if (!rules) return problems.push(`${where}: unknown cell_type ${String(cell.cell_type)}`);
    const required = idsRequired ? [...rules.required, "id"] : rules.required;
    for (const key of required) if (!(key in cell)) problems.push(`${where}: missing ${key}`);
    for (const key of Object.keys(cell)) if (!required.includes(key) && !rules.allowed.includes(key)) problems.push(`${where}: ${key} is not allowed on a ${String(cell.cell_type)} cell`);
    if ("id" in cell) {
      if (typeof cell.id !== "string" || !/^[a-zA-Z0-9-_]{1,64}$/.test(cell.id)) problems.push(`${where}: bad id ${JSON.stringify(cell.id)}`);
      else if (seen.has(cell.id)) problems.push(`${where}: duplicate id ${cell.id}`);
      else seen.add(cell.id);
    }
    if (!isRecord(cell.metadata)) problems.push(`${where}: metadata must be an object`);
    if (!isMultiline(cell.source)) problems.push(`${where}: source must be a string or an array of strings`);
    if (cell.cell_type !== "code") return;
    if (!(cell.execution_count === null || (Number.isInteger(cell.execution_count) && Number(cell.execution_count) >= 0))) problems.push(`${where}: bad execution_count`);
    if (!Array.isArray(cell.outputs)) return problems.push(`${where}: outputs must be an array`);
    cell.outputs.forEach((output, j) => {
      const at = `${where}.outputs[${j}]`;
      if (!isRecord(output)) return problems.push(`${at} is not an object`);
      const keys = OUTPUT_KEYS[String(output.output_type)];
      if (!keys) return;
      for (const key of keys) if (!(key in output)) problems.push(`${at}: missing ${key}`);
      for (const key of Object.keys(output)) if (!keys.includes(key)) problems.push(`${at}: ${key} is not allowed`);
    });
  });
  return problems;
}

/** A real, decodable PNG of the given size (RGB, one gradient). */
export function pngBytes(width: number, height: number): Buffer {
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set([(x * 37) % 256, 90, 200], 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(Bun.hash.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
