// `bun scripts/bench/web.ts`: WebFetch's HTML conversion on the saved pages (test/fixtures/web) —
// median time of the whole conversion (parse, main content, Markdown) and the output's size
// against the raw HTML; the Markdown writer alone, turndown (what clew uses) against
// node-html-markdown on the same main-content HTML, when NHM_DIR names a folder where
// node-html-markdown is installed (never in this repository); and what a session that never
// fetches pays: no path but WebFetch's own dynamic import reaches the HTML libraries, and the
// compiled binary's first request and memory without a fetch against a session that fetches
// (CLEW_BIN, else a build in a temporary folder). BENCH_RUNS (default 15) sets the runs per
// conversion figure. The parts are exported for scripts/bench.ts.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { assembleMarkdown, htmlToMarkdown, mainContent } from "../../src/tools/shared/html-markdown.ts";
import { DOCS_PAGE, NEWS_ARTICLE } from "../../test/helpers/web-server.ts";
import { reply } from "../../test/fake-anthropic/index.ts";
import { startWebServer } from "../../test/helpers/web-server.ts";
import { tempDirectory } from "../../test/helpers/clew-process.ts";
import { measureRun, median, type RunMetrics } from "./measure.ts";
import { startupGraph } from "./startup-graph.ts";

const root = join(import.meta.dir, "../..");
/** The packages only a fetch of an HTML page may load. */
export const HTML_PACKAGES = ["linkedom", "turndown", "@mozilla/readability", "@joplin/turndown-plugin-gfm"];

const PAGES = [
  { name: "news article", html: NEWS_ARTICLE, url: "https://www.bbc.co.uk/news/world-us-canada-33580440" },
  { name: "docs page", html: DOCS_PAGE, url: "https://docs.python.org/3.11/library/json.html" },
];

type Converter = (fragment: string) => string;

function timeIt(runs: number, work: () => unknown): number {
  work();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    work();
    times.push(performance.now() - started);
  }
  return median(times);
}

const kb = (chars: number) => `${(chars / 1024).toFixed(1)} KB`;

/**
 * What a reader of the Markdown would check: code blocks fenced (with a language), inline code kept
 * (also inside links), tables kept, no HTML left, and no link run into the next word.
 */
function quality(markdown: string): string {
  const prose = markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "");
  const fences = (markdown.match(/^```/gm) ?? []).length / 2;
  const tagged = (markdown.match(/^```[\w+#-]+$/gm) ?? []).length;
  const inlineCode = (prose.match(/`[^`\n]+`/g) ?? []).length;
  const tableRows = (markdown.match(/^\|.*\|$/gm) ?? []).length;
  const leftoverTags = (markdown.match(/<\/?(?:div|span|p|table|pre|code)\b/g) ?? []).length;
  const glued = (prose.match(/\]\([^)\s]*(?:\s"[^"]*")?\)[A-Za-z]/g) ?? []).length;
  return `${fences} code blocks (${tagged} with a language), ${inlineCode} inline code spans, ${tableRows} table rows, ${leftoverTags} HTML tags left, ${glued} links run into the next word`;
}

export async function webConversionRows(runs: number): Promise<string[]> {
  const rows = ["| page | raw HTML | Markdown | ratio | conversion (median) |", "| --- | ---: | ---: | ---: | ---: |"];
  for (const page of PAGES) {
    const markdown = htmlToMarkdown(page.html, page.url).markdown;
    const ms = timeIt(runs, () => htmlToMarkdown(page.html, page.url));
    rows.push(`| ${page.name} | ${kb(page.html.length)} | ${kb(markdown.length)} | ${((100 * markdown.length) / page.html.length).toFixed(1)} % | ${ms.toFixed(1)} ms |`);
  }
  return rows;
}

async function loadNodeHtmlMarkdown(dir: string | undefined): Promise<Converter | undefined> {
  const entry = dir ? join(dir, "node_modules/node-html-markdown/dist/index.js") : undefined;
  if (!entry || !existsSync(entry)) return undefined;
  const module = (await import(entry)) as { NodeHtmlMarkdown: new (options: Record<string, unknown>) => { translate(html: string): string } };
  const converter = new module.NodeHtmlMarkdown({ codeBlockStyle: "fenced", bulletMarker: "-" });
  return (fragment) => converter.translate(fragment);
}

export async function converterRows(runs: number, nhmDir: string | undefined): Promise<string[]> {
  const { default: TurndownService } = await import("turndown");
  const { gfm } = await import("@joplin/turndown-plugin-gfm");
  const service = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-", emDelimiter: "*" });
  service.use(gfm);
  const converters: Array<[string, Converter]> = [["turndown + GFM", (fragment) => service.turndown(fragment)]];
  const nhm = await loadNodeHtmlMarkdown(nhmDir);
  if (nhm) converters.push(["node-html-markdown", nhm]);
  const rows = ["| page | writer | Markdown writer alone (median) | output | what it kept |", "| --- | --- | ---: | ---: | --- |"];
  for (const page of PAGES) {
    const main = mainContent(page.html, page.url);
    for (const [name, convert] of converters) {
      const markdown = assembleMarkdown(main.title, main.fragments.map(convert));
      const ms = timeIt(runs, () => main.fragments.map(convert));
      rows.push(`| ${page.name} | ${name} | ${ms.toFixed(1)} ms | ${kb(markdown.length)} | ${quality(markdown)} |`);
    }
  }
  if (!nhm) rows.push(`(node-html-markdown not compared: set NHM_DIR to a folder where it is installed, e.g. \`cd /tmp/nhm && bun add node-html-markdown\`)`);
  return rows;
}

interface ChunkMeta {
  bytes: number;
  inputs: Record<string, { bytesInOutput: number }>;
  imports: Array<{ path: string; kind: string }>;
  entryPoint?: string;
}

export interface HtmlReach {
  /** Chunks holding html-markdown.ts (what WebFetch's `await import()` loads). */
  fetchChunks: string[];
  /** Bytes of the HTML libraries: the embedded, compressed bundle unpacked (scripts/cold-modules.ts). */
  libraryBytes: number;
  /** What could load the HTML libraries without a fetch: library code in any chunk, or the bundle's loader reachable another way. */
  reachableOtherwise: string[];
}

const packageOf = (input: string) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1];

/**
 * Builds clew as its binary is built (same options, code splitting on). The HTML libraries must be
 * in no chunk at all — only in their compressed bundle, an asset — and the module that imports
 * that bundle (html-libs.ts) must be reachable from the entry point only through WebFetch's
 * dynamic import of html-markdown.ts.
 */
export async function htmlLibraryReach(): Promise<HtmlReach> {
  const { CLEW_BUILD_OPTIONS } = await import("../build-options.ts");
  const { mkdtempSync, readFileSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const outdir = mkdtempSync(join(tmpdir(), "clew-bench-web-"));
  try {
    const built = await Bun.build({ ...CLEW_BUILD_OPTIONS, bytecode: false, outdir, metafile: true } as Parameters<typeof Bun.build>[0]);
    const outputs = (built as unknown as { metafile?: { outputs: Record<string, ChunkMeta> } }).metafile?.outputs;
    if (!built.success || !outputs) throw new Error("could not build clew's chunk graph");
    const chunkName = (path: string) => Object.keys(outputs).find((name) => name === path || name.endsWith(path.replace(/^\.\//, "/")));
    const holding = (file: string) => Object.keys(outputs).filter((name) => Object.keys(outputs[name]?.inputs ?? {}).some((input) => input.endsWith(file)));
    const fetchChunks = holding("src/tools/shared/html-markdown.ts");
    const loaderChunks = holding("src/tools/shared/html-libs.ts");
    const bundled = Object.entries(outputs).flatMap(([chunk, meta]) => Object.keys(meta.inputs ?? {}).filter((input) => HTML_PACKAGES.includes(packageOf(input) ?? "")).map((input) => `${input} (in ${chunk})`));
    const asset = built.outputs.find((output) => output.kind === "asset" && /html-libs-[^/]*\.gz$/.test(output.path));
    const libraryBytes = asset ? Bun.gunzipSync(new Uint8Array(readFileSync(asset.path))).length : 0;
    const entry = Object.keys(outputs).find((name) => outputs[name]?.entryPoint?.endsWith("src/main.ts"));
    const seen = new Set<string>();
    const stack = entry ? [entry] : [];
    for (let chunk = stack.pop(); chunk !== undefined; chunk = stack.pop()) {
      if (seen.has(chunk)) continue;
      seen.add(chunk);
      for (const edge of outputs[chunk]?.imports ?? []) {
        const next = chunkName(edge.path);
        if (!next || (edge.kind === "dynamic-import" && fetchChunks.includes(next))) continue;
        stack.push(next);
      }
    }
    const loaderReachable = loaderChunks.filter((chunk) => seen.has(chunk)).map((chunk) => `html-libs.ts (in ${chunk})`);
    return { fetchChunks, libraryBytes, reachableOtherwise: [...bundled, ...loaderReachable, ...(asset ? [] : ["no compressed html-libs bundle was embedded"])] };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/** A session that never fetches loads none of the HTML libraries, and its start-up graph is what it was. */
export async function lazyLoadingRows(): Promise<{ rows: string[]; eager: string[] }> {
  const [graph, reach] = await Promise.all([startupGraph(root), htmlLibraryReach()]);
  return {
    eager: reach.reachableOtherwise,
    rows: [
      `start-up graph of clew -p: ${kb(graph.bytes)} of code statically reachable before the first request`,
      `HTML libraries (${HTML_PACKAGES.join(", ")}): ${kb(reach.libraryBytes)} in one compressed bundle, loaded only by WebFetch's first HTML page; reachable any other way: ${reach.reachableOtherwise.length === 0 ? "nothing" : reach.reachableOtherwise.join(", ")}`,
    ],
  };
}

/**
 * The compiled binary, headless: a session that never fetches against one whose first turn fetches
 * the saved article. Both first requests leave before any fetch; the fetch's libraries show only in
 * the second session's memory.
 */
export async function sessionRows(bin: string, runs: number): Promise<string[]> {
  const site = await startWebServer("127.0.0.1");
  const url = `${site.url}/news/obama-interview`;
  const command = [bin, "-p", "what did he say?", "--permission-mode", "bypassPermissions"];
  const results: Record<"plain" | "fetch", RunMetrics[]> = { plain: [], fetch: [] };
  try {
    for (let i = 0; i < runs; i++) {
      results.plain.push(await measureRun(command, tempDirectory("clew-bench-web-"), [reply().text("No fetch.")], "No fetch."));
      const fetchScript = [reply().toolUse("WebFetch", { url, prompt: "What did he say?" }), reply().text("Gun laws."), reply().text("He said gun laws.")];
      results.fetch.push(await measureRun(command, tempDirectory("clew-bench-web-"), fetchScript, "He said gun laws."));
    }
  } finally {
    await site.close();
  }
  const row = (name: string, metrics: RunMetrics[]) =>
    `| ${name} | ${median(metrics.map((m) => m.firstRequestMs)).toFixed(1)} ms | ${median(metrics.map((m) => m.peakRssMiB)).toFixed(1)} MiB | ${median(metrics.map((m) => m.wallMs)).toFixed(1)} ms | ${metrics.every((m) => m.ok) ? "ok" : "FAILED"} |`;
  return ["| session | first request | peak RSS | wall | answer |", "| --- | ---: | ---: | ---: | --- |", row("no fetch", results.plain), row("fetches the article", results.fetch)];
}

if (import.meta.main) {
  const runs = Number(process.env.BENCH_RUNS ?? 15);
  console.log(`WebFetch conversion (${runs} runs each)\n`);
  console.log((await webConversionRows(runs)).join("\n"));
  console.log("\nMarkdown writers on the same main-content HTML\n");
  console.log((await converterRows(runs, process.env.NHM_DIR)).join("\n"));
  console.log("\nLazy loading\n");
  const lazy = await lazyLoadingRows();
  console.log(lazy.rows.join("\n"));
  if (lazy.eager.length > 0) process.exitCode = 1;
  const bin = process.env.CLEW_BIN ?? join(tempDirectory("clew-bench-web-bin-"), "clew");
  if (!process.env.CLEW_BIN && Bun.spawnSync(["bun", join(root, "scripts/build.ts"), bin], { stdout: "ignore", stderr: "inherit" }).exitCode !== 0) throw new Error("build of clew failed");
  console.log(`\nSessions of the compiled binary (${Math.max(3, Math.round(runs / 3))} runs each)\n`);
  console.log((await sessionRows(bin, Math.max(3, Math.round(runs / 3)))).join("\n"));
}
