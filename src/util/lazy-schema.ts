/**
 * A tool's input schema, built the first time it is needed. zod and every schema object are
 * evaluated when a tool is first called, not when the binary starts: the API's JSON Schemas are
 * derived at build time (app/tool-schemas.macro.ts), so a run that has not called a tool yet —
 * everything before the first request — never pays for zod (measured: zod plus the nine tool
 * schemas ≈ 2–4 ms and several MB at start-up).
 */
import type * as Zod from "zod";

/** The part of zod's API the schemas use (see zod-runtime.ts). */
export type ZodApi = typeof import("./zod-runtime.ts").z;

/** `require` keeps the call synchronous; the bundler defers zod's evaluation to the first call. */
export function loadZod(): ZodApi {
  try {
    return (require("./zod-runtime.ts") as typeof import("./zod-runtime.ts")).z;
  } catch (error) {
    // Build-time macros run where the bundler's `require` is not defined.
    if (!(error instanceof ReferenceError)) throw error;
    return (import.meta.require("./zod-runtime.ts") as typeof import("./zod-runtime.ts")).z;
  }
}

export function lazySchema<Schema extends Zod.ZodType>(build: (z: ZodApi) => Schema): () => Schema {
  let schema: Schema | undefined;
  return () => (schema ??= build(loadZod()));
}
