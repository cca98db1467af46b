// The binary's copy of the MCP SDK's protocol types (scripts/mcp-sdk-plugins.ts) builds each schema
// at its first use: every exported schema must describe and parse exactly as the published module's.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as published from "@modelcontextprotocol/sdk/types.js";
import { toJSONSchema, type ZodType } from "zod/v4";
import { deferSdkSchemas } from "../../../../scripts/mcp-sdk-plugins.ts";
import { deferredSchema } from "../../../../src/mcp/runtime/deferred-schema.ts";
import { builds } from "./deferred-schema-counter.ts";

const typesPath = Bun.resolveSync("@modelcontextprotocol/sdk/types.js", import.meta.dir);
const source = await Bun.file(typesPath).text();

/** The transformed module written to a real file (zod resolved from the SDK's folder) and imported. */
async function deferredModule(helper: string): Promise<Record<string, unknown>> {
  const code = deferSdkSchemas(source, helper).replace("from 'zod/v4'", `from ${JSON.stringify(Bun.resolveSync("zod/v4", typesPath))}`);
  const file = join(mkdtempSync(join(tmpdir(), "clew-sdk-types-")), "types.js");
  writeFileSync(file, code);
  return (await import(file)) as Record<string, unknown>;
}

const counted = await deferredModule(join(import.meta.dir, "deferred-schema-counter.ts"));
const real = published as unknown as Record<string, unknown>;
const schemaNames = Object.keys(real).filter((name) => name.endsWith("Schema"));
const describeSchema = (schema: unknown) => toJSONSchema(schema as ZodType, { unrepresentable: "any", io: "input" });

describe("the SDK's protocol types with deferred schemas", () => {
  test("nothing is built when the module is evaluated; a parse builds only what that schema is made of", () => {
    expect(builds.count).toBe(0);
    const schema = counted.ListToolsResultSchema as ZodType;
    expect(schema.parse({ tools: [{ name: "echo", inputSchema: { type: "object" } }] })).toEqual({ tools: [{ name: "echo", inputSchema: { type: "object" } }] });
    expect(builds.count).toBeGreaterThan(0);
    expect(builds.count).toBeLessThan(schemaNames.length / 4);
  });

  test("every exported schema describes the same JSON Schema as the published module's", () => {
    expect(schemaNames.length).toBeGreaterThan(100);
    const differing = schemaNames.filter((name) => JSON.stringify(describeSchema(counted[name])) !== JSON.stringify(describeSchema(real[name])));
    expect(differing).toEqual([]);
  });

  test("messages parse alike, valid ones to the same value and invalid ones with the same issues", () => {
    const cases: Array<[string, unknown]> = [
      ["JSONRPCMessageSchema", { jsonrpc: "2.0", id: 1, result: { tools: [] } }],
      ["JSONRPCMessageSchema", { jsonrpc: "2.0", method: "notifications/tools/list_changed" }],
      ["JSONRPCMessageSchema", { jsonrpc: "1.0", id: 1 }],
      ["InitializeResultSchema", { protocolVersion: "2025-06-18", capabilities: { tools: { listChanged: true } }, serverInfo: { name: "s", version: "1" }, instructions: "hi" }],
      ["InitializeResultSchema", { protocolVersion: 3, capabilities: {} }],
      ["CallToolResultSchema", { content: [{ type: "text", text: "ok" }, { type: "image", data: "aGk=", mimeType: "image/png" }], structuredContent: { a: 1 } }],
      ["CallToolResultSchema", { content: [{ type: "text" }] }],
      ["ListToolsResultSchema", { tools: [{ name: 1 }] }],
    ];
    for (const [name, value] of cases) {
      const outcome = (module: Record<string, unknown>) => {
        const result = (module[name] as ZodType).safeParse(value);
        return result.success ? { data: result.data } : { issues: result.error.issues };
      };
      expect(outcome(counted)).toEqual(outcome(real));
    }
  });

  test("a declaration the layout rule cannot delimit stops the build, naming it", () => {
    const broken = "import * as z from 'zod/v4';\nexport const FirstSchema = z.string()\nexport const SecondSchema = z.number();\n";
    expect(() => deferSdkSchemas(broken)).toThrow('the declaration "export const FirstSchema = z.string()" does not end with ";" before the next statement begins');
    expect(() => deferSdkSchemas("export const VERSION = '1';\n")).toThrow("0 of its 0 schema declarations deferred");
  });
});

describe("deferredSchema", () => {
  class Shape {
    readonly kind = "shape";
    describe(): string {
      return `a ${this.kind}`;
    }
  }

  test("builds once, at the first operation, and answers as the built object", () => {
    let made = 0;
    const stand = deferredSchema(() => {
      made++;
      const shape = new Shape();
      Object.defineProperty(shape, "_internal", { value: { id: 7 }, enumerable: false });
      return shape;
    });
    expect(made).toBe(0);
    expect(stand instanceof Shape).toBe(true);
    expect(stand.describe()).toBe("a shape");
    expect(Object.keys(stand)).toEqual(["kind"]);
    expect(Object.getOwnPropertyDescriptor(stand, "_internal")).toEqual({ value: { id: 7 }, writable: false, enumerable: false, configurable: false });
    expect("_internal" in stand).toBe(true);
    (stand as unknown as Record<string, unknown>).extra = 1;
    expect((stand as unknown as Record<string, unknown>).extra).toBe(1);
    expect(made).toBe(1);
  });
});
