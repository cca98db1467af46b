// The Bun.build options every clew binary shares: the local build (scripts/build.ts) and the
// release (scripts/release.ts) differ only in the compile target, bytecode depth and build facts.
import type { BunPlugin } from "bun";
import { resolve } from "node:path";
import { coldModules } from "./cold-modules.ts";
import { deferredSdkSchemas, lighterSchemaValidator } from "./mcp-sdk-plugins.ts";

const root = resolve(import.meta.dir, "..");

/** simple-git and its @kwsites helpers get loggers that never print (see src/util/silent-debug.ts). */
const silentGitLogs: BunPlugin = {
  name: "silent-git-logs",
  setup(build) {
    build.onResolve({ filter: /^debug$/ }, (args) => (/[\\/]node_modules[\\/](simple-git|@kwsites)[\\/]/.test(args.importer) ? { path: resolve(root, "src/util/silent-debug.ts") } : undefined));
  },
};

export const CLEW_BUILD_OPTIONS = {
  entrypoints: [resolve(root, "src/main.ts")],
  minify: true,
  // Precompiled bytecode: start-up to the first request drops from ~54 ms to ~22 ms, for ~8.6 MB
  // of binary (bytecode is ~3.4× the minified source). The release lowers `bytecodeDepth` where
  // the platform's runtime leaves too little room under the size limit.
  bytecode: true,
  format: "esm" as const,
  // Lazily imported code lives in its own chunks inside the binary, so a module loaded on first
  // use (the SDK, the shell parser, the UI, @clack/prompts) costs nothing until it is used.
  splitting: true,
  sourcemap: "none" as const,
  target: "bun" as const,
  plugins: [silentGitLogs, lighterSchemaValidator, deferredSdkSchemas, coldModules],
};

/**
 * Compile options every binary gets. A compiled Bun program otherwise reads `.env` and
 * `bunfig.toml` from the directory it starts in: a cloned repository could then set clew's
 * environment (API URL, keys, update source) or run its own code through bunfig's `preload`.
 */
export const CLEW_COMPILE_OPTIONS = {
  autoloadDotenv: false,
  autoloadBunfig: false,
  autoloadTsconfig: false,
  autoloadPackageJson: false,
  // JavaScriptCore's tier-up thresholds ×100: most of a session's code runs a few times, and its
  // JIT compiles (the compilers' own code, the machine code and its metadata) were ~10 MiB of a
  // `clew -p` run's ~70 MiB peak RSS and CPU time on the critical path. Code that really is hot
  // (a long loop, a big search) still gets compiled, a few tens of milliseconds later.
  jitPolicy: 100,
};
