// The parts of minimatch clew uses, as one ES module that util/glob-library.ts requires on first use.
export { braceExpand, minimatch, Minimatch } from "minimatch";
