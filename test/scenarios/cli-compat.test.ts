// Claude Code command-line behaviours scripts rely on, against the compiled binary:
// `auth status` (exit 0 with a credential, 1 without, Claude Code's JSON fields, settings' `env`
// block counted), `setup-token` / `agents` / `purge` refused by name instead of sent as a prompt,
// `--permission-mode auto` starting in default mode, `viewMode: "verbose"` giving json's message
// array, and CLAUDE_CODE_SUBPROCESS_ENV_SCRUB keeping credentials from Bash, hooks and MCP servers.
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startFakeAnthropic, toolResults, type FakeServer } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";
import { requestAt } from "../helpers/scenario.ts";
import { writeWorkspace } from "./workspaces.ts";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("auth status", () => {
  test("exit 0 and the credential's source with a key, 1 without; the settings' env block counts; --text is prose", async () => {
    const cwd = writeWorkspace({ "a.txt": "a\n" });
    const configDir = tempDirectory("clew-config-");
    const withKey = await runClew(["auth", "status"], { cwd, configDir, env: { ANTHROPIC_API_KEY: "sk-live" } });
    expect({ code: withKey.code, status: JSON.parse(withKey.stdout) }).toEqual({ code: 0, status: { loggedIn: true, authMethod: "api_key", apiProvider: "firstParty", apiKeySource: "ANTHROPIC_API_KEY" } });
    const none = await runClew(["auth", "status", "--json"], { cwd, configDir });
    expect({ code: none.code, loggedIn: (JSON.parse(none.stdout) as { loggedIn: boolean }).loggedIn }).toEqual({ code: 1, loggedIn: false });
    writeFileSync(join(configDir, "settings.json"), JSON.stringify({ env: { ANTHROPIC_AUTH_TOKEN: "bearer-1" } }));
    const fromSettings = await runClew(["auth", "status", "--text"], { cwd, configDir });
    expect(fromSettings.code).toBe(0);
    expect(fromSettings.stdout).toContain("ANTHROPIC_AUTH_TOKEN");
    const login = await runClew(["auth", "login"], { cwd, configDir });
    expect(login.code).toBe(1);
    expect(login.stderr).toContain("ANTHROPIC_API_KEY");
  });

  test("setup-token, agents and purge are refused by name, never sent to the model", async () => {
    const fake = (server = await startFakeAnthropic({ script: [reply().text("should not be asked")] }));
    const cwd = writeWorkspace({ "a.txt": "a\n" });
    const configDir = tempDirectory("clew-config-");
    const runs = await Promise.all(["setup-token", "agents", "purge"].map((command) => runClew([command], { cwd, configDir, baseURL: fake.url })));
    expect(runs.map((run) => run.code)).toEqual([1, 1, 1]);
    expect(runs[0]?.stderr).toContain("setup-token");
    expect(runs[1]?.stderr).toContain("'agents' is not available");
    expect(fake.requests.filter((request) => request.endpoint === "messages")).toEqual([]);
  });
});

describe("session flags and settings", () => {
  test("--permission-mode auto starts in default mode and says so; a Bash call then asks (denied in -p)", async () => {
    const fake = (server = await startFakeAnthropic({ script: [reply().toolUse("Bash", { command: "touch made-by-bash" }), reply().text("done")] }));
    const cwd = writeWorkspace({ "a.txt": "a\n" });
    const run = await runClew(["-p", "go", "--permission-mode", "auto", "--output-format", "json"], { cwd, configDir: tempDirectory("clew-config-"), baseURL: fake.url });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("auto mode is not available in clew; starting in default mode");
    const result = JSON.parse(run.stdout) as { permission_denials: Array<{ tool_name: string }> };
    expect(result.permission_denials.map((denial) => denial.tool_name)).toEqual(["Bash"]);
  });

  test("text mode names each denied call on stderr (one line, the reason's first line); stdout keeps the answer, exit 0", async () => {
    const fake = (server = await startFakeAnthropic({ script: [reply().toolUse("Bash", { command: "git push origin main" }), reply().text("could not push")] }));
    const cwd = writeWorkspace({ "a.txt": "a\n" });
    const run = await runClew(["-p", "push it"], { cwd, configDir: tempDirectory("clew-config-"), baseURL: fake.url });
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 0, stdout: "could not push\n" });
    expect(run.stderr).toMatch(/^clew: denied Bash\(git push origin main\): \S.*$/m);
  });

  test("--agents takes a file holding the JSON as well as the JSON; a path that is neither is a usage error", async () => {
    const fake = (server = await startFakeAnthropic({ script: [reply().text("done")] }));
    const cwd = writeWorkspace({ "agents.json": JSON.stringify({ "file-reviewer": { description: "Reviews from a file", prompt: "You review." } }) });
    const configDir = tempDirectory("clew-config-");
    const fromFile = await runClew(["-p", "go", "--agents", "agents.json"], { cwd, configDir, baseURL: fake.url });
    expect(fromFile.code).toBe(0);
    const agentTool = (requestAt(fake, 0).body.tools as Array<{ name: string; description: string }>).find((tool) => tool.name === "Agent");
    expect(agentTool?.description).toContain("- file-reviewer: Reviews from a file");
    const missing = await runClew(["-p", "go", "--agents", "nowhere.json"], { cwd, configDir, baseURL: fake.url });
    expect({ code: missing.code, requests: fake.requests.length }).toEqual({ code: 1, requests: 1 });
    expect(missing.stderr).toContain("error: --agents nowhere.json: not a JSON object and not a readable file (ENOENT)");
  });

  test("--fail-on-denial: a run with a denied call ends as an error (exit 1, terminal_reason permission_denied), the answer kept in json", async () => {
    const cwd = writeWorkspace({ "a.txt": "a\n" });
    const configDir = tempDirectory("clew-config-");
    const run = async (args: string[]) => {
      const fake = (server = await startFakeAnthropic({ script: [reply().toolUse("Bash", { command: "git push origin main" }), reply().text("could not push")] }));
      const result = await runClew(["-p", "push it", "--fail-on-denial", ...args], { cwd, configDir, baseURL: fake.url });
      await fake.close();
      server = undefined;
      return result;
    };
    const text = await run([]);
    expect({ code: text.code, stdout: text.stdout }).toEqual({ code: 1, stdout: "Error: 1 tool call was denied (Bash) and --fail-on-denial is set\n" });
    const json = await run(["--output-format", "json"]);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ is_error: true, subtype: "error_during_execution", terminal_reason: "permission_denied", result: "could not push" });
  });

  test('viewMode "verbose" in settings makes --output-format json the message array, result last', async () => {
    const fake = (server = await startFakeAnthropic({ script: [reply().text("done")] }));
    const cwd = writeWorkspace({ ".claude/settings.local.json": JSON.stringify({ viewMode: "verbose" }) });
    const run = await runClew(["-p", "go", "--output-format", "json"], { cwd, configDir: tempDirectory("clew-config-"), baseURL: fake.url });
    const frames = JSON.parse(run.stdout) as Array<{ type: string }>;
    expect(Array.isArray(frames)).toBe(true);
    expect(frames.at(-1)?.type).toBe("result");
  });
});

describe("stream-json system/init", () => {
  test("slash_commands lists what -p can run (compact, the skills and commands the user may type) and skills the skills; the same from the cached summary", async () => {
    const cwd = writeWorkspace({
      ".claude/skills/deploy/SKILL.md": "---\nname: deploy\ndescription: Deploys\n---\nDeploy.\n",
      ".claude/skills/helper-only/SKILL.md": "---\nname: helper-only\ndescription: For the model\nuser-invocable: false\n---\nBody.\n",
      ".claude/commands/review.md": "---\ndescription: Reviews\n---\nReview.\n",
    });
    const configDir = tempDirectory("clew-config-");
    const init = async () => {
      const fake = (server = await startFakeAnthropic({ script: [reply().text("done")] }));
      const run = await runClew(["-p", "hi", "--output-format", "stream-json", "--verbose"], { cwd, configDir, baseURL: fake.url });
      await fake.close();
      server = undefined;
      const frame = JSON.parse(run.stdout.split("\n")[0] ?? "{}") as { subtype: string; slash_commands: string[]; skills: string[] };
      return { subtype: frame.subtype, slash_commands: frame.slash_commands, skills: frame.skills };
    };
    const expected = { subtype: "init", slash_commands: ["compact", "deploy", "review"], skills: ["deploy", "helper-only"] };
    expect(await init()).toEqual(expected);
    expect(await init()).toEqual(expected);
  });
});

describe("CLAUDE_CODE_SUBPROCESS_ENV_SCRUB", () => {
  const probe = 'echo "key=${ANTHROPIC_API_KEY:-none} aws=${AWS_SECRET_ACCESS_KEY:-none} gh=${GITHUB_TOKEN:-none}"';

  async function run(scrub: boolean) {
    const fake = (server = await startFakeAnthropic({ script: [reply().toolUse("Bash", { command: probe }), reply().toolUse("mcp__fx__env", {}), reply().text("done")] }));
    const hook = `${probe} > hook-env.txt`;
    const cwd = writeWorkspace({ ".claude/settings.local.json": JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: hook }] }] } }) });
    const env: Record<string, string> = { AWS_SECRET_ACCESS_KEY: "aws-secret", GITHUB_TOKEN: "ghs-job", ...(scrub ? { CLAUDE_CODE_SUBPROCESS_ENV_SCRUB: "1" } : {}) };
    const mcp = JSON.stringify({ mcpServers: { fx: { command: "bun", args: [join(import.meta.dir, "../mcp-servers/fixtures/sdk-server.ts")] } } });
    const result = await runClew(["-p", "go", "--permission-mode", "bypassPermissions", "--mcp-config", mcp], { cwd, configDir: tempDirectory("clew-config-"), baseURL: fake.url, env });
    const bash = toolResults(requestAt(fake, 1))[0]?.text ?? "";
    const reported = JSON.parse(toolResults(requestAt(fake, 2))[0]?.text ?? "{}") as { ANTHROPIC_API_KEY?: string };
    await fake.close();
    server = undefined;
    return { code: result.code, bash, mcpKey: reported.ANTHROPIC_API_KEY ?? "none", hook: readFileSync(join(cwd, "hook-env.txt"), "utf8").trim() };
  }

  test("on: Bash commands, hooks and stdio MCP servers see no API key or cloud secret, the GitHub token stays, and clew still reaches the API", async () => {
    const scrubbed = await run(true);
    expect(scrubbed.code).toBe(0);
    expect(scrubbed.bash).toContain("key=none aws=none gh=ghs-job");
    expect(scrubbed.hook).toBe("key=none aws=none gh=ghs-job");
    expect(scrubbed.mcpKey).toBe("none");
  });

  test("off (the default): they inherit the environment as before", async () => {
    const plain = await run(false);
    expect(plain.bash).toContain("key=sk-test-fake aws=aws-secret gh=ghs-job");
    expect(plain.hook).toBe("key=sk-test-fake aws=aws-secret gh=ghs-job");
    expect(plain.mcpKey).toBe("sk-test-fake");
  });
});
