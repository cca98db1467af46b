// What a start prints about many broken plugins, against the compiled binary: the first findings
// in full, then one line that counts the rest and names where to see them; problems in the user's
// own settings are always printed whole; the working plugins still load.
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { reply, startFakeAnthropic, type FakeServer, type RecordedRequest } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";
import { writeWorkspace } from "./workspaces.ts";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function pluginDirs(count: number, files: (index: number) => Record<string, string>): string[] {
  return Array.from({ length: count }, (_, index) => writeWorkspace(files(index)));
}

describe("start-up lines for many broken plugins", () => {
  test("12 plugins with a broken hook matcher: 8 lines, then one counting the other 4; a settings hook problem in full", async () => {
    const broken = pluginDirs(12, (index) => ({
      ".claude-plugin/plugin.json": JSON.stringify({ name: `p${index}` }),
      "hooks/hooks.json": JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash(", hooks: [{ type: "command", command: "true" }] }] } }),
      "skills/ok/SKILL.md": `---\nname: ok\ndescription: Skill of p${index}\n---\nBody.\n`,
    }));
    const configDir = tempDirectory("clew-config-");
    await Bun.write(join(configDir, "settings.json"), JSON.stringify({ hooks: { PostToolUse: [{ matcher: "Edit(", hooks: [{ type: "command", command: "true" }] }] } }));
    server = await startFakeAnthropic({ script: [reply().text("fine")] });
    const run = await runClew(["-p", "hi", ...broken.flatMap((dir) => ["--plugin-dir", dir])], { cwd: writeWorkspace({ "a.txt": "a\n" }), baseURL: server.url, configDir });
    expect(run.code).toBe(0);
    const lines = run.stderr.split("\n").filter((line) => line.startsWith("clew: "));
    const matcherLines = lines.filter((line) => line.includes("is not a valid regular expression"));
    // The settings file's own problem, and 8 of the 12 plugins' problems.
    expect(matcherLines.filter((line) => line.includes(join(configDir, "settings.json")))).toHaveLength(1);
    expect(matcherLines.filter((line) => line.includes("hooks.json"))).toHaveLength(8);
    expect(lines).toContain("clew: 4 more problems in plugins' hooks; /hooks lists every hook with its problem.");
    // Every plugin still loaded.
    const system = JSON.stringify((server.requests[0] as RecordedRequest).body.system);
    for (let index = 0; index < 12; index++) expect(system).toContain(`p${index}:ok`);
  }, 60_000);

  test("9 broken manifests are all printed (a tenth line would only say one more)", async () => {
    const broken = pluginDirs(9, () => ({ ".claude-plugin/plugin.json": "{ not json" }));
    server = await startFakeAnthropic({ script: [reply().text("fine")] });
    const run = await runClew(["-p", "hi", ...broken.flatMap((dir) => ["--plugin-dir", dir])], { cwd: writeWorkspace({ "a.txt": "a\n" }), baseURL: server.url, configDir: tempDirectory("clew-config-") });
    expect(run.code).toBe(0);
    for (const dir of broken) expect(run.stderr).toContain(join(dir, ".claude-plugin/plugin.json"));
    expect(run.stderr).not.toContain("more plugin problems");
  }, 60_000);

  test("12 broken manifests: 8 named, then one line with the count and the commands that show each", async () => {
    const broken = pluginDirs(12, () => ({ ".claude-plugin/plugin.json": "{ not json" }));
    server = await startFakeAnthropic({ script: [reply().text("fine")] });
    const run = await runClew(["-p", "hi", ...broken.flatMap((dir) => ["--plugin-dir", dir])], { cwd: writeWorkspace({ "a.txt": "a\n" }), baseURL: server.url, configDir: tempDirectory("clew-config-") });
    expect(run.code).toBe(0);
    expect(broken.filter((dir) => run.stderr.includes(join(dir, ".claude-plugin/plugin.json")))).toHaveLength(8);
    expect(run.stderr).toContain("clew: 4 more plugin problems; `clew plugin list` (installed) or `clew plugin validate <folder>` shows each plugin's.");
  }, 60_000);
});
