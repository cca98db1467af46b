// zod's runtime, reached only through `require` in lazy.ts, so it is evaluated on first use.
// Named imports (not the `z` namespace, and not the package's own `require` entry, which is
// the whole CommonJS build with every locale) let the bundler keep only what these schemas use:
// measured ~100 KB instead of ~450 KB of zod, and ≈ 2 ms less to evaluate.
import {
  array,
  boolean,
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
