// `clew doctor` against the compiled binary, with no API key: settings problems, every hook with
// its file and why one does not run, skills and commands with their files and frontmatter
// warnings — and exit 1 when a check fails.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";
import { writeWorkspace } from "./workspaces.ts";

describe("clew doctor", () => {
  test("reports hooks (an unsupported type, a broken matcher), skills and their problems; exit 1 without credentials", async () => {
    const dir = writeWorkspace({
      ".claude/skills/deploy/SKILL.md": '---\nname: deploy\ndescription: Ship it\nargument-hint: [env] ["region"]\n---\nDeploy.\n',
      ".claude/commands/standup.md": "---\ndescription: Summarise yesterday\n---\nSummarise.\n",
    });
    mkdirSync(join(dir, ".clew"));
    const hooks = {
      PreToolUse: [{ matcher: "Bash(", hooks: [{ type: "command", command: "true" }] }],
      Stop: [{ hooks: [{ type: "agent", prompt: "check the work" }] }],
      PostToolUse: [{ matcher: "Edit", hooks: [{ type: "command", command: "echo formatted" }] }],
    };
    writeFileSync(join(dir, ".clew", "settings.local.json"), JSON.stringify({ hooks }));
    const run = await runClew(["doctor"], { cwd: dir, configDir: tempDirectory("clew-config-") });
    expect(run.code).toBe(1);
    const out = run.stdout;
    expect(out).toContain("✗ API credentials: none");
    expect(out).toContain("echo formatted");
    expect(out).toContain("not run: agent hooks are not supported yet");
    expect(out).toContain('hooks.PreToolUse[0].matcher "Bash(" is not a valid regular expression');
    expect(out).toContain("/deploy");
    expect(out).toContain("/standup");
    expect(out).toMatch(/\.claude\/skills\/deploy\/SKILL\.md:\d+: warning: frontmatter is not valid YAML/);
  });

  test("lists MCP server definitions with their approval state and the config problems, without starting any", async () => {
    const dir = writeWorkspace({});
    const marker = join(dir, "started");
    writeFileSync(join(dir, ".mcp.json"), JSON.stringify({ mcpServers: { bad: { url: "http://localhost:1/mcp" }, tools: { command: "sh", args: ["-c", `touch ${marker}`, "${NOT_SET_ANYWHERE}"] } } }));
    const run = await runClew(["doctor"], { cwd: dir, configDir: tempDirectory("clew-config-") });
    const out = run.stdout;
    expect(out).toContain("MCP servers:");
    expect(out).toContain(`tools (project, ${join(dir, ".mcp.json")}) — waiting for trust (run clew trust); unset: NOT_SET_ANYWHERE`);
    expect(out).toContain(`${join(dir, ".mcp.json")}: MCP server "bad" has a "url" but no "type"; add "type": "http" (or "sse" / "ws") to this entry`);
    expect(out).not.toContain("      clew: ");
    expect(existsSync(marker)).toBe(false);
  });

  test("API connectivity: an endpoint that answers (any status) passes; one that does not is named with the reason", async () => {
    const api = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("{}", { status: 401 }) });
    try {
      const up = await runClew(["doctor"], { cwd: writeWorkspace({}), configDir: tempDirectory("clew-config-"), baseURL: `http://127.0.0.1:${api.port}` });
      expect(up.stdout).toContain(`✓ API connectivity: 127.0.0.1:${api.port} answered (HTTP 401)`);
    } finally {
      api.stop(true);
    }
    const down = await runClew(["doctor"], { cwd: writeWorkspace({}), configDir: tempDirectory("clew-config-"), baseURL: "http://127.0.0.1:9" });
    expect(down.stdout).toContain("✗ API connectivity: 127.0.0.1:9 could not be reached (");
    expect(down.code).toBe(1);
  });

  test("skills whose descriptions the model's listing leaves out to fit its budget are named, with the ways out", async () => {
    const files: Record<string, string> = {};
    for (let index = 0; index < 12; index++) files[`.claude/skills/skill-${index}/SKILL.md`] = `---\nname: skill-${index}\ndescription: ${"A long description of what this skill does. ".repeat(3)}\n---\nBody.\n`;
    const cwd = writeWorkspace(files);
    const tight = await runClew(["doctor"], { cwd, configDir: tempDirectory("clew-config-"), env: { SLASH_COMMAND_TOOL_CHAR_BUDGET: "600" } });
    expect(tight.stdout).toMatch(/The model's skill listing has room for 600 characters: \d+ of 12 descriptions are left out \(the names stay listed\): skill-/);
    expect(tight.stdout).toContain('Raise SLASH_COMMAND_TOOL_CHAR_BUDGET, or set skillOverrides "name-only"');
    const roomy = await runClew(["doctor"], { cwd, configDir: tempDirectory("clew-config-") });
    expect(roomy.stdout).not.toContain("descriptions are left out");
  });

  test("API credentials: a key the endpoint takes passes; one it refuses (401) fails doctor with the endpoint's words; another status gives no verdict", async () => {
    const refusing = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (request) =>
        new URL(request.url).pathname === "/v1/messages/count_tokens" && request.headers.get("x-api-key") === "sk-good"
          ? Response.json({ input_tokens: 3 })
          : Response.json({ type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } }, { status: 401 }),
    });
    const missing = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("not here", { status: 404 }) });
    try {
      const options = (port: number, key: string) => ({ cwd: writeWorkspace({}), configDir: tempDirectory("clew-config-"), env: { ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`, ANTHROPIC_API_KEY: key } });
      const good = await runClew(["doctor"], options(Number(refusing.port), "sk-good"));
      expect(good.stdout).toContain(`✓ API credentials accepted: 127.0.0.1:${refusing.port} took ANTHROPIC_API_KEY`);
      const bad = await runClew(["doctor"], options(Number(refusing.port), "sk-wrong"));
      expect(bad.stdout).toContain(`✗ API credentials accepted: 127.0.0.1:${refusing.port} refused ANTHROPIC_API_KEY (HTTP 401: invalid x-api-key)`);
      expect(bad.code).toBe(1);
      const unknown = await runClew(["doctor"], options(Number(missing.port), "sk-any"));
      expect(unknown.stdout).toContain(`✓ API connectivity: 127.0.0.1:${missing.port} answered (HTTP 404)`);
      expect(unknown.stdout).not.toContain("API credentials accepted");
    } finally {
      refusing.stop(true);
      missing.stop(true);
    }
  });
});
