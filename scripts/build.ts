// Compiles the single self-contained executable dist/clew. Prompt text and tool descriptions
// are text imports, so they are embedded; nothing is read from beside the binary at run time.
//
// `bun scripts/build.ts [OUTFILE] [--no-bytecode-order]`: the binary is built twice, the second
// time with the bytecode laid out by what the first one ran (scripts/bytecode-order.ts);
// --no-bytecode-order (or a checkout without the tests, such as the Dockerfile's build context)
// builds once, unprofiled.
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { CLEW_BUILD_OPTIONS, CLEW_COMPILE_OPTIONS } from "./build-options.ts";
import { BytecodeOrderError, canRecordBytecodeOrder, recordBytecodeOrder } from "./bytecode-order.ts";

const { values, positionals } = parseArgs({ args: process.argv.slice(2), allowPositionals: true, options: { "no-bytecode-order": { type: "boolean" } } });
const outfile = positionals[0] ?? "dist/clew";
// Linux binaries carry ~1.8 MB more runtime than the others: the local build takes the linux-x64
// release's bytecode depth (scripts/release.ts), which keeps it under the 120 MB limit at no
// measurable start-up cost.
const depth = process.platform === "linux" ? { bytecodeDepth: 2 } : {};

async function compile(file: string, bytecodeOrder: string[] | false): Promise<void> {
  const result = await Bun.build({ ...CLEW_BUILD_OPTIONS, ...depth, compile: { ...CLEW_COMPILE_OPTIONS, outfile: file, bytecodeOrder } });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    process.exit(1);
  }
}

let profiled = false;
if (values["no-bytecode-order"] !== true && canRecordBytecodeOrder()) {
  const folder = mkdtempSync(join(tmpdir(), "clew-build-"));
  try {
    const first = join(folder, "clew");
    await compile(first, false);
    const order = await recordBytecodeOrder(first);
    try {
      await compile(outfile, order.files);
    } finally {
      order.dispose();
    }
    profiled = true;
  } catch (error) {
    if (!(error instanceof BytecodeOrderError)) throw error;
    console.error(`build: ${error.message}`);
    process.exit(1);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
} else {
  await compile(outfile, false);
}
const size = statSync(outfile).size;
console.log(`built ${outfile} (${(size / 1e6).toFixed(1)} MB${profiled ? ", bytecode laid out by a profiled run" : ", bytecode unprofiled"})`);
