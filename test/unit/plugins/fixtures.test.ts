// One fixture marketplace per validation rule (test/fixtures/plugins/README.md): the rule's finding
// is reported with its code, level, file and field, and the `good` plugin beside it still loads.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { type PluginReport, validatePath } from "../../../src/app/plugin-validate.ts";

const FIXTURES = join(import.meta.dir, "../../fixtures/plugins");

async function marketplace(name: string): Promise<{ passed: boolean; plugins: PluginReport[] }> {
  const report = await validatePath(join(FIXTURES, name), { strict: false });
  expect(report.kind).toBe("marketplace");
  expect(report.marketplace?.issues).toEqual([]);
  const plugins = report.marketplace?.plugins ?? [];
  // The neighbour that breaks no rule loads in full, whatever its neighbour does.
  expect(plugins[0]).toMatchObject({ name: "good", status: "loaded", skills: ["hello"], commands: ["greet"], agents: [], issues: [] });
  return { passed: report.passed, plugins };
}

/** The findings of one plugin as `level code file field`. */
function findings(plugin: PluginReport | undefined): string[] {
  return (plugin?.issues ?? []).map((issue) => `${issue.level} ${issue.code} ${issue.file} ${issue.field ?? "-"}`);
}

describe("validation rules, one fixture each", () => {
  test("broken plugin.json JSON: that plugin is invalid, with the parse error named", async () => {
    const { passed, plugins } = await marketplace("broken-manifest-json");
    expect(passed).toBe(false);
    expect(plugins[1]).toMatchObject({ name: "broken", status: "invalid", hasManifest: true, commands: [] });
    expect(plugins[1]?.invalidReason).toStartWith("plugin.json is not valid JSON (");
    expect(findings(plugins[1])).toEqual(["error manifest-json-error plugins/broken/.claude-plugin/plugin.json -"]);
  });

  test("bad YAML frontmatter: the command still loads, with its fields recovered, and a yaml-error warning", async () => {
    const { passed, plugins } = await marketplace("bad-yaml");
    expect(passed).toBe(true);
    expect(plugins[1]).toMatchObject({ name: "yaml", status: "loaded", commands: ["add-thing"] });
    expect(findings(plugins[1])).toEqual(["warning yaml-error plugins/yaml/commands/add-thing.md -"]);
    expect(plugins[1]?.issues[0]?.message).toContain("description, argument-hint read line by line");
  });

  test("the default hooks file declared again: an error, and its handlers counted once", async () => {
    const { passed, plugins } = await marketplace("duplicate-hooks");
    expect(passed).toBe(false);
    expect(plugins[1]).toMatchObject({ name: "dup", status: "loaded", hookEvents: { SessionStart: 1, Stop: 2 }, hookHandlers: 3 });
    expect(findings(plugins[1])).toEqual(["error hooks-duplicate-file plugins/dup/.claude-plugin/plugin.json hooks"]);
  });

  test("a source folder that does not exist: that entry is invalid with the reason", async () => {
    const { plugins } = await marketplace("missing-folder");
    expect(plugins[1]).toMatchObject({ name: "gone", status: "invalid", sourceKind: "relative", invalidReason: "source directory not found: plugins/gone" });
    expect(findings(plugins[1])).toEqual(["error entry-invalid .claude-plugin/marketplace.json plugins[1].source"]);
  });

  test("a bare .mcp.json: the server is listed, with a warning", async () => {
    const { passed, plugins } = await marketplace("bare-mcp-json");
    expect(passed).toBe(true);
    expect(plugins[1]).toMatchObject({ name: "tracker", status: "loaded", mcpServers: ["tracker"] });
    expect(findings(plugins[1])).toEqual(["warning mcp-bare-map plugins/tracker/.mcp.json -"]);
  });

  test("strict: false with components in both plugin.json and the entry: conflicting manifests, invalid", async () => {
    const { plugins } = await marketplace("conflicting-manifests");
    expect(plugins[1]).toMatchObject({ name: "both", status: "invalid", strict: false, skills: [], commands: [] });
    expect(plugins[1]?.invalidReason).toContain("conflicting manifests");
    expect(findings(plugins[1])).toEqual(["error conflicting-manifests plugins/both/.claude-plugin/plugin.json -"]);
  });

  test("unknown fields: a near-miss is a warning with the suggestion, foreign keys are notes", async () => {
    const { passed, plugins } = await marketplace("unknown-field");
    expect(passed).toBe(true);
    expect(plugins[1]).toMatchObject({ name: "odd", status: "loaded", agents: ["reviewer"] });
    expect(findings(plugins[1]).sort()).toEqual([
      "note entry-unknown-key .claude-plugin/marketplace.json plugins[1].value_type",
      "note manifest-unknown-key plugins/odd/.claude-plugin/plugin.json category",
      "warning manifest-unknown-key plugins/odd/.claude-plugin/plugin.json descripton",
    ]);
    expect(plugins[1]?.issues.find((issue) => issue.field === "descripton")?.message).toContain('did you mean "description"?');
  });

  test("hooks/hooks.json that is []: hooks-malformed, no handlers, the plugin loads", async () => {
    const { plugins } = await marketplace("hooks-malformed");
    expect(plugins[1]).toMatchObject({ name: "arr", status: "loaded", hookEvents: {}, hookHandlers: 0 });
    expect(findings(plugins[1])).toEqual(["error hooks-malformed plugins/arr/hooks/hooks.json hooks"]);
  });

  test("bad source objects make only their entry invalid; a pinned remote is listed with its details", async () => {
    const { plugins } = await marketplace("bad-source");
    expect(plugins.slice(1).map((plugin) => ({ name: plugin.name, status: plugin.status, sourceKind: plugin.sourceKind, findings: findings(plugin) }))).toEqual([
      { name: "nogithubrepo", status: "invalid", sourceKind: "github", findings: ["error entry-invalid .claude-plugin/marketplace.json plugins[1].source"] },
      { name: "pip-one", status: "invalid", sourceKind: "pip", findings: ["error entry-invalid .claude-plugin/marketplace.json plugins[2].source"] },
      { name: "escapes", status: "invalid", sourceKind: "relative", findings: ["error entry-invalid .claude-plugin/marketplace.json plugins[3].source"] },
      { name: "pinned", status: "remote", sourceKind: "git-subdir", findings: [] },
    ]);
    expect(plugins[2]?.invalidReason).toContain('source type "pip" is not supported');
    expect(plugins[4]?.source).toEqual({ source: "git-subdir", url: "https://example.org/r.git", path: "plugins/p", ref: "v1", sha: "0123456789abcdef0123456789abcdef01234567" });
  });

  test("a strict: false entry is the manifest: its LSP servers load, an invalid one is skipped and named", async () => {
    const { plugins } = await marketplace("strict-false-lsp");
    expect(plugins[1]).toMatchObject({ name: "zig-lsp", status: "loaded", strict: false, hasManifest: false, lspServers: ["zls"] });
    expect(findings(plugins[1])).toEqual(["error lsp-server-invalid .claude-plugin/marketplace.json plugins[1].lspServers.broken"]);
  });
});
