// An installed plugin end to end, against the compiled binary with real git: a marketplace in a
// bare repository served by `git daemon` on 127.0.0.1, added and installed; the plugin's command,
// skill, agent, hook, stdio MCP server and bin/ all work in a fake-API scenario; an upstream commit
// then `update` brings the change to the next session; uninstall leaves no plugin files, settings
// entry or PATH entry behind.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { messagesOf, reply, startFakeAnthropic, toolNames, toolResults, type FakeServer, type RecordedRequest, type ScriptStep } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";
import { commitFile, gitRepoFrom, startGitDaemon, type GitDaemon, type TestRepo } from "../helpers/git-repos.ts";
import { writeWorkspace } from "./workspaces.ts";
import { FIXTURES } from "../integration/mcp-helpers.ts";

let server: FakeServer | undefined;
let daemon: GitDaemon | undefined;
let repo: TestRepo;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(async () => daemon?.stop());

const systemText = (request: RecordedRequest) => JSON.stringify(request.body.system);

function pluginFiles(version: string): Record<string, string> {
  return {
    ".claude-plugin/marketplace.json": JSON.stringify({ name: "acme", owner: { name: "Acme" }, plugins: [{ name: "toolkit", source: "./plugins/toolkit" }] }),
    "plugins/toolkit/.claude-plugin/plugin.json": JSON.stringify({ name: "toolkit", version }),
    "plugins/toolkit/commands/deploy.md": `---\ndescription: Deploy the app\n---\nDeploy to $ARGUMENTS. COMMAND-MARKER-${version}\n`,
    "plugins/toolkit/skills/changelog/SKILL.md": "---\nname: changelog\ndescription: Writes the changelog\n---\nWrite it.\n",
    "plugins/toolkit/agents/auditor.md": "---\nname: auditor\ndescription: Audits the code\ntools: Read, Bash\n---\nYou audit. AUDITOR-MARKER\n",
    "plugins/toolkit/hooks/hooks.json": JSON.stringify({ hooks: { PostToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "echo \"$CLAUDE_PLUGIN_ROOT\" > \"$CLAUDE_PROJECT_DIR/hook-saw-root\"" }] }] } }),
    "plugins/toolkit/.mcp.json": JSON.stringify({ mcpServers: { fx: { command: "bun", args: [join(FIXTURES, "sdk-server.ts")] } } }),
    "plugins/toolkit/bin/toolkit-hello": "#!/bin/sh\necho TOOLKIT-BIN\n",
  };
}

beforeAll(async () => {
  const source = writeWorkspace(pluginFiles("1.0.0"));
  Bun.spawnSync(["chmod", "+x", join(source, "plugins/toolkit/bin/toolkit-hello")]);
  const base = mkdtempSync(join(tmpdir(), "clew-daemon-"));
  repo = gitRepoFrom(source, { parent: base, name: "acme.git" });
  daemon = await startGitDaemon(base, repo.bare);
});

describe("an installed plugin", () => {
  test("add over git://, install; command, skill, agent, hook, MCP server and bin/ work; update brings an upstream change; uninstall leaves nothing", async () => {
    const configDir = tempDirectory("clew-config-");
    const project = writeWorkspace({ "a.txt": "a\n" });
    const url = daemon?.urlOf(repo.bare) ?? "";
    expect((await runClew(["plugin", "marketplace", "add", url], { cwd: project, configDir })).code).toBe(0);
    const install = await runClew(["plugin", "install", "toolkit@acme"], { cwd: project, configDir });
    expect(install.stderr).toBe("");
    expect(install.code).toBe(0);

    const router: ScriptStep = (request) => {
      if (systemText(request).includes("AUDITOR-MARKER")) return reply().text("AUDIT: clean");
      const last = JSON.stringify(messagesOf(request).at(-1));
      if (last.includes("AUDIT: clean")) return reply().text("all done");
      return reply().toolUse("Agent", { description: "Audit", prompt: "audit", subagent_type: "toolkit:auditor" });
    };
    server = await startFakeAnthropic({
      script: [reply().toolUse("Bash", { command: "toolkit-hello" }).toolUse("mcp__plugin_toolkit_fx__echo", { text: "from the plugin server" }), router, router, router],
    });
    const run = await runClew(["-p", "/toolkit:deploy staging", "--permission-mode", "bypassPermissions"], { cwd: project, baseURL: server.url, configDir });
    expect(run.code).toBe(0);
    const first = server.requests[0] as RecordedRequest;
    expect(JSON.stringify(messagesOf(first))).toContain("Deploy to staging. COMMAND-MARKER-1.0.0");
    expect(systemText(first)).toContain("toolkit:changelog");
    expect(toolNames(first)).toContain("mcp__plugin_toolkit_fx__echo");
    const results = toolResults(server.requests[1] as RecordedRequest);
    expect(results.map((result) => result.text)).toEqual(["TOOLKIT-BIN", "from the plugin server"]);
    expect(readFileSync(join(project, "hook-saw-root"), "utf8")).toContain(join(configDir, "plugins", "cache", "acme", "toolkit"));
    expect(toolResults(server.requests.at(-1) as RecordedRequest)[0]?.text).toStartWith("AUDIT: clean");
    await server.close();

    // Upstream changes the command; update brings it to the next session.
    repo = commitFile(repo, { "plugins/toolkit/commands/deploy.md": "---\ndescription: Deploy the app\n---\nDeploy to $ARGUMENTS. COMMAND-MARKER-2.0.0\n", "plugins/toolkit/.claude-plugin/plugin.json": JSON.stringify({ name: "toolkit", version: "2.0.0" }) });
    const update = await runClew(["plugin", "update", "toolkit@acme"], { cwd: project, configDir });
    expect(update.code).toBe(0);
    server = await startFakeAnthropic({ script: [reply().text("deployed")] });
    expect((await runClew(["-p", "/toolkit:deploy prod"], { cwd: project, baseURL: server.url, configDir })).code).toBe(0);
    expect(JSON.stringify(messagesOf(server.requests[0] as RecordedRequest))).toContain("COMMAND-MARKER-2.0.0");
    await server.close();

    // Removing the marketplace uninstalls its plugins first: no files, no settings entry, no bin/ on PATH in the next session.
    const removed = await runClew(["plugin", "marketplace", "remove", "acme"], { cwd: project, configDir });
    expect(removed.code).toBe(0);
    expect(removed.stdout + removed.stderr).toContain("Uninstalled toolkit@acme (user)");
    expect(readdirSync(join(configDir, "plugins", "cache")).flatMap((market) => readdirSync(join(configDir, "plugins", "cache", market)))).toEqual([]);
    expect(existsSync(join(configDir, "plugins", "data", "toolkit-acme"))).toBe(false);
    const settings = JSON.parse(readFileSync(join(configDir, "settings.json"), "utf8")) as { enabledPlugins?: Record<string, boolean> };
    expect(settings.enabledPlugins?.["toolkit@acme"]).toBeUndefined();
    server = await startFakeAnthropic({ script: [reply().toolUse("Bash", { command: "echo $PATH" }), reply().text("ok")] });
    expect((await runClew(["-p", "path?", "--permission-mode", "bypassPermissions"], { cwd: project, baseURL: server.url, configDir })).code).toBe(0);
    expect(toolResults(server.requests[1] as RecordedRequest)[0]?.text).not.toContain(join(configDir, "plugins"));
  }, 90_000);
});
