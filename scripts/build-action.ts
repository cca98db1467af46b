// `bun scripts/build-action.ts [OUTFILE]`: bundles the GitHub Action (action/src, with
// @actions/core from action/node_modules) into the one file action.yml runs, action/dist/index.js
// by default. The bundle is checked in — a runner downloads nothing at run time — and a test
// (test/unit/action/bundle.test.ts) fails when it differs from a fresh build.
import { existsSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";

const root = resolve(import.meta.dir, "..");
const outfile = resolve(process.argv[2] ?? resolve(root, "action/dist/index.js"));

if (!existsSync(resolve(root, "action/node_modules/@actions/core"))) {
  console.error("build-action: action/node_modules is missing; run `bun install --frozen-lockfile` in action/ first");
  process.exit(1);
}
// The bundle's module comments name paths relative to the working directory: build from the root
// so the output is the same wherever the script is started.
process.chdir(root);
const result = await Bun.build({
  entrypoints: [resolve(root, "action/src/index.ts")],
  target: "node",
  format: "esm",
  // Readable on review: what runs on every runner is the file in the repository.
  minify: false,
  sourcemap: "none",
  outdir: dirname(outfile),
  naming: basename(outfile),
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
console.log(`built ${outfile}`);
