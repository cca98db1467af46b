// Build plugins for the MCP SDK in the binary (scripts/build-options.ts uses them):
// - its client validates with ajv by default; the binary uses the SDK's lighter provider
//   (src/mcp/runtime/validator-shim.ts);
// - its protocol types (`dist/esm/types.js`) build every one of their ~160 top-level zod schemas
//   when the module is evaluated, while a client session parses with about fifty: the binary's
//   copy builds each at its first use (src/mcp/runtime/deferred-schema.ts; measured ~16,000 heap
//   objects fewer at a stdio server's connection).
import type { BunPlugin } from "bun";
import { resolve } from "node:path";

const root = resolve(import.meta.dir, "..");
export const DEFERRED_SCHEMA_MODULE = resolve(root, "src/mcp/runtime/deferred-schema.ts");

export const lighterSchemaValidator: BunPlugin = {
  name: "mcp-sdk-validator",
  setup(build) {
    build.onResolve({ filter: /validation\/ajv-provider\.js$/ }, (args) =>
      args.importer.includes("@modelcontextprotocol/sdk") ? { path: resolve(root, "src/mcp/runtime/validator-shim.ts") } : undefined,
    );
  },
};

const DECLARATION_START = /^(?:export )?const \w+Schema = /;
const DECLARATION = /^((?:export )?const \w+Schema = )([\s\S]*?);\s*$/;

/**
 * `source` (the SDK's types.js) with each `[export] const NameSchema = <expression>;` built by
 * `deferredSchema(() => <expression>)`, imported from `helper`. Statements are told apart by the
 * compiler's layout: each begins at the start of a line, and the lines that continue it are
 * indented or begin with a closing bracket. Throws when a declaration does not have that shape or
 * none is found (another SDK build): the build stops rather than ship the schemas eager unnoticed.
 */
export function deferSdkSchemas(source: string, helper: string = DEFERRED_SCHEMA_MODULE): string {
  const statements: string[][] = [];
  for (const line of source.split("\n")) {
    const last = statements.at(-1);
    if (last && (line === "" || /^[\s)\]}]/.test(line))) last.push(line);
    else statements.push([line]);
  }
  let deferred = 0;
  const out = statements.map((lines) => {
    const text = lines.join("\n");
    if (!DECLARATION_START.test(text)) return text;
    const match = DECLARATION.exec(text);
    if (!match) throw new Error(`@modelcontextprotocol/sdk types.js: the declaration ${JSON.stringify(text.slice(0, 80))} does not end with ";" before the next statement begins; scripts/mcp-sdk-plugins.ts cannot defer it`);
    deferred++;
    return `${match[1]}/* @__PURE__ */ deferredSchema(() => (${match[2]}));`;
  });
  const declared = source.match(new RegExp(DECLARATION_START.source, "gm"))?.length ?? 0;
  if (deferred === 0 || deferred !== declared) throw new Error(`@modelcontextprotocol/sdk types.js: ${deferred} of its ${declared} schema declarations deferred; scripts/mcp-sdk-plugins.ts needs updating for this SDK version`);
  return `import { deferredSchema } from ${JSON.stringify(helper)};\n${out.join("\n")}`;
}

export const deferredSdkSchemas: BunPlugin = {
  name: "mcp-sdk-deferred-schemas",
  setup(build) {
    build.onLoad({ filter: /@modelcontextprotocol\/sdk\/dist\/esm\/types\.js$/ }, async (args) => ({ contents: deferSdkSchemas(await Bun.file(args.path).text()), loader: "js" }));
  },
};
