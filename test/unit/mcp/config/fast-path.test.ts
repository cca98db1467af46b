// A run without MCP configuration reads a few files and loads neither zod nor jsonc-parser;
// zod loads with the first definition to check, jsonc-parser only to place a JSON error.
import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

function modulesLoaded(files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), "clew-mcp-fast-"));
  mkdirSync(join(dir, "config"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const run = Bun.spawnSync([process.execPath, join(import.meta.dir, "modules-loaded.ts"), dir], { stdout: "pipe", stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(run.stderr.toString());
  return JSON.parse(run.stdout.toString()) as unknown;
}

describe("start-up cost", () => {
  test("no configuration anywhere: nothing heavy is loaded", () => {
    expect(modulesLoaded({})).toEqual({ servers: 0, problems: 0, zod: false, jsonc: false });
  });

  test("an empty mcpServers object needs no schema either", () => {
    expect(modulesLoaded({ ".mcp.json": '{"mcpServers":{}}' })).toEqual({ servers: 0, problems: 0, zod: false, jsonc: false });
  });

  test("a plainly valid definition needs no zod; one with a field of the wrong type loads it for the message; a broken file loads jsonc-parser to say where", () => {
    expect(modulesLoaded({ ".mcp.json": '{"mcpServers":{"a":{"command":"x","args":["--stdio"],"env":{"K":"v"}}}}' })).toEqual({ servers: 1, problems: 0, zod: false, jsonc: false });
    expect(modulesLoaded({ ".mcp.json": '{"mcpServers":{"a":{"command":"x","args":"--stdio"}}}' })).toEqual({ servers: 0, problems: 1, zod: true, jsonc: false });
    expect(modulesLoaded({ ".mcp.json": '{"mcpServers":' })).toEqual({ servers: 0, problems: 1, zod: false, jsonc: true });
  });
});
