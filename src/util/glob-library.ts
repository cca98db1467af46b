/**
 * minimatch, loaded on first use: evaluating it cost every start-up ~0.5 ms, and a session whose
 * rules and tools match no glob never needs it. Required through util/minimatch-esm.ts so the
 * binary holds one copy of the library (its ES build, which the dynamic imports use too).
 */
type GlobLibrary = typeof import("./minimatch-esm.ts");
let library: GlobLibrary | undefined;

export function globLibrary(): GlobLibrary {
  library ??= require("./minimatch-esm.ts") as GlobLibrary;
  return library;
}
