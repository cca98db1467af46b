// Writing definitions: other keys survive, a file that does not parse is never overwritten.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { addServerDefinition, findDefinitions, removeServerDefinition } from "../../../../src/mcp/config/edit.ts";
import { mcpSpace } from "./fixture.ts";

describe("editing definitions", () => {
  test("a broken clew.json or .mcp.json is refused with its position and left as it was", () => {
    const space = mcpSpace();
    const place = { configDir: space.configDir, cwd: space.cwd, projectDir: space.repo };
    const state = space.write("home/.clew/clew.json", '{\n  "mcpServers": {,\n}');
    expect(() => addServerDefinition(place, "user", "x", { command: "x" })).toThrow(expect.objectContaining({ code: "config", message: `error: ${state} is not valid JSON at line 2, column 18 (expected a value).` }));
    expect(readFileSync(state, "utf8")).toBe('{\n  "mcpServers": {,\n}');
    const project = space.write("repo/app/.mcp.json", "[1]");
    expect(() => addServerDefinition(place, "project", "x", { command: "x" })).toThrow(expect.objectContaining({ code: "config" }));
    expect(readFileSync(project, "utf8")).toBe("[1]");
  });

  test("local scope is keyed by the project directory; other keys of .mcp.json are kept", () => {
    const space = mcpSpace();
    const place = { configDir: space.configDir, cwd: space.cwd, projectDir: space.repo };
    space.write("repo/app/.mcp.json", { $comment: "team servers", mcpServers: { a: { command: "a" } } });
    addServerDefinition(place, "project", "b", { type: "stdio", command: "b", args: [], env: {} });
    addServerDefinition(place, "local", "c", { type: "stdio", command: "c", args: [], env: {} });
    expect(JSON.parse(readFileSync(join(space.cwd, ".mcp.json"), "utf8"))).toEqual({ $comment: "team servers", mcpServers: { a: { command: "a" }, b: { type: "stdio", command: "b", args: [], env: {} } } });
    expect(JSON.parse(readFileSync(join(space.configDir, "clew.json"), "utf8"))).toEqual({ projects: { [space.repo]: { mcpServers: { c: { type: "stdio", command: "c", args: [], env: {} } } } } });
    expect(findDefinitions(place, "c").map((found) => found.scope)).toEqual(["local"]);
    expect(removeServerDefinition(place, "a")).toEqual({ scope: "project", file: join(space.cwd, ".mcp.json"), definition: { command: "a" } });
  });
});
