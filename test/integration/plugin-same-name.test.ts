// Two enabled plugins of one name, from two marketplaces, each with an MCP server of one name: the
// servers would share a name (plugin_<plugin>_<server>) and their tools too, so only the first
// plugin's is named and started, the other is reported with its file — by the start that loads
// from the folders and by the next one, which reads the stored record; the rest of both plugins loads.
import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { writeTree } from "../helpers/files.ts";
import { installFrom, recordEnvironment, startInChild } from "../helpers/plugin-record.ts";
import { tempDir } from "../helpers/tool-session.ts";

const configDir = tempDir("clew-same-name-home-");
const project = tempDir("clew-same-name-project-");

interface Start {
  ids: Array<{ name: string; path: string; id: string }>;
  problems: string[];
  servers: { length: number; names: Array<{ name: string; scope: string }>; entries: Array<{ name: string; origin: string; pluginRoot?: string }> };
  sources: Array<{ namespace: string; root: string }>;
  wrote: boolean;
}

const start = (): Start => startInChild<Start>(configDir, project);

let cold: Start;
let warm: Start;

beforeAll(async () => {
  const env = recordEnvironment(configDir, project);
  for (const market of ["acme", "globex"]) {
    const dir = tempDir(`clew-same-name-${market}-`);
    writeTree(dir, {
      ".claude-plugin/marketplace.json": JSON.stringify({ name: market, owner: { name: market }, plugins: [{ name: "tools", source: "./tools" }] }),
      "tools/.claude-plugin/plugin.json": JSON.stringify({ name: "tools", version: "1.0.0" }),
      "tools/.mcp.json": JSON.stringify({ mcpServers: { local: { command: "bun", args: [`${market}-server.ts`] } } }),
      [`tools/skills/${market}-skill/SKILL.md`]: `---\nname: ${market}-skill\ndescription: From ${market}\n---\nBody.\n`,
    });
    await installFrom(env, project, dir, ["tools"]);
  }
  cold = start();
  warm = start();
}, 60_000);

describe("two enabled plugins of one name with an MCP server of one name", () => {
  test("only the first plugin's server is named and defined; the other is reported with its file", () => {
    const acme = cold.ids.find((plugin) => plugin.id === "tools@acme")?.path ?? "";
    const globex = cold.ids.find((plugin) => plugin.id === "tools@globex")?.path ?? "";
    expect(cold.ids.map((plugin) => plugin.id)).toEqual(["tools@acme", "tools@globex"]);
    expect(cold.servers.names).toEqual([{ name: "plugin_tools_local", scope: "plugin" }]);
    expect(cold.servers.entries.map((entry) => ({ name: entry.name, origin: entry.origin, pluginRoot: entry.pluginRoot }))).toEqual([{ name: "plugin_tools_local", origin: join(acme, ".mcp.json"), pluginRoot: acme }]);
    expect(cold.problems.filter((line) => line.includes("MCP server"))).toEqual([
      `clew: ${join(globex, ".mcp.json").replace(configDir, "~")}: MCP server "local" of tools@globex is not started: tools@acme has one of that name (plugin_tools_local), and their tools would clash; enable one of the two.`,
    ]);
    // Everything else of both plugins loads.
    expect(cold.sources.map((source) => source.root)).toEqual([acme, globex]);
  });

  test("the next start, from the stored record, names and reports the same", () => {
    expect(cold.wrote).toBe(true);
    expect(warm.wrote).toBe(false);
    expect({ problems: warm.problems, names: warm.servers.names, entries: warm.servers.entries }).toEqual({ problems: cold.problems, names: cold.servers.names, entries: cold.servers.entries });
  });
});
