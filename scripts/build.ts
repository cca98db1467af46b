// Compiles the single self-contained executable dist/clew. Prompt text and tool descriptions
// are text imports, so they are embedded; nothing is read from beside the binary at run time.
import { $, type BunPlugin } from "bun";
import { resolve } from "node:path";

/** The MCP SDK's client validates with ajv by default; the binary uses the SDK's lighter provider (see the shim). */
const lighterSchemaValidator: BunPlugin = {
  name: "mcp-sdk-validator",
  setup(build) {
    build.onResolve({ filter: /validation\/ajv-provider\.js$/ }, (args) =>
      args.importer.includes("@modelcontextprotocol/sdk") ? { path: resolve(import.meta.dir, "../src/mcp/runtime/validator-shim.ts") } : undefined,
    );
  },
};

const outfile = process.argv[2] ?? "dist/clew";
const result = await Bun.build({
  entrypoints: ["src/main.ts"],
  compile: { outfile },
  minify: true,
  // Precompiled bytecode: start-up drops from ~40 ms to ~10 ms for a few MB of binary.
  bytecode: true,
  format: "esm",
  // Lazily imported code lives in its own chunks inside the binary, so a module loaded on first
  // use (the SDK, the shell parser, the UI, @clack/prompts) costs nothing until it is used.
  splitting: true,
  sourcemap: "none",
  target: "bun",
  plugins: [lighterSchemaValidator],
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
const size = (await $`stat -c %s ${outfile}`.text()).trim();
console.log(`built ${outfile} (${(Number(size) / 1e6).toFixed(1)} MB)`);
