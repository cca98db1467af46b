/**
 * Settings schemas are built the first time a file (or flag) needs checking, key by key, so a
 * run pays for zod only for the sections it actually has: building every settings schema object
 * up front measured ≈ 5 ms and several MB in the compiled binary, for keys most runs never use.
 */
import type * as Zod from "zod";

/** The part of zod's API the schemas use (see zod-runtime.ts). */
export type ZodApi = typeof import("./zod-runtime.ts").z;

/** `require` keeps loading synchronous; the bundler defers zod's evaluation to the first call. */
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
