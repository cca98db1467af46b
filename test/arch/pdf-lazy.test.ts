// PDF.js goes into the binary as a file, never as bundled code: bundled, its precompiled bytecode
// would cost ~5.8 MB of a binary that must stay under 120 MB, and any static path to it would load
// 1.7 MB of code at every start. clew is built as its binary is (same options, code splitting on)
// and every output is checked: no chunk holds code from unpdf or pdf-lib, and pdf.js is there once,
// as an asset.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLEW_BUILD_OPTIONS } from "../../scripts/build-options.ts";

interface OutputMeta {
  inputs?: Record<string, { bytesInOutput: number }>;
}

describe("PDF.js is embedded as a file", () => {
  test("no chunk bundles PDF code; pdf.js is one asset the first PDF imports", async () => {
    const outdir = mkdtempSync(join(tmpdir(), "clew-pdf-lazy-"));
    try {
      const built = await Bun.build({ ...CLEW_BUILD_OPTIONS, bytecode: false, outdir, metafile: true } as Parameters<typeof Bun.build>[0]);
      const outputs = (built as unknown as { metafile?: { outputs: Record<string, OutputMeta> } }).metafile?.outputs;
      expect(built.success).toBe(true);
      if (!outputs) throw new Error("the build wrote no metafile");
      const pdfInputs = Object.entries(outputs).flatMap(([name, meta]) =>
        Object.entries(meta.inputs ?? {})
          .filter(([input]) => /node_modules\/(unpdf|pdf-lib)\//.test(input))
          .map(([input, { bytesInOutput }]) => ({ chunk: name, input, bytesInOutput })),
      );
      // The one reference is the file import: a string holding the asset's path, not code.
      // The one reference is the file import (the build embeds it compressed: scripts/cold-modules.ts).
      expect(pdfInputs.filter(({ bytesInOutput }) => bytesInOutput > 100)).toEqual([]);
      const assets = built.outputs.filter((output) => output.kind === "asset" && /pdfjs-[^/]*\.(mjs|gz)$/.test(output.path));
      expect(assets.length).toBe(1);
      const asset = assets[0];
      if (!asset) throw new Error("unreachable: one asset was found");
      // The file itself, or its gzip (pdf-engine.ts unpacks a compressed one).
      const embedded = new Uint8Array(readFileSync(asset.path));
      const unpacked = embedded[0] === 0x1f && embedded[1] === 0x8b ? Bun.gunzipSync(embedded) : embedded;
      expect(Buffer.from(unpacked).equals(readFileSync(join(import.meta.dir, "../../node_modules/unpdf/dist/pdfjs.mjs")))).toBe(true);
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  }, 60_000);
});
