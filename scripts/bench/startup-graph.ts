// How much code `clew -p` loads before its first request: the minified size of every module
// statically reachable from the chunk holding src/cli/print.ts (what `await import()` defers is not
// counted), and the largest packages in it. Printed by the bench so start-up growth shows early.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

interface MetaOutput {
  bytes: number;
  inputs: Record<string, { bytesInOutput: number }>;
  imports: Array<{ path: string; kind: string }>;
}

export interface StartupGraph {
  bytes: number;
  /** Largest contributors: npm packages by name, clew's own code by top-level folder. */
  largest: Array<{ name: string; bytes: number }>;
}

export async function startupGraph(root: string): Promise<StartupGraph> {
  const outdir = mkdtempSync(join(tmpdir(), "clew-bench-graph-"));
  const built = await Bun.build({
    entrypoints: [join(root, "src/main.ts")],
    outdir,
    minify: true,
    format: "esm",
    splitting: true,
    target: "bun",
    metafile: true,
  } as Parameters<typeof Bun.build>[0]).finally(() => rmSync(outdir, { recursive: true, force: true }));
  const outputs = (built as unknown as { metafile?: { outputs: Record<string, MetaOutput> } }).metafile?.outputs;
  if (!built.success || !outputs) throw new Error("could not build the start-up graph");
  const chunkOf = (file: string) => Object.keys(outputs).find((name) => name.endsWith(file.replace(/^\.\//, "/")));
  const start = Object.keys(outputs).find((name) => Object.keys(outputs[name]?.inputs ?? {}).some((input) => input.endsWith("src/cli/print.ts")));
  const seen = new Set<string>();
  const stack = start ? [start] : [];
  for (let chunk = stack.pop(); chunk !== undefined; chunk = stack.pop()) {
    if (seen.has(chunk)) continue;
    seen.add(chunk);
    for (const edge of outputs[chunk]?.imports ?? []) {
      const next = edge.kind === "import-statement" && edge.path.startsWith("./") ? chunkOf(edge.path) : undefined;
      if (next) stack.push(next);
    }
  }
  const byName = new Map<string, number>();
  let bytes = 0;
  for (const chunk of seen) {
    for (const [input, { bytesInOutput }] of Object.entries(outputs[chunk]?.inputs ?? {})) {
      const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1];
      const name = pkg ?? input.replace(/^.*?src\/([^/]+)\/.*$/, "src/$1");
      byName.set(name, (byName.get(name) ?? 0) + bytesInOutput);
      bytes += bytesInOutput;
    }
  }
  const largest = [...byName].map(([name, size]) => ({ name, bytes: size })).sort((a, b) => b.bytes - a.bytes).slice(0, 6);
  return { bytes, largest };
}
