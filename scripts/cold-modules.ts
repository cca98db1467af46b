// Code most sessions never run goes into the binary as one gzip-compressed file per module, not as
// bundled chunks: bundled, its precompiled bytecode (3–4× its source) would weigh ~4 MB of a binary
// that must stay under 120 MB. At first use the file is unpacked in memory and imported
// (src/util/embedded-module.ts). Run from source, nothing changes: the modules import as written.
//
// - src/tools/shared/html-libs.ts (WebFetch's HTML libraries) and src/telemetry/otel-sdk.ts (the
//   OpenTelemetry SDK and exporters, used only when telemetry is on) are each bundled on their own
//   and their module replaced by one that imports the compressed bundle and re-exports its bindings;
// - PDF.js, which pdf-engine.ts already embeds as a file, is embedded compressed.
import type { BunPlugin } from "bun";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dir, "..");
const cacheDir = join(root, "node_modules/.cache/clew-cold-modules");
const embeddedModule = join(root, "src/util/embedded-module.ts");

/** Modules replaced by their compressed bundle, each with the bindings it exports. */
const BUNDLED: Record<string, string[]> = {
  [join(root, "src/tools/shared/html-libs.ts")]: ["htmlLibs"],
  [join(root, "src/telemetry/otel-sdk.ts")]: ["openExport"],
};

/** Older builds' copies of a module: left an hour, since a build running beside this one may still read its own. */
const STALE_AFTER_MS = 60 * 60 * 1000;

function writeCompressed(name: string, code: Uint8Array<ArrayBuffer>): string {
  mkdirSync(cacheDir, { recursive: true });
  const file = `${name}-${Bun.hash(code).toString(16)}.mjs.gz`;
  const path = join(cacheDir, file);
  writeFileSync(path, Bun.gzipSync(code, { level: 9 }));
  for (const other of readdirSync(cacheDir)) {
    if (other === file || !other.startsWith(`${name}-`) || !other.endsWith(".mjs.gz")) continue;
    const stale = join(cacheDir, other);
    if (Date.now() - statSync(stale).mtimeMs > STALE_AFTER_MS) rmSync(stale, { force: true });
  }
  return path;
}

/** Bundled by a separate `bun build`: a Bun.build started inside a running build's plugin never finishes. */
function bundleCompressed(entry: string): string {
  const outfile = join(cacheDir, `bundle-${process.pid}-${Bun.hash(entry).toString(16)}.mjs`);
  const built = Bun.spawnSync([process.execPath, "build", entry, "--target=bun", "--format=esm", "--minify", "--outfile", outfile], { stdout: "pipe", stderr: "pipe" });
  if (built.exitCode !== 0) throw new Error(`cold module ${entry}: bun build failed: ${built.stderr.toString()}`);
  const code = new Uint8Array(readFileSync(outfile));
  rmSync(outfile, { force: true });
  return writeCompressed(entry.split("/").pop()?.replace(/\.ts$/, "") ?? "module", code);
}

export const coldModules: BunPlugin = {
  name: "cold-modules",
  setup(build) {
    // Every compressed file is written before the build resolves anything: a file that appears
    // while the build runs can stay unknown to its resolver (it caches folder listings).
    const files = new Map(Object.keys(BUNDLED).map((entry) => [entry, bundleCompressed(entry)]));
    const pdfjs = writeCompressed("pdfjs", new Uint8Array(readFileSync(Bun.resolveSync("unpdf/pdfjs", join(root, "src/tools/shared")))));
    build.onLoad({ filter: /src\/(tools\/shared\/html-libs|telemetry\/otel-sdk)\.ts$/ }, (args) => {
      const bindings = BUNDLED[args.path];
      const file = files.get(args.path);
      if (!bindings || !file) return undefined;
      return {
        loader: "ts",
        contents: [
          `import file from ${JSON.stringify(file)} with { type: "file" };`,
          `import { importEmbedded } from ${JSON.stringify(embeddedModule)};`,
          `const loaded = (await importEmbedded(String(file))) as Record<string, unknown>;`,
          ...bindings.map((binding) => `export const ${binding} = loaded.${binding} as never;`),
        ].join("\n"),
      };
    });
    build.onResolve({ filter: /^unpdf\/pdfjs$/ }, (args) => (args.importer.endsWith("pdf-engine.ts") ? { path: pdfjs } : undefined));
  },
};
