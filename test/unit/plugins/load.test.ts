// loadPlugin and readMarketplace on real temporary folders: the component folders handed to the
// extensions layer (plugins.md §4, marketplaces.md §5.3), hooks, servers, bin/, dependencies and
// the path rules — and that bad input is reported, never thrown.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { loadPlugin } from "../../../src/plugins/load.ts";
import { readMarketplace } from "../../../src/plugins/marketplace-file.ts";
import { md, tempDir, writeTree } from "../extensions/helpers.ts";

const codes = (problems: readonly { level: string; code: string; field?: string }[]): string[] => problems.map((problem) => `${problem.level} ${problem.code} ${problem.field ?? "-"}`);

describe("loadPlugin", () => {
  test("a plugin without a manifest: default folders, named after its folder, id name@inline", () => {
    const root = join(tempDir(), "plain");
    writeTree(root, { "skills/a/SKILL.md": md(["name: a", "description: A"]), "commands/c.md": md(["description: C"]) });
    const plugin = loadPlugin({ root });
    expect(plugin).toMatchObject({ name: "plain", id: "plain@inline", root, problems: [], hooks: [], mcpServers: {}, lspServers: {}, dependencies: [] });
    expect(plugin.components).toEqual({ skills: [], skillsReplaceDefault: false, commands: [join(root, "commands")], agents: [join(root, "agents")], outputStyles: [join(root, "output-styles")] });
    expect(plugin.manifestFile).toBeUndefined();
  });

  test("manifest paths: skills add, commands and agents replace (with a note for the unread default folder), bad paths reported", () => {
    const root = tempDir();
    writeTree(root, {
      ".claude-plugin/plugin.json": JSON.stringify({
        name: "acme",
        version: "2.0.0",
        skills: ["./extra", "./missing"],
        commands: ["./more/", "/etc/passwd"],
        agents: "./reviewers/security.md",
        dependencies: ["lint", { name: "git-tools", version: "^2.0", marketplace: "other" }],
      }),
      "extra/x/SKILL.md": md(["name: x", "description: X"]),
      "more/deploy.md": md(["description: Deploy"]),
      "commands/old.md": md(["description: Old"]),
      "reviewers/security.md": md(["name: security", "description: Security review"]),
      "bin/acme-tool": "#!/bin/sh\n",
    });
    const plugin = loadPlugin({ root, marketplace: "tools" });
    expect(plugin).toMatchObject({ name: "acme", id: "acme@tools", version: "2.0.0", binDir: join(root, "bin"), dependencies: ["lint", "git-tools@other ^2.0"] });
    expect(plugin.components).toEqual({
      skills: [join(root, "extra")],
      skillsReplaceDefault: false,
      commands: [join(root, "more")],
      agents: [join(root, "reviewers/security.md")],
      outputStyles: [join(root, "output-styles")],
    });
    expect(codes(plugin.problems)).toEqual(["error path-not-found skills", "error path-invalid commands", "note default-folder-ignored commands"]);
    expect(plugin.problems.every((problem) => problem.file === join(root, ".claude-plugin/plugin.json"))).toBe(true);
  });

  test("a root SKILL.md without skills/ is a single-skill plugin: the root is its skills folder", () => {
    const root = tempDir();
    writeTree(root, { "SKILL.md": md(["name: scan", "description: Scan"]) });
    expect(loadPlugin({ root, name: "scan" }).components.skills).toEqual([root]);
  });

  test("a marketplace-root entry's listed skills replace the default scan; a strict: false entry is the manifest", () => {
    const market = tempDir();
    writeTree(market, {
      ".claude-plugin/marketplace.json": JSON.stringify({
        name: "docs",
        owner: { name: "Docs team" },
        description: "Document skills",
        plugins: [{ name: "xlsx-only", source: "./", strict: false, skills: ["./skills/xlsx"], mcpServers: { sheets: { command: "sheets-mcp" } } }],
      }),
      "skills/xlsx/SKILL.md": md(["name: xlsx", "description: Spreadsheets"]),
      "skills/pdf/SKILL.md": md(["name: pdf", "description: PDFs"]),
    });
    const { marketplace, problems } = readMarketplace(market);
    expect(problems).toEqual([]);
    const entry = marketplace?.entries[0];
    expect(entry).toMatchObject({ index: 0, name: "xlsx-only", source: { kind: "relative", path: "." }, strict: false });
    if (entry === undefined) throw new Error("no entry");
    const plugin = loadPlugin({ root: market, entry, marketplace: "docs", marketplaceRoot: market });
    expect(plugin.components.skills).toEqual([join(market, "skills/xlsx")]);
    expect(plugin.components.skillsReplaceDefault).toBe(true);
    expect(plugin.manifest).toBe(entry.raw);
    expect(plugin.mcpServers).toEqual({ sheets: { file: join(market, ".claude-plugin/marketplace.json"), config: { command: "sheets-mcp" } } });
  });

  test("hooks: the default file, a second file and an inline map all load; handlers keep their files", () => {
    const root = tempDir();
    const handler = { type: "command", command: "echo hi" };
    writeTree(root, {
      ".claude-plugin/plugin.json": JSON.stringify({ name: "hooky", hooks: ["./more-hooks.json", { hooks: { Stop: [{ hooks: [handler] }] } }] }),
      "hooks/hooks.json": JSON.stringify({ description: "defaults", hooks: { PreToolUse: [{ matcher: "Bash", hooks: [handler] }] } }),
      "more-hooks.json": JSON.stringify({ hooks: { PostToolUse: [{ hooks: [handler, handler] }] } }),
    });
    const plugin = loadPlugin({ root });
    expect(plugin.problems).toEqual([]);
    expect(plugin.hooks).toEqual([
      { file: join(root, "hooks/hooks.json"), hooks: { PreToolUse: [{ matcher: "Bash", hooks: [handler] }] } },
      { file: join(root, "more-hooks.json"), hooks: { PostToolUse: [{ hooks: [handler, handler] }] } },
      { file: join(root, ".claude-plugin/plugin.json"), hooks: { Stop: [{ hooks: [handler] }] } },
    ]);
  });

  test("a hooks file with a syntax error and an MCP server without command or url: reported, the rest loads", () => {
    const root = tempDir();
    writeTree(root, {
      "hooks/hooks.json": "{ \"hooks\": ",
      ".mcp.json": JSON.stringify({ mcpServers: { ok: { type: "http", url: "https://mcp.example.org" }, nothing: { type: "stdio" } } }),
      ".lsp.json": JSON.stringify({ gopls: { command: "gopls", extensionToLanguage: { ".go": "go" } } }),
    });
    const plugin = loadPlugin({ root });
    expect(codes(plugin.problems)).toEqual(["error hooks-json-error -", "error mcp-server-invalid mcpServers.nothing"]);
    expect(Object.keys(plugin.mcpServers)).toEqual(["ok"]);
    expect(Object.keys(plugin.lspServers)).toEqual(["gopls"]);
  });

  test("a folder that is not there, or a manifest without a name: reported, never thrown", () => {
    const gone = loadPlugin({ root: join(tempDir(), "nope") });
    expect(gone.invalid).toStartWith("source directory not found: ");
    expect(codes(gone.problems)).toEqual(["error entry-invalid -"]);
    const root = tempDir();
    writeTree(root, { ".claude-plugin/plugin.json": JSON.stringify({ version: "1.0.0", keywords: "x" }) });
    const unnamed = loadPlugin({ root, name: "fallback" });
    expect(unnamed.name).toBe("fallback");
    expect(codes(unnamed.problems)).toEqual(["error manifest-invalid-field keywords", "error manifest-no-name name"]);
  });
});

describe("readMarketplace", () => {
  test("source forms, pluginRoot for bare names, duplicate names, reserved names", () => {
    const market = tempDir();
    writeTree(market, {
      ".claude-plugin/marketplace.json": JSON.stringify({
        name: "claude-plugins-official",
        owner: { name: "Someone" },
        metadata: { description: "old place for the description", pluginRoot: "./plugins" },
        plugins: [
          { name: "bare", source: "bare" },
          { name: "gh", source: { source: "github", repo: "o/r", ref: "v1" } },
          { name: "sub", source: { source: "url", url: "https://x.org/r.git", path: "p", sha: "abc" } },
          { name: "gh", source: "./plugins/gh" },
          { name: "npm-one", source: { source: "npm", package: "@s/p", version: "^1" } },
        ],
      }),
    });
    const { marketplace, problems } = readMarketplace(market);
    expect(marketplace?.entries.map((entry) => entry.source)).toEqual([
      { kind: "relative", path: "plugins/bare" },
      { kind: "github", repo: "o/r", ref: "v1" },
      { kind: "url", url: "https://x.org/r.git", path: "p", sha: "abc" },
      { kind: "relative", path: "plugins/gh" },
      { kind: "npm", package: "@s/p", version: "^1" },
    ]);
    expect(marketplace).toMatchObject({ name: "claude-plugins-official", ownerName: "Someone", description: "old place for the description", root: market });
    expect(codes(problems)).toEqual(["note marketplace-name-reserved name", "warning source-form plugins[2].source", "error entry-duplicate-name plugins[3].name"]);
  });

  test("a marketplace.json that is not JSON: no catalog, one error naming the file", () => {
    const market = tempDir();
    writeTree(market, { ".claude-plugin/marketplace.json": "{ nope" });
    const { marketplace, problems } = readMarketplace(market);
    expect(marketplace).toBeUndefined();
    expect(problems).toMatchObject([{ level: "error", code: "marketplace-json-error", file: join(market, ".claude-plugin/marketplace.json") }]);
  });
});
