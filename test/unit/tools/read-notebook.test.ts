import { describe, expect, test } from "bun:test";
import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readTool } from "../../../src/tools/read.ts";
import { imageSize, MAX_IMAGE_BYTES } from "../../../src/tools/shared/image-limits.ts";
import { NOTEBOOK_MAX_CHARS, NOTEBOOK_MAX_IMAGES, OUTPUT_MAX_CHARS } from "../../../src/tools/shared/notebook-view.ts";
import type { ToolOutput } from "../../../src/tools/types.ts";
import { ToolError } from "../../../src/util/errors.ts";
import { FIXTURE_NOTEBOOK, fixtureText, jupyterText, pngBytes } from "../../helpers/notebooks.ts";
import { runTool, tempDir, toolSession } from "../../helpers/tool-session.ts";

const PLOT_PNG = (JSON.parse(fixtureText()) as { cells: Array<{ outputs?: Array<{ data?: Record<string, string> }> }> }).cells[4]?.outputs?.[0]?.data?.["image/png"]?.trim() ?? "";

function notebookFile(cells: unknown[], name = "nb.ipynb"): { file: string; dir: string } {
  const dir = tempDir();
  const file = join(dir, name);
  writeFileSync(file, jupyterText({ cells, metadata: {}, nbformat: 4, nbformat_minor: 5 }));
  return { file, dir };
}

async function read(file: string, dir: string): Promise<ToolOutput> {
  return runTool(readTool, { file_path: file }, toolSession(dir));
}

function code(id: string, source: string, outputs: unknown[]): Record<string, unknown> {
  return { cell_type: "code", execution_count: 1, id, metadata: {}, outputs, source };
}

const display = (data: Record<string, unknown>) => ({ data, metadata: {}, output_type: "display_data" });

async function readError(file: string, dir: string): Promise<ToolError> {
  const error = await read(file, dir).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof ToolError)) throw new Error(`expected a ToolError, got ${String(error)}`);
  return error;
}

describe("Read of a notebook", () => {
  test("shows every cell with its id and type, text outputs, and image outputs as image blocks", async () => {
    const dir = tempDir();
    const file = join(dir, "sales-analysis.ipynb");
    copyFileSync(FIXTURE_NOTEBOOK, file);
    const session = toolSession(dir);
    const output = await runTool(readTool, { file_path: file }, session);
    expect(output).toEqual({
      content: [
        {
          type: "text",
          text: [
            '<cell id="intro"><cell_type>markdown</cell_type># Sales analysis\n\nQuarterly revenue — by région, from `sales.csv`.</cell id="intro">',
            '<cell id="imports">import pandas as pd\nimport matplotlib.pyplot as plt</cell id="imports">',
            "<cell id=\"load\">df = pd.read_csv('sales.csv')\nprint(df.shape)\ndf.head(2)</cell id=\"load\">",
            "<output>(120, 4)\n</output>",
            "<output>  quarter  revenue\n0      Q1     1200\n1      Q2     1350</output>",
            '<cell id="plot-notes"><cell_type>markdown</cell_type>## Revenue by quarter</cell id="plot-notes">',
            "<cell id=\"plot\">fig, ax = plt.subplots()\ndf.groupby('quarter').revenue.sum().plot.bar(ax=ax)</cell id=\"plot\">",
          ].join("\n"),
        },
        { type: "image", source: { type: "base64", media_type: "image/png", data: PLOT_PNG } },
        {
          type: "text",
          text: [
            "<cell id=\"broken\">df['profit'].mean()</cell id=\"broken\">",
            "<output>---------------------------------------------------------------------------",
            "KeyError                                  Traceback (most recent call last)",
            "Cell In[4], line 1",
            "----> 1 df['profit'].mean()",
            "KeyError: 'profit'</output>",
          ].join("\n"),
        },
      ],
      display: { summary: "Read notebook (6 cells)" },
      data: { type: "notebook", file: { filePath: file, cellCount: 6, shownCells: 6, images: 1 } },
    });
    // Read counts as seeing the file, so NotebookEdit may change it.
    expect(session.files.lastSeen(file)?.size).toBe(fixtureText().length + 3 /* two-byte é and three-byte em dash */);
  });

  test("a long text output is cut in the middle with a marker", async () => {
    const long = `${"a".repeat(OUTPUT_MAX_CHARS)}${"z".repeat(OUTPUT_MAX_CHARS)}`;
    const { file, dir } = notebookFile([code("c", "print(s)", [{ name: "stdout", output_type: "stream", text: [long] }])]);
    const text = ((await read(file, dir)).content as Array<{ text: string }>)[0]?.text;
    const omitted = long.length - OUTPUT_MAX_CHARS;
    expect(text).toBe(`<cell id="c">print(s)</cell id="c">\n<output>${"a".repeat(6000)}\n\n... [${omitted} characters truncated] ...\n\n${"z".repeat(4000)}</output>`);
  });

  test("cells past the text budget are named, with a way to read them", async () => {
    const big = "x".repeat(30_000);
    const cells = Array.from({ length: 6 }, (_, i) => ({ cell_type: "markdown", id: `m${i}`, metadata: {}, source: big }));
    const { file, dir } = notebookFile(cells);
    const output = await read(file, dir);
    const text = (output.content as Array<{ text: string }>)[0]?.text ?? "";
    expect(text.length).toBeLessThanOrEqual(NOTEBOOK_MAX_CHARS + 300);
    expect(text).toEndWith(`[Cells 3–5 (3 of 6) not shown: the notebook is longer than one Read returns. Read them with Bash, for example \`jq '.cells[3:13]' ${file}\`; NotebookEdit takes cell-N (0-based index) as a cell_id.]`);
    expect(output.data).toEqual({ type: "notebook", file: { filePath: file, cellCount: 6, shownCells: 3, images: 0 } });
    expect(output.display).toEqual({ summary: "Read notebook (3 of 6 cells)" });
  });

  test("an image output over the API's limits becomes a note, the rest still shows", async () => {
    const wide = pngBytes(9000, 2).toString("base64");
    const { file, dir } = notebookFile([code("wide", "plot()", [display({ "image/png": wide, "text/plain": "<Figure>" })]), code("next", "1", [])]);
    const output = await read(file, dir);
    expect(output.content).toEqual([
      {
        type: "text",
        text: '<cell id="wide">plot()</cell id="wide">\n<output>[image/png output not shown: the image is 9000×2 px, larger than the 8000×8000 px the API accepts]</output>\n<cell id="next">1</cell id="next">',
      },
    ]);
  });

  test("image bytes decide the media type; data that is no image is named, not sent", async () => {
    const { file, dir } = notebookFile([code("c", "show()", [display({ "image/jpeg": PLOT_PNG }), display({ "image/png": Buffer.from("not an image").toString("base64") })])]);
    const output = await read(file, dir);
    expect(output.content).toEqual([
      { type: "text", text: '<cell id="c">show()</cell id="c">' },
      { type: "image", source: { type: "base64", media_type: "image/png", data: PLOT_PNG } },
      { type: "text", text: "<output>[image/png output not shown: its data is not a PNG, JPEG, GIF or WebP image]</output>" },
    ]);
  });

  test(`one Read carries at most ${NOTEBOOK_MAX_IMAGES} images`, async () => {
    const outputs = Array.from({ length: NOTEBOOK_MAX_IMAGES + 2 }, () => display({ "image/png": PLOT_PNG }));
    const { file, dir } = notebookFile([code("many", "for i in range(22): show(i)", outputs)]);
    const output = await read(file, dir);
    const blocks = output.content as Array<{ type: string; text?: string }>;
    expect(blocks.filter((block) => block.type === "image")).toHaveLength(NOTEBOOK_MAX_IMAGES);
    expect(blocks.at(-1)).toEqual({
      type: "text",
      text: `<output>[image/png output not shown: this Read already carries ${NOTEBOOK_MAX_IMAGES} images, the most one Read returns]</output>\n<output>[image/png output not shown: this Read already carries ${NOTEBOOK_MAX_IMAGES} images, the most one Read returns]</output>`,
    });
  });

  test("other kernels' language is shown; outputs without a text or image form are named", async () => {
    const dir = tempDir();
    const file = join(dir, "r.ipynb");
    writeFileSync(file, jupyterText({ cells: [code("r1", "summary(df)", [display({ "application/vnd.widget+json": { a: 1 } })])], metadata: { language_info: { name: "R" } }, nbformat: 4, nbformat_minor: 5 }));
    expect((await read(file, dir)).content).toEqual([
      { type: "text", text: '<cell id="r1"><language>R</language>summary(df)</cell id="r1">\n<output>[application/vnd.widget+json output not shown]</output>' },
    ]);
  });

  test("an empty notebook says so", async () => {
    const { file, dir } = notebookFile([]);
    expect((await read(file, dir)).content).toEqual([{ type: "text", text: `${file} is a notebook with no cells.` }]);
  });
});

describe("Read of an image is bounded to the API's limits", () => {
  test("an image wider than 8000 px is refused, naming its size and the limit", async () => {
    const dir = tempDir();
    const file = join(dir, "panorama.png");
    writeFileSync(file, pngBytes(8001, 3));
    expect((await readError(file, dir)).message).toBe(
      `Image ${file} is 8001×3 px, larger than the 8000×8000 px the API accepts. Make a smaller copy (for example with \`convert -resize 50%\` or \`sips -Z 1600\`) and Read that instead.`,
    );
  });

  test("an image over 5 MB once base64-encoded is refused, naming its size and the limit", async () => {
    const dir = tempDir();
    const file = join(dir, "photo.png");
    writeFileSync(file, Buffer.concat([pngBytes(4, 4), Buffer.alloc(MAX_IMAGE_BYTES, 7)]));
    const size = pngBytes(4, 4).length + MAX_IMAGE_BYTES;
    expect((await readError(file, dir)).message).toBe(
      `Image ${file} is ${(size / (1024 * 1024)).toFixed(2)} MB, more than the 3.75 MB the API accepts for one image (5 MB once base64-encoded). Make a smaller copy (for example with \`convert -resize 50%\` or \`sips -Z 1600\`) and Read that instead.`,
    );
  });

  test("an image at exactly the byte limit is sent: its base64 form is 5 MiB", async () => {
    const dir = tempDir();
    const file = join(dir, "edge.png");
    const head = pngBytes(2, 2);
    writeFileSync(file, Buffer.concat([head, Buffer.alloc(MAX_IMAGE_BYTES - head.length, 1)]));
    const output = await read(file, dir);
    const image = (output.content as Array<{ type: string; source?: { data: string } }>)[1];
    expect(image?.source?.data.length).toBe(5 * 1024 * 1024);
  });

  test("pixel sizes are read from PNG, GIF, WebP and JPEG headers", () => {
    const gif = Buffer.from([...Buffer.from("GIF89a"), 0x40, 0x1f, 0x02, 0x00]);
    const riff = (chunk: string, body: number[]) => Buffer.from([...Buffer.from("RIFF"), 0, 0, 0, 0, ...Buffer.from("WEBP"), ...Buffer.from(chunk), 0, 0, 0, 0, ...body]);
    const vp8 = riff("VP8 ", [0, 0, 0, 0x9d, 0x01, 0x2a, 0x90, 0x01, 0x2c, 0x01]);
    // VP8L: signature 0x2f, then width-1 and height-1 in 14 bits each: 1000×500.
    const bits = 999 | (499 << 14);
    const vp8l = riff("VP8L", [0x2f, bits & 0xff, (bits >> 8) & 0xff, (bits >> 16) & 0xff, (bits >> 24) & 0xff]);
    const vp8x = riff("VP8X", [0, 0, 0, 0, 0x3f, 0x1f, 0x00, 0x0f, 0x00, 0x00]);
    // SOI, an APP0 segment to skip, a fill byte, then SOF2 (progressive) holding 1080 high, 1920 wide.
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x4a, 0x46, 0xff, 0xff, 0xc2, 0x00, 0x11, 0x08, 0x04, 0x38, 0x07, 0x80, 0x03]);
    expect([
      imageSize(pngBytes(321, 7), "image/png"),
      imageSize(gif, "image/gif"),
      imageSize(vp8, "image/webp"),
      imageSize(vp8l, "image/webp"),
      imageSize(vp8x, "image/webp"),
      imageSize(jpeg, "image/jpeg"),
      imageSize(Buffer.from([0xff, 0xd8, 0xff, 0xd9]), "image/jpeg"),
    ]).toEqual([
      { width: 321, height: 7 },
      { width: 8000, height: 2 },
      { width: 400, height: 300 },
      { width: 1000, height: 500 },
      { width: 8000, height: 16 },
      { width: 1920, height: 1080 },
      undefined,
    ]);
  });
});
