// Compiles the single self-contained executable dist/clew. Prompt text and tool descriptions
// are text imports, so they are embedded; nothing is read from beside the binary at run time.
import { $ } from "bun";
import { CLEW_BUILD_OPTIONS, CLEW_COMPILE_OPTIONS } from "./build-options.ts";

const outfile = process.argv[2] ?? "dist/clew";
// Linux binaries carry ~1.8 MB more runtime than the others: the local build takes the linux-x64
// release's bytecode depth (scripts/release.ts), which keeps it under the 120 MB limit at no
// measurable start-up cost.
const depth = process.platform === "linux" ? { bytecodeDepth: 2 } : {};
const result = await Bun.build({ ...CLEW_BUILD_OPTIONS, ...depth, compile: { ...CLEW_COMPILE_OPTIONS, outfile } });
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
const size = (await $`stat -c %s ${outfile}`.text()).trim();
console.log(`built ${outfile} (${(Number(size) / 1e6).toFixed(1)} MB)`);
