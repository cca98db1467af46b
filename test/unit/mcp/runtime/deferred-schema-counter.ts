// The helper a test build of the SDK's types.js imports instead of src/mcp/runtime/deferred-schema.ts:
// the same stand-in, counting the schemas it has built.
import { deferredSchema as deferred } from "../../../../src/mcp/runtime/deferred-schema.ts";

export const builds = { count: 0 };

export function deferredSchema<Schema extends object>(build: () => Schema): Schema {
  return deferred(() => {
    builds.count++;
    return build();
  });
}
