// The repository's own marketplace (.claude-plugin/marketplace.json listing plugins/commit and
// plugins/review): it validates, and a clone of this repository added as a marketplace installs
// both plugins, whose components reach a session.
import { describe, expect, test } from "bun:test";
import { join, resolve } from "node:path";
import { reply, startFakeAnthropic, type RecordedRequest } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";

const REPO = resolve(import.meta.dir, "../..");

describe("first-party plugins", () => {
  test("clew plugin validate passes on the repository's marketplace, with both plugins loaded", async () => {
    const run = await runClew(["plugin", "validate", REPO, "--json", "--strict"], { cwd: REPO, configDir: tempDirectory("clew-config-") });
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { marketplace: { name: string; plugins: Array<{ name: string; status: string; skills: string[]; commands: string[]; agents: string[]; hookHandlers: number; issues: unknown[] }> } };
    expect(report.marketplace.name).toBe("clew-plugins");
    expect(report.marketplace.plugins.map((plugin) => [plugin.name, plugin.status, plugin.skills, plugin.commands, plugin.agents, plugin.hookHandlers, plugin.issues])).toEqual([
      ["commit", "loaded", [], ["commit"], [], 1, []],
      ["review", "loaded", ["review-diff"], [], ["code-reviewer"], 0, []],
    ]);
  });

  test("a clone of this repository added as a marketplace installs both plugins into a session", async () => {
    const clone = join(tempDirectory("clew-clone-"), "clew");
    expect(Bun.spawnSync(["git", "clone", "-q", REPO, clone]).exitCode).toBe(0);
    const configDir = tempDirectory("clew-config-");
    const project = tempDirectory("clew-project-");
    expect((await runClew(["plugin", "marketplace", "add", clone], { cwd: project, configDir })).code).toBe(0);
    for (const plugin of ["commit@clew-plugins", "review@clew-plugins"]) {
      const installed = await runClew(["plugin", "install", plugin], { cwd: project, configDir });
      expect(installed.stderr).toBe("");
      expect(installed.code).toBe(0);
    }
    const server = await startFakeAnthropic({ script: [reply().text("ready")] });
    try {
      const run = await runClew(["-p", "hi"], { cwd: project, baseURL: server.url, configDir });
      expect(run.code).toBe(0);
      const first = server.requests[0] as RecordedRequest;
      expect(JSON.stringify(first.body.system)).toContain("review:review-diff");
      const agentTool = (first.body.tools as Array<{ name: string; description: string }>).find((tool) => tool.name === "Agent");
      expect(agentTool?.description).toContain("review:code-reviewer");
    } finally {
      await server.close();
    }
  }, 60_000);
});
