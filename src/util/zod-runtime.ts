// zod's runtime, reached only through `require` in lazy-schema.ts, so it is evaluated on first use.
// Named imports (not the `z` namespace, and not the package's own `require` entry, which is
// the whole CommonJS build with every locale) let the bundler keep only what these schemas use:
// measured ~100 KB instead of ~450 KB of zod, and ≈ 2 ms less to evaluate.
import {
  array,
  boolean,
  config,
  discriminatedUnion,
  enum as enumOf,
  literal,
  looseObject,
  number,
  object,
  record,
  strictObject,
  string,
  toJSONSchema,
  union,
  unknown,
} from "zod";

// zod compiles a parser per object schema with `new Function` on its first parse; in a process
// that parses each schema a handful of times that costs more than it saves (measured: the first
// parse of a hooks section ≈ 4 ms with it, ≈ 1 ms without).
config({ jitless: true });

export const z = {
  array,
  boolean,
  discriminatedUnion,
  enum: enumOf,
  literal,
  looseObject,
  number,
  object,
  record,
  strictObject,
  string,
  toJSONSchema,
  union,
  unknown,
};
