/**
 * Imported `with { type: "macro" }`: at build time the OpenTelemetry adapter (otel-sdk.ts with the
 * @opentelemetry packages) is bundled into one ES module and inlined as gzip+base64 text. The
 * binary then carries ~40 KB of data for telemetry instead of ~0.8 MB of precompiled bytecode
 * (clew's binary must stay under 120 MB), and the code is compiled only when telemetry is on.
 * A macro cannot call Bun.build (the bundler is busy running it), so it runs `bun build`.
 */
import { join } from "node:path";

export function otelSdkBundle(): string {
  const entry = join(import.meta.dir, "otel-sdk.ts");
  const run = Bun.spawnSync([process.execPath, "build", entry, "--target=bun", "--format=esm", "--minify"], { stdout: "pipe", stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(`bundling ${entry} failed: ${run.stderr.toString()}`);
  return Buffer.from(Bun.gzipSync(new Uint8Array(run.stdout))).toString("base64");
}
