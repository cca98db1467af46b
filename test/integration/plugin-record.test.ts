// The stored plugin record against real installs, each start in a process of its own: a warm start
// (front read, the rest when first asked for) gives the session exactly what the cold start that
// wrote the record gave it — sources, hooks and their start-up lines, MCP servers (a blank URL
// known at once, a URL variable looked at per start), checks; the rest is read through the file
// opened with the front; a rest that cannot be read refuses every plugin of the record, says so
// once and drops the record, and the next start loads from the folders again.
import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { writeTree } from "../helpers/files.ts";
import { installFrom, recordEnvironment, startInChild } from "../helpers/plugin-record.ts";
import { tempDir } from "../helpers/tool-session.ts";

const BROKEN = 11;
const configDir = tempDir("clew-record-home-");
const project = tempDir("clew-record-project-");

interface Start {
  ids: Array<{ name: string; path: string; id: string }>;
  problems: string[];
  hooks: { events: string[]; lineCount: number; firstLines: string[]; startUpLines: string[]; sources: Array<{ origin: { plugin: string; file: string }; hooks: unknown }> };
  servers: { length: number; names: Array<{ name: string; scope: string; disabled?: string }>; entries: Array<{ name: string; config: { type: string; args?: string[]; url?: string } }> };
  sources: Array<{ namespace: string; root: string; skills: string[]; guarded: boolean }>;
  sourceSet: { digest: string; anyFolder: boolean; immutable: boolean };
  admitted: string[];
  reported: string[];
  fronts: number;
  wrote: boolean;
}

const start = (afterLoad = "", env: Record<string, string> = {}): Start => startInChild<Start>(configDir, project, afterLoad, env);

let cold: Start;

beforeAll(async () => {
  const market = tempDir("clew-record-market-");
  const plugins = [{ name: "tools", source: "./tools" }, { name: "notes", source: "./notes" }, ...Array.from({ length: BROKEN }, (_, index) => ({ name: `broken-${index}`, source: `./broken-${index}` }))];
  writeTree(market, {
    ".claude-plugin/marketplace.json": JSON.stringify({ name: "acme", owner: { name: "Acme" }, plugins }),
    "tools/.claude-plugin/plugin.json": JSON.stringify({ name: "tools", version: "1.0.0" }),
    "tools/skills/alpha/SKILL.md": "---\nname: alpha\ndescription: Alpha skill\n---\nAlpha body.\n",
    "tools/agents/helper.md": "---\nname: helper\ndescription: Helps\n  with things\n---\nYou help.\n",
    "tools/hooks/hooks.json": JSON.stringify({ hooks: { PostToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "true" }] }] } }),
    "tools/.mcp.json": JSON.stringify({ mcpServers: { local: { command: "bun", args: ["${CLAUDE_PLUGIN_ROOT}/server.ts"] }, blank: { type: "http", url: "" }, templated: { type: "http", url: "${TOOLS_URL}" } } }),
    "notes/.claude-plugin/plugin.json": JSON.stringify({ name: "notes", version: "1.0.0" }),
    "notes/skills/beta/SKILL.md": "---\nname: beta\ndescription: Beta skill\n---\nBeta body.\n",
  });
  for (let index = 0; index < BROKEN; index++) {
    writeTree(market, {
      [`broken-${index}/.claude-plugin/plugin.json`]: JSON.stringify({ name: `broken-${index}`, version: "1.0.0" }),
      [`broken-${index}/hooks/hooks.json`]: JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash(", hooks: [{ type: "command", command: "true" }] }] } }),
    });
  }
  await installFrom(recordEnvironment(configDir, project), project, market, plugins.map((plugin) => plugin.name));
  cold = start();
}, 60_000);

describe("the stored plugin record", () => {
  test("the cold start that writes it gives the session every part of every plugin", () => {
    const tools = cold.ids.find((plugin) => plugin.id === "tools@acme")?.path ?? "";
    expect(cold.ids.map((plugin) => plugin.id).sort()).toEqual(["notes@acme", "tools@acme", ...Array.from({ length: BROKEN }, (_, index) => `broken-${index}@acme`)].sort());
    expect(cold.admitted).toHaveLength(BROKEN + 2);
    expect(cold.reported).toEqual([]);
    expect(cold.fronts).toBe(1);
    expect(cold.wrote).toBe(true);
    expect(cold.sourceSet).toEqual({ digest: cold.sourceSet.digest, anyFolder: true, immutable: true });
    expect(cold.sources.find((source) => source.namespace === "tools")).toEqual({ scope: "plugin", namespace: "tools", root: tools, skills: [join(tools, "skills")], commands: [join(tools, "commands")], agents: [join(tools, "agents")], pluginData: join(configDir, "plugins", "data", "tools-acme"), immutable: true, identity: expect.any(String), guarded: true } as unknown as Start["sources"][number]);
    expect(cold.servers.names).toEqual([
      { name: "plugin_tools_blank", scope: "plugin", disabled: `MCP server "plugin_tools_blank" has no URL configured (${join(tools, ".mcp.json")})` },
      { name: "plugin_tools_local", scope: "plugin" },
      { name: "plugin_tools_templated", scope: "plugin" },
    ]);
    expect(cold.servers.entries.map((entry) => [entry.name, entry.config.args ?? entry.config.url])).toEqual([
      ["plugin_tools_blank", ""],
      ["plugin_tools_local", [join(tools, "server.ts")]],
      ["plugin_tools_templated", "${TOOLS_URL}"],
    ]);
    expect(cold.hooks.events.sort()).toEqual(["PostToolUse", "PreToolUse"]);
    expect(cold.hooks.lineCount).toBe(BROKEN);
    expect(cold.hooks.sources.find((source) => source.origin.plugin === "tools@acme")?.hooks).toEqual({ PostToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "true" }] }] });
    // A start prints the first 8 hook problems and counts the rest.
    expect(cold.hooks.startUpLines).toHaveLength(2);
    expect(cold.hooks.startUpLines[0]?.split("\n")).toHaveLength(8);
    expect(cold.hooks.startUpLines[1]).toBe(`clew: ${BROKEN - 8} more problems in plugins' hooks; /hooks lists every hook with its problem.`);
  });

  // What a start that used the record gives, against what the one that wrote it gave.
  const asWarm = (result: Start) => ({ ...result, wrote: false });

  test("a warm start gives the session the same, the hooks' lines included from the few it keeps", () => {
    const warm = start();
    expect(warm.wrote).toBe(false);
    expect(warm).toEqual(asWarm(cold));
  });

  test("a URL variable is looked at by each start: empty in this one, that server cannot start", () => {
    const warm = start("", { TOOLS_URL: "" });
    const tools = cold.ids.find((plugin) => plugin.id === "tools@acme")?.path ?? "";
    expect(warm.servers.names.find((server) => server.name === "plugin_tools_templated")).toEqual({ name: "plugin_tools_templated", scope: "plugin", disabled: `MCP server "plugin_tools_templated" has no URL configured (${join(tools, ".mcp.json")})` });
    expect(warm.servers.entries.find((entry) => entry.name === "plugin_tools_templated")?.config.url).toBe("");
  });

  test("the rest is read through the file opened with the front: removing it meanwhile changes nothing; the next start, finding no rest, loads from the folders and writes both again", () => {
    expect(start("remove")).toEqual(asWarm(cold));
    expect(start()).toEqual(cold);
    expect(start()).toEqual(asWarm(cold));
  });

  test("a rest that cannot be read: every plugin refused, said once, the record dropped; the next start loads from the folders", () => {
    const garbled = start("garble");
    expect(garbled.reported).toHaveLength(1);
    expect(garbled.reported[0]).toContain("could not be read");
    expect(garbled.reported[0]).toContain("none of them is used in this session");
    expect(garbled.admitted).toEqual([]);
    expect(garbled.servers.entries).toEqual([]);
    expect(garbled.sources).toEqual([]);
    expect(garbled.fronts).toBe(0);
    expect(start()).toEqual(cold);
  });
});
