// Settings `skillOverrides` against the compiled binary: a user's skills offered as the setting
// says — "off" neither listed nor runnable (by the model or as /name), "user-invocable-only" kept
// from the model but typed /name works, "name-only" listed without its description, "on" and
// unnamed skills as written — and a change to the setting is seen by the next start (the cached
// start-up summary is not reused across settings).
import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { lastUserText, reply, startFakeAnthropic, toolResults, type FakeServer, type RecordedRequest, type ScriptStep } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";
import { requestAt } from "../helpers/scenario.ts";
import { writeWorkspace } from "./workspaces.ts";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const skill = (name: string, description: string) => `---\nname: ${name}\ndescription: ${description}\n---\nBODY-OF-${name.toUpperCase()}\n`;

function workspace(overrides: Record<string, string>): string {
  return writeWorkspace({
    ".claude/skills/alpha/SKILL.md": skill("alpha", "Alpha does the first thing"),
    ".claude/skills/bravo/SKILL.md": skill("bravo", "Bravo does the second thing"),
    ".claude/skills/charlie/SKILL.md": skill("charlie", "Charlie does the third thing"),
    ".claude/skills/delta/SKILL.md": skill("delta", "Delta does the fourth thing"),
    ".claude/settings.local.json": JSON.stringify({ skillOverrides: overrides }),
  });
}

async function run(cwd: string, configDir: string, prompt: string, script: ScriptStep[]) {
  const fake = (server = await startFakeAnthropic({ script, rejectInvalid: true }));
  const result = await runClew(["-p", prompt, "--output-format", "json", "--allowedTools", "Skill"], { cwd, configDir, baseURL: fake.url });
  await server.close();
  server = undefined;
  return { fake, result };
}

const systemText = (request: RecordedRequest) => JSON.stringify(request.body.system);

describe("skillOverrides", () => {
  test("off, user-invocable-only, name-only and on shape the listing and who may run each skill", async () => {
    const cwd = workspace({ alpha: "off", bravo: "user-invocable-only", charlie: "name-only", delta: "on" });
    const configDir = tempDirectory("clew-config-");
    const listed = await run(cwd, configDir, "go", [reply().toolUse("Skill", { skill: "bravo" }).toolUse("Skill", { skill: "alpha" }), reply().text("done")]);
    expect(listed.result.code).toBe(0);
    expect(listed.fake.violations).toEqual([]);
    const system = systemText(requestAt(listed.fake, 0));
    expect(system).toContain("- delta: Delta does the fourth thing");
    expect(system).toContain("- charlie\\n");
    expect(system).not.toContain("Charlie does the third thing");
    expect(system).not.toContain("- alpha");
    expect(system).not.toContain("- bravo");
    const [bravo, alpha] = toolResults(requestAt(listed.fake, 1));
    expect({ bravo: bravo?.isError, alpha: alpha?.isError }).toEqual({ bravo: true, alpha: true });
    expect(bravo?.text).toContain('skillOverrides: "bravo": "user-invocable-only"');
    expect(alpha?.text).toContain('skillOverrides: "alpha": "off"');
    expect(JSON.stringify(requestAt(listed.fake, 1).body)).not.toContain("BODY-OF-");

    // Typed by the user: user-invocable-only runs, off does not (and no request is made for it).
    const typed = await run(cwd, configDir, "/bravo", [reply().text("ran")]);
    expect(typed.result.code).toBe(0);
    expect(lastUserText(requestAt(typed.fake, 0))).toContain("BODY-OF-BRAVO");
    const off = await run(cwd, configDir, "/alpha", [reply().text("should not run")]);
    expect(JSON.stringify(off.fake.requests.filter((request) => request.endpoint === "messages").map((request) => request.body))).not.toContain("BODY-OF-ALPHA");
    expect(`${off.result.stdout}${off.result.stderr}`).toContain('skillOverrides: "alpha": "off"');
  });

  test("a changed setting is honoured by the next start, not served from the cached listing", async () => {
    const cwd = workspace({});
    const configDir = tempDirectory("clew-config-");
    const before = await run(cwd, configDir, "go", [reply().text("done")]);
    expect(systemText(requestAt(before.fake, 0))).toContain("- alpha: Alpha does the first thing");
    writeFileSync(join(cwd, ".claude/settings.local.json"), JSON.stringify({ skillOverrides: { alpha: "off" } }));
    const after = await run(cwd, configDir, "go", [reply().text("done")]);
    expect(systemText(requestAt(after.fake, 0))).not.toContain("- alpha");
    expect(systemText(requestAt(after.fake, 0))).toContain("- bravo: Bravo does the second thing");
  });

  test("a value that is not one of the four is reported with the file and key, and the skills stay as written", async () => {
    const cwd = workspace({ alpha: "hidden" });
    const configDir = tempDirectory("clew-config-");
    const { fake, result } = await run(cwd, configDir, "go", [reply().text("done")]);
    expect(result.stderr).toContain("settings.local.json");
    expect(result.stderr).toContain("skillOverrides");
    expect(systemText(requestAt(fake, 0))).toContain("- alpha: Alpha does the first thing");
  });
});
