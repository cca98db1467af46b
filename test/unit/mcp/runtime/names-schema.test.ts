import { describe, expect, test } from "bun:test";
import { capText, mcpName, uniqueMcpName } from "../../../../src/mcp/runtime/names.ts";
import { flattenInputSchema } from "../../../../src/mcp/runtime/schema.ts";
import { mapPromptArgs, splitWords } from "../../../../src/mcp/runtime/prompt-args.ts";

describe("MCP tool names", () => {
  test("characters outside [A-Za-z0-9_-] become _", () => {
    expect(mcpName("my server", "read.file/v2")).toBe("mcp__my_server__read_file_v2");
    expect(mcpName("gh-1", "list_issues")).toBe("mcp__gh-1__list_issues");
  });

  test("names over 64 characters are cut with a hash suffix that keeps long names apart", () => {
    const a = mcpName("server", `${"a".repeat(70)}_one`);
    const b = mcpName("server", `${"a".repeat(70)}_two`);
    expect(a.length).toBe(64);
    expect(b.length).toBe(64);
    expect(a).not.toBe(b);
    expect(a.startsWith("mcp__server__aaaa")).toBe(true);
    expect(mcpName("server", `${"a".repeat(70)}_one`)).toBe(a);
  });

  test("two tools that normalise alike get distinct names", () => {
    const taken = new Set<string>();
    const first = uniqueMcpName("s", "a.b", taken);
    taken.add(first);
    const second = uniqueMcpName("s", "a_b", taken);
    expect(first).toBe("mcp__s__a_b");
    expect(second).not.toBe(first);
    expect(second.startsWith("mcp__s__a_b_")).toBe(true);
  });

  test("descriptions are capped at 2 KB", () => {
    expect(capText("x".repeat(5000)).length).toBe(2048);
    expect(capText("short")).toBe("short");
  });
});

describe("input schema flattening", () => {
  test("a plain object schema passes unchanged", () => {
    const schema = { type: "object" as const, properties: { a: { type: "string" } }, required: ["a"] };
    expect(flattenInputSchema(schema)).toEqual({ ok: true, schema });
  });

  test("root oneOf merges the branches' properties and explains the groups", () => {
    const result = flattenInputSchema({
      type: "object",
      properties: { verbose: { type: "boolean" } },
      oneOf: [
        { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
        { type: "object", properties: { url: { type: "string" }, depth: { type: "number" } }, required: ["url"] },
      ],
    });
    expect(result).toEqual({
      ok: true,
      schema: {
        type: "object",
        properties: { verbose: { type: "boolean" }, path: { type: "string" }, url: { type: "string" }, depth: { type: "number" } },
      },
      note: "Pass the parameters of exactly one of these groups: (1) path (required); (2) url (required), depth.",
    });
  });

  test("anyOf keeps what every branch requires; allOf requires everything", () => {
    const any = flattenInputSchema({ anyOf: [{ properties: { a: {}, b: {} }, required: ["a", "b"] }, { properties: { a: {} }, required: ["a"] }] });
    expect(any.ok && any.schema.required).toEqual(["a"]);
    const all = flattenInputSchema({ allOf: [{ properties: { a: {} }, required: ["a"] }, { properties: { b: {} }, required: ["b"] }] });
    expect(all).toEqual({ ok: true, schema: { type: "object", properties: { a: {}, b: {} }, required: ["a", "b"] } });
  });

  test("a branch that is not an object schema makes the tool unavailable, with the reason", () => {
    expect(flattenInputSchema({ oneOf: [{ type: "string" }, { type: "object" }] })).toEqual({
      ok: false,
      reason: "its inputSchema's root oneOf[0] is not a plain object schema, so it cannot be flattened into one object",
    });
    expect(flattenInputSchema({ type: "array" })).toEqual({ ok: false, reason: 'its inputSchema has type "array", not "object"' });
  });
});

describe("prompt arguments", () => {
  const prompt = {
    server: "s",
    name: "greet",
    command: "mcp__s__greet",
    description: "",
    arguments: [
      { name: "name", required: true },
      { name: "style", required: false },
    ],
  };

  test("words map to the declared arguments in order; the last takes the rest", () => {
    expect(mapPromptArgs(prompt, "Ann very cheerful")).toEqual({ ok: true, values: { name: "Ann", style: "very cheerful" } });
    expect(mapPromptArgs(prompt, '"Ann Lee" warm')).toEqual({ ok: true, values: { name: "Ann Lee", style: "warm" } });
    expect(mapPromptArgs(prompt, "Ann")).toEqual({ ok: true, values: { name: "Ann" } });
  });

  test("a missing required argument says the usage", () => {
    expect(mapPromptArgs(prompt, "  ")).toEqual({ ok: false, message: "/mcp__s__greet needs name: /mcp__s__greet <name> [style]" });
  });

  test("quoted words keep their spaces", () => {
    expect(splitWords('a "b c" d\\"e')).toEqual(["a", "b c", 'd\\"e']);
  });
});
