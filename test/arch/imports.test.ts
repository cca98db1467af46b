// The dependency direction of ARCHITECTURE.md, checked on every import in src/: an import that
// is not in the table fails, so drift shows up in CI instead of piling up.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const SRC = resolve(import.meta.dir, "../../src");

type Access = "any" | "types";
const ALLOWED: Record<string, Record<string, Access>> = {
  util: {},
  settings: { util: "any" },
  model: { util: "any" },
  permissions: { util: "any" },
  store: { util: "any", model: "types" },
  hooks: { util: "any", settings: "types" },
  tools: { util: "any", permissions: "types", model: "types" },
  context: { util: "any", settings: "types", model: "types" },
  plugins: { util: "any", settings: "types" },
  extensions: { util: "any", settings: "types" },
  mcp: { util: "any", tools: "types", settings: "types" },
  loop: { util: "any", model: "types", tools: "types", permissions: "types", hooks: "types" },
  update: { util: "any", settings: "types" },
  telemetry: { util: "any", settings: "types", model: "types", loop: "types", tools: "types" },
  app: {
    util: "any", settings: "any", model: "any", permissions: "any", store: "any", hooks: "any", tools: "any",
    context: "any", plugins: "any", mcp: "any", loop: "any", update: "any", extensions: "any", telemetry: "any",
  },
  ui: { util: "any", app: "types", loop: "types", model: "types" },
  cli: { app: "any", ui: "any", util: "any", settings: "any", loop: "types", permissions: "types", model: "types" },
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}

function folderOf(path: string): string {
  return relative(SRC, path).split("/")[0] ?? "";
}

interface ImportEdge {
  from: string;
  target: string;
  typeOnly: boolean;
  dynamic: boolean;
}

/**
 * Modules allowed to import a heavy package statically, so the bundler can drop the parts clew
 * does not use (a dynamic import of a package keeps every export). Each must itself be loaded only
 * with `await import()`, which the test below checks.
 */
const LAZY_BOUNDARIES = new Set(["model/sdk.ts", "mcp/runtime/sdk.ts", "mcp/runtime/validator-shim.ts"]);

function importsOf(file: string): ImportEdge[] {
  const text = readFileSync(file, "utf8");
  const edges: ImportEdge[] = [];
  const pattern = /(?:^|\n)\s*(import|export)\s+(type\s+)?[^'"]*?from\s+["'](\.[^"']+)["']|import\(\s*["'](\.[^"']+)["']\s*\)/g;
  for (const match of text.matchAll(pattern)) {
    const spec = match[3] ?? match[4];
    if (!spec) continue;
    edges.push({ from: file, target: resolve(dirname(file), spec), typeOnly: match[2] !== undefined, dynamic: match[4] !== undefined });
  }
  return edges;
}

const files = sourceFiles(SRC);

describe("architecture", () => {
  test("every import follows the dependency table", () => {
    const violations: string[] = [];
    for (const file of files) {
      const from = folderOf(file);
      if (!from.endsWith(".ts") && !(from in ALLOWED)) violations.push(`${relative(SRC, file)}: folder '${from}' is not in the table`);
      for (const edge of importsOf(file)) {
        if (!edge.target.startsWith(SRC)) continue;
        const to = folderOf(edge.target);
        if (to === from || from.endsWith(".ts")) continue;
        const access = ALLOWED[from]?.[to];
        const typesModule = edge.target.endsWith("/types.ts") || edge.target.endsWith("/events.ts");
        if (access === "any") continue;
        if (access === "types" && (edge.typeOnly || typesModule)) continue;
        violations.push(`${relative(SRC, file)} → ${relative(SRC, edge.target)}${access === "types" ? " (only types allowed)" : ""}`);
      }
    }
    expect(violations).toEqual([]);
    // Guards against a parser that silently finds nothing.
    expect(files.flatMap(importsOf).length).toBeGreaterThan(50);
  });

  test("only settings/paths.ts reads the environment or the home directory", () => {
    const offenders = files.filter((file) => {
      if (relative(SRC, file) === "settings/paths.ts") return false;
      const text = readFileSync(file, "utf8");
      return /process\.env\b|\bhomedir\(\)/.test(text);
    });
    expect(offenders.map((file) => relative(SRC, file))).toEqual([]);
  });

  test("heavy modules are imported lazily", () => {
    const heavy = ["@anthropic-ai/sdk", "@modelcontextprotocol/sdk", "simple-git", "@clack/prompts"];
    const eager = files.flatMap((file) => {
      if (LAZY_BOUNDARIES.has(relative(SRC, file))) return [];
      const text = readFileSync(file, "utf8");
      return heavy
        .filter((name) => new RegExp(`^(?:import|export)\\s+(?!type\\b)[^;]*from\\s+["']${name.replace("/", "\\/")}`, "m").test(text))
        .map((name) => `${relative(SRC, file)} imports ${name} eagerly`);
    });
    expect(eager).toEqual([]);
  });

  test("lazy boundaries (modules that import a heavy package statically) are only loaded with import()", () => {
    const eager = files.flatMap((file) =>
      importsOf(file)
        .filter((edge) => !edge.typeOnly && !edge.dynamic && LAZY_BOUNDARIES.has(relative(SRC, edge.target)))
        .map((edge) => `${relative(SRC, file)} imports ${relative(SRC, edge.target)} statically`),
    );
    expect(eager).toEqual([]);
    for (const boundary of LAZY_BOUNDARIES) expect(files.map((file) => relative(SRC, file))).toContain(boundary);
  });

  test("jsonc-parser, minimatch and ignore load on first use: a session that edits no settings and matches no glob never evaluates them", () => {
    // Each is required (or imported) where it is first needed; minimatch through util/minimatch-esm.ts,
    // which only util/glob-library.ts's require() reaches, so the binary keeps one copy of it.
    const entry = "util/minimatch-esm.ts";
    const allowed: Record<string, string> = { minimatch: entry };
    const offenders = files.flatMap((file) => {
      const name = relative(SRC, file);
      const text = readFileSync(file, "utf8");
      const eager = ["jsonc-parser", "minimatch", "ignore"].filter((pkg) => allowed[pkg] !== name && new RegExp(`^(?:import|export)\\s+(?!type\\b)[^;]*from\\s+["']${pkg}["']`, "m").test(text));
      const staticEntry = importsOf(file).some((edge) => !edge.typeOnly && !edge.dynamic && relative(SRC, edge.target) === entry);
      return [...eager.map((pkg) => `${name} imports ${pkg} statically`), ...(staticEntry ? [`${name} imports ${entry} statically`] : [])];
    });
    expect(offenders).toEqual([]);
    expect(files.map((file) => relative(SRC, file))).toContain(entry);
  });

  test("zod is evaluated on first use: no static import of it outside util/zod-runtime.ts, which only require() reaches", () => {
    // Start-up builds no schema: tool JSON Schemas come from a build-time macro and settings keys
    // are checked key by key, each built on first use (see util/lazy-schema.ts).
    const runtimes = new Set(["util/zod-runtime.ts"]);
    const offenders = files.flatMap((file) => {
      const name = relative(SRC, file);
      if (runtimes.has(name)) return [];
      const text = readFileSync(file, "utf8");
      const staticZod = /^(?:import|export)\s+(?!type\b)[^;]*from\s+["']zod(?:\/[^"']*)?["']/m.test(text);
      const directRequire = /require\(\s*["']zod(?:\/[^"']*)?["']\s*\)/.test(text);
      const staticRuntime = importsOf(file).some((edge) => !edge.typeOnly && !edge.dynamic && runtimes.has(relative(SRC, edge.target)));
      return staticZod || directRequire || staticRuntime ? [name] : [];
    });
    expect(offenders).toEqual([]);
    for (const runtime of runtimes) expect(files.map((file) => relative(SRC, file))).toContain(runtime);
  });

  test("Node built-ins that cost start-up memory are imported on first use, not statically", () => {
    // A static import of these is evaluated when the compiled binary starts, even inside a
    // module that is itself loaded lazily (measured: node:crypto or node:stream ≈ +5 MB RSS).
    const costly = /^import\s+(?!type\b)[^;]*from\s+["']node:(crypto|child_process|stream|readline|tty|net|http|https|zlib|worker_threads|dns|tls)["']/m;
    const eager = files.filter((file) => costly.test(readFileSync(file, "utf8"))).map((file) => relative(SRC, file));
    expect(eager).toEqual([]);
  });

  test("no source file exceeds 450 lines", () => {
    const big = files
      .map((file) => ({ file: relative(SRC, file), lines: readFileSync(file, "utf8").split("\n").length }))
      .filter((entry) => entry.lines > 450);
    expect(big).toEqual([]);
  });
});
