// Notebooks and images against the compiled binary: the model Reads a real Jupyter notebook (its
// plot arrives as an image block), edits it cell by cell — replace, insert, delete — after an edit
// without a Read was refused, and the file stays nbformat-valid in Jupyter's own layout; image
// files reach the next request as image blocks, and one over the API's limits comes back as a
// tool error naming its size and the limit, so no request carries it.
import { afterEach, describe, expect, test } from "bun:test";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { messagesOf, reply, startFakeAnthropic, toolResults, type FakeServer, type JsonObject } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";
import { FIXTURE_NOTEBOOK, fixtureText, jupyterText, nbformatProblems, pngBytes } from "../helpers/notebooks.ts";
import { requestAt } from "../helpers/scenario.ts";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Cell = Record<string, unknown>;
const PLOT_PNG = String((JSON.parse(fixtureText()) as { cells: Array<{ outputs: Array<{ data: Record<string, string> }> }> }).cells[4]?.outputs[0]?.data["image/png"]).trim();

async function run(dir: string, prompt: string) {
  return runClew(["-p", prompt, "--output-format", "json", "--permission-mode", "acceptEdits"], { cwd: dir, baseURL: server?.url, configDir: tempDirectory("clew-config-") });
}

function resultContent(request: Parameters<typeof toolResults>[0], index = 0): JsonObject[] {
  const content = toolResults(request)[index]?.block.content;
  return Array.isArray(content) ? (content as JsonObject[]) : [];
}

describe("scenario: a Jupyter notebook, read and edited cell by cell", () => {
  test("an edit before Read is refused; Read shows cells and the plot; replace, insert and delete keep the notebook valid", async () => {
    const dir = tempDirectory("clew-notebook-");
    const notebook = join(dir, "sales-analysis.ipynb");
    copyFileSync(FIXTURE_NOTEBOOK, notebook);
    const newSource = "df = pd.read_csv('sales.csv', parse_dates=['date'])\ndf.describe()";
    server = await startFakeAnthropic({
      script: [
        reply().toolUse("NotebookEdit", { notebook_path: notebook, cell_id: "load", new_source: newSource }),
        reply().text("I need to read it first.").toolUse("Read", { file_path: notebook }),
        reply().toolUse("NotebookEdit", { notebook_path: notebook, cell_id: "load", new_source: newSource }),
        reply().toolUse("NotebookEdit", { notebook_path: notebook, cell_id: "plot", new_source: "The bars show revenue per quarter.", edit_mode: "insert", cell_type: "markdown" }),
        reply().toolUse("NotebookEdit", { notebook_path: notebook, cell_id: "broken", new_source: "", edit_mode: "delete" }),
        reply().text("Notebook updated."),
      ],
    });
    const result = await run(dir, "tidy up sales-analysis.ipynb");
    expect(server.violations).toEqual([]);
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as { result: string }).result).toBe("Notebook updated.");

    const refused = toolResults(requestAt(server, 1))[0];
    expect({ isError: refused?.isError, text: refused?.text }).toEqual({ isError: true, text: `File has not been read yet. Read it first before editing it: ${notebook}` });

    // The Read result: cells as text, the plot as an image block between them.
    const read = resultContent(requestAt(server, 2));
    expect(read.map((block) => block.type)).toEqual(["text", "image", "text"]);
    expect(read[1]).toEqual({ type: "image", source: { type: "base64", media_type: "image/png", data: PLOT_PNG } });
    expect(String(read[0]?.text)).toContain('<cell id="load">');
    expect(String(read[2]?.text)).toStartWith("<cell id=\"broken\">df['profit'].mean()</cell id=\"broken\">\n<output>");
    // The image stays in the history unchanged on every later request.
    const lastMessages = messagesOf(requestAt(server, 5));
    const readResult = lastMessages.flatMap((message) => message.content).find((block) => block.type === "tool_result" && Array.isArray(block.content) && block.content.length === 3);
    expect(readResult?.content).toEqual(read);

    expect(toolResults(requestAt(server, 3))[0]).toMatchObject({ isError: false, text: `Replaced the source of cell load in ${notebook}; its outputs were cleared.` });
    const insertText = toolResults(requestAt(server, 4))[0]?.text ?? "";
    const newId = /^Inserted markdown cell ([0-9a-f]{8}) after cell plot in /.exec(insertText)?.[1];
    expect(newId).toBeDefined();
    expect(toolResults(requestAt(server, 5))[0]?.text).toBe(`Deleted cell broken from ${notebook} (now 6 cells).`);

    const expected = JSON.parse(fixtureText()) as { cells: Cell[] };
    Object.assign(expected.cells[2] as Cell, { source: ["df = pd.read_csv('sales.csv', parse_dates=['date'])\n", "df.describe()"], outputs: [], execution_count: null });
    expected.cells.splice(5, 1, { cell_type: "markdown", id: newId, metadata: {}, source: ["The bars show revenue per quarter."] });
    const written = readFileSync(notebook, "utf8");
    // Jupyter's layout throughout, so every cell not edited is byte-for-byte what it was.
    expect(written).toBe(jupyterText(expected));
    expect(nbformatProblems(written)).toEqual([]);
  });
});

describe("scenario: images", () => {
  test("a PNG (by its bytes, whatever its name) reaches the model as an image block; one over the limits is a tool error", async () => {
    const dir = tempDirectory("clew-images-");
    const chart = pngBytes(64, 48);
    writeFileSync(join(dir, "chart.png"), chart);
    writeFileSync(join(dir, "screenshot"), chart);
    writeFileSync(join(dir, "panorama.png"), pngBytes(9000, 4));
    writeFileSync(join(dir, "photo.png"), Buffer.concat([chart, Buffer.alloc(4 * 1024 * 1024, 9)]));
    const calls = reply()
      .toolUse("Read", { file_path: join(dir, "chart.png") })
      .toolUse("Read", { file_path: join(dir, "screenshot") })
      .toolUse("Read", { file_path: join(dir, "panorama.png") })
      .toolUse("Read", { file_path: join(dir, "photo.png") });
    server = await startFakeAnthropic({ script: [calls, reply().text("Seen them.")] });
    const result = await run(dir, "look at the images");
    expect(server.violations).toEqual([]);
    expect(result.code).toBe(0);

    const second = requestAt(server, 1);
    const image = { type: "image", source: { type: "base64", media_type: "image/png", data: chart.toString("base64") } };
    expect(resultContent(second, 0)).toEqual([{ type: "text", text: `Image file: ${join(dir, "chart.png")} (image/png, ${chart.length} B)` }, image]);
    expect(resultContent(second, 1)).toEqual([{ type: "text", text: `Image file: ${join(dir, "screenshot")} (image/png, ${chart.length} B)` }, image]);
    const [, , panorama, photo] = toolResults(second);
    expect({ isError: panorama?.isError, text: panorama?.text }).toEqual({
      isError: true,
      text: `Image ${join(dir, "panorama.png")} is 9000×4 px, larger than the 8000×8000 px the API accepts. Make a smaller copy (for example with \`convert -resize 50%\` or \`sips -Z 1600\`) and Read that instead.`,
    });
    const photoSize = ((chart.length + 4 * 1024 * 1024) / (1024 * 1024)).toFixed(2);
    expect({ isError: photo?.isError, text: photo?.text }).toEqual({
      isError: true,
      text: `Image ${join(dir, "photo.png")} is ${photoSize} MB, more than the 3.75 MB the API accepts for one image (5 MB once base64-encoded). Make a smaller copy (for example with \`convert -resize 50%\` or \`sips -Z 1600\`) and Read that instead.`,
    });
    // Only the two images that fit were ever sent.
    const sentImages = JSON.stringify(second.body).split('"type":"image"').length - 1;
    expect(sentImages).toBe(2);
  });
});
