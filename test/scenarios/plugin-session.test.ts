// Plugins in a session, against the compiled binary, with the repository's own plugins loaded in
// place through --plugin-dir: their skill (plugin:skill) in the catalogue, their agent in the
// Agent tool's list and runnable, their command expanded from -p, their hook blocking a commit
// with conflict markers, and a plugin's bin/ on the Bash tool's PATH and its stdio MCP server.
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { messagesOf, reply, startFakeAnthropic, toolNames, toolResults, type FakeServer, type RecordedRequest, type ScriptStep } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";
import { onlyTranscript, parseFrames, readLines, systemFrames } from "../helpers/scenario.ts";
import { FIXTURES } from "../integration/mcp-helpers.ts";

const REPO = resolve(import.meta.dir, "../..");
const COMMIT = join(REPO, "plugins/commit");
const REVIEW = join(REPO, "plugins/review");

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const systemText = (request: RecordedRequest) => JSON.stringify(request.body.system);

function gitRepo(): string {
  const dir = tempDirectory("clew-plugin-ws-");
  const git = (...args: string[]) => Bun.spawnSync(["git", "-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd: dir, stdout: "ignore", stderr: "ignore" });
  writeFileSync(join(dir, "a.txt"), "one\n");
  git("init", "-q");
  git("add", ".");
  git("commit", "-qm", "initial");
  return dir;
}

describe("plugins in a session (--plugin-dir)", () => {
  test("the review plugin: its skill is listed as review:review-diff, its agent runs as review:code-reviewer", async () => {
    const dir = gitRepo();
    const router: ScriptStep = (request) => (systemText(request).includes("You review code changes") ? reply().text("REVIEW: nothing to fix.") : reply().text("The reviewer found nothing."));
    server = await startFakeAnthropic({ script: [reply().toolUse("Agent", { description: "Review", prompt: "review the diff", subagent_type: "review:code-reviewer" }), router, router] });
    const run = await runClew(["-p", "review my changes", "--plugin-dir", REVIEW, "--output-format", "stream-json", "--verbose"], { cwd: dir, baseURL: server.url, configDir: tempDirectory("clew-config-") });
    expect(run.code).toBe(0);
    const first = server.requests[0] as RecordedRequest;
    expect(systemText(first)).toContain("review:review-diff");
    const agentTool = (first.body.tools as Array<{ name: string; description: string }>).find((tool) => tool.name === "Agent");
    expect(agentTool?.description).toContain("- review:code-reviewer: Reviews a diff for bugs");
    expect(toolResults(server.requests[2] as RecordedRequest)[0]?.text).toStartWith("REVIEW: nothing to fix.");
    const init = systemFrames(parseFrames(run.stdout), "init")[0] as Record<string, unknown>;
    expect(init.plugins).toEqual([{ name: "review", path: REVIEW }]);
  }, 60_000);

  test("the commit plugin: /commit:commit expands from -p; its hook refuses a commit with conflict markers", async () => {
    const dir = gitRepo();
    writeFileSync(join(dir, "a.txt"), "<<<<<<< HEAD\none\n=======\ntwo\n>>>>>>> other\n");
    Bun.spawnSync(["git", "add", "a.txt"], { cwd: dir });
    server = await startFakeAnthropic({ script: [reply().toolUse("Bash", { command: "git commit -m 'merge'" }), reply().text("Blocked, as it should be.")] });
    const run = await runClew(["-p", "/commit:commit after the merge", "--plugin-dir", COMMIT, "--permission-mode", "bypassPermissions"], { cwd: dir, baseURL: server.url, configDir: tempDirectory("clew-config-") });
    expect(run.code).toBe(0);
    const sent = JSON.stringify(messagesOf(server.requests[0] as RecordedRequest));
    expect(sent).toContain("Write one commit for the staged changes.");
    expect(sent).toContain("Context from the user: after the merge");
    expect(sent).toContain("M  a.txt");
    const result = toolResults(server.requests[1] as RecordedRequest)[0];
    expect(result?.isError).toBe(true);
    expect(result?.text).toContain("still contain merge conflict markers");
    const log = Bun.spawnSync(["git", "log", "--oneline"], { cwd: dir }).stdout.toString().trim().split("\n");
    expect(log.length).toBe(1);
  }, 60_000);

  test("a plugin's bin/ is on the Bash tool's PATH and its .mcp.json server runs as mcp__plugin_<plugin>_<server>", async () => {
    const plugin = tempDirectory("clew-plugin-");
    mkdirSync(join(plugin, ".claude-plugin"), { recursive: true });
    mkdirSync(join(plugin, "bin"));
    writeFileSync(join(plugin, ".claude-plugin/plugin.json"), JSON.stringify({ name: "tooling", version: "1.0.0" }));
    writeFileSync(join(plugin, "bin/hello-from-plugin"), "#!/bin/sh\necho PLUGIN-BIN-RAN\n");
    chmodSync(join(plugin, "bin/hello-from-plugin"), 0o755);
    writeFileSync(join(plugin, ".mcp.json"), JSON.stringify({ mcpServers: { fx: { command: "bun", args: [join(FIXTURES, "sdk-server.ts")], env: { PLUGIN_ROOT_SEEN: "${CLAUDE_PLUGIN_ROOT}" } } } }));
    server = await startFakeAnthropic({ script: [reply().toolUse("Bash", { command: "hello-from-plugin" }).toolUse("mcp__plugin_tooling_fx__echo", { text: "via plugin server" }), reply().text("done")] });
    const run = await runClew(["-p", "go", "--plugin-dir", plugin, "--permission-mode", "bypassPermissions"], { cwd: gitRepo(), baseURL: server.url, configDir: tempDirectory("clew-config-") });
    expect(run.code).toBe(0);
    expect(toolNames(server.requests[0] as RecordedRequest)).toContain("mcp__plugin_tooling_fx__echo");
    const results = toolResults(server.requests[1] as RecordedRequest);
    expect(results[0]?.text).toContain("PLUGIN-BIN-RAN");
    expect(results[1]?.text).toBe("via plugin server");
  }, 60_000);

  test("broken plugins (manifest JSON, bad YAML, duplicate hooks, bare .mcp.json) are reported precisely while the others work", async () => {
    const fixtures = join(REPO, "test/fixtures/plugins");
    const dirs = ["broken-manifest-json/plugins/broken", "bad-yaml/plugins/yaml", "duplicate-hooks/plugins/dup", "bare-mcp-json/plugins/tracker", "broken-manifest-json/plugins/good"].map((dir) => join(fixtures, dir));
    server = await startFakeAnthropic({ script: [reply().text("fine")] });
    const configDir = tempDirectory("clew-config-");
    const run = await runClew(["-p", "hi", "--output-format", "stream-json", "--verbose", ...dirs.flatMap((dir) => ["--plugin-dir", dir])], { cwd: gitRepo(), baseURL: server.url, configDir, env: { MCP_CONNECT_TIMEOUT_MS: "3000" } });
    expect(run.code).toBe(0);
    // The broken manifest is named with its file, and that plugin alone is left out.
    expect(run.stderr).toContain(join(fixtures, "broken-manifest-json/plugins/broken/.claude-plugin/plugin.json"));
    const system = JSON.stringify((server.requests[0] as RecordedRequest).body.system);
    expect(system).toContain("good:");
    // Bad YAML: the command still loads.
    expect(system).toContain("yaml:add-thing");
    const frames = parseFrames(run.stdout);
    // The hooks file declared twice runs once (the transcript records each hook run).
    const runs = (readLines(onlyTranscript(configDir)) ?? []).filter((line) => line.type === "system" && line.subtype === "hook" && line.event === "SessionStart");
    expect(runs.length).toBe(1);
    // The bare .mcp.json server is configured (and fails: its program is not there) without stopping the session.
    const init = systemFrames(frames, "init")[0] as unknown as { mcp_servers: Array<{ name: string; status: string }>; plugins: Array<{ name: string }> };
    expect(init.mcp_servers).toEqual([{ name: "plugin_tracker_tracker", status: "failed" }]);
    expect(init.plugins.map((plugin) => plugin.name).sort()).toEqual(["dup", "good", "tracker", "yaml"]);
  }, 60_000);
});
