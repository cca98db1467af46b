// zod's runtime, reached only through `require` in lazy.ts. Requiring this ES module (not
// the package, whose `require` entry is the whole CommonJS build with every locale, ~560 KB) keeps
// the bundled zod small and its evaluation deferred to the first call.
export { z } from "zod";
