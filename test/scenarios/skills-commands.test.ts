// Skills and custom slash commands against the compiled binary, from a project's .claude/ folder
// as a Claude Code user keeps them: the catalogue line in the first request and the body only
// after the Skill call; `/skill args` and a custom command with $ARGUMENTS, $1, a `!` line and an
// `@file` from `clew -p`; and the parts of the prefix a new skill may not touch.
import { afterEach, describe, expect, test } from "bun:test";
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

const RELEASE_SKILL = `---
name: release-notes
description: Writes release notes from the git log in the house style
argument-hint: [version]
---
Write the release notes for version $ARGUMENTS.
House style: one bullet per change, newest first. SKILL-BODY-MARKER
`;

const REVIEW_COMMAND = `---
description: Review a file against a checklist
argument-hint: <file> <focus>
allowed-tools: Bash(git log *)
---
Review $0 with a focus on $1 (all arguments: $ARGUMENTS).
Recent history:
!\`git log --oneline -1\`
The checklist:
@checklist.md
`;

function workspace(): string {
  const dir = writeWorkspace({
    ".claude/skills/release-notes/SKILL.md": RELEASE_SKILL,
    ".claude/commands/review.md": REVIEW_COMMAND,
    "checklist.md": "- names explain themselves CHECKLIST-MARKER\n",
    "src/app.ts": "export const x = 1;\n",
  });
  const git = (...args: string[]) => Bun.spawnSync(["git", "-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd: dir, stdout: "ignore", stderr: "ignore" });
  git("init", "-q");
  git("add", ".");
  git("commit", "-qm", "initial commit COMMIT-MARKER");
  return dir;
}

async function run(dir: string, script: ScriptStep[], prompt: string, extra: string[] = [], configDir = tempDirectory("clew-config-")) {
  const fake = (server = await startFakeAnthropic({ script }));
  const result = await runClew(["-p", prompt, "--output-format", "json", ...extra], { cwd: dir, baseURL: fake.url, configDir });
  return { fake, result };
}

const systemText = (request: RecordedRequest) => JSON.stringify(request.body.system);

describe("scenario: skills and custom commands", () => {
  test("a skill: catalogue line in the first request, body absent until the Skill call, present after it", async () => {
    const dir = workspace();
    const call = reply().toolUse("Skill", { skill: "release-notes", args: "2.1.0" });
    const { fake, result } = await run(dir, [call, reply().text("notes written")], "write the release notes", ["--allowedTools", "Skill"]);
    expect(result.code).toBe(0);
    expect(fake.violations).toEqual([]);
    const first = requestAt(fake, 0);
    expect(systemText(first)).toContain("- release-notes: Writes release notes from the git log in the house style");
    expect(JSON.stringify(first.body)).not.toContain("SKILL-BODY-MARKER");
    expect((first.body.tools as Array<{ name: string }>).map((tool) => tool.name)).toContain("Skill");
    const [loaded] = toolResults(requestAt(fake, 1));
    expect(loaded?.isError).toBe(false);
    expect(loaded?.text).toContain("Write the release notes for version 2.1.0.");
    expect(loaded?.text).toContain("SKILL-BODY-MARKER");
    expect(loaded?.text).toContain(`Base directory for this skill: ${join(dir, ".claude/skills/release-notes")}`);
  });

  test("/skill-name args from -p sends the rendered skill as the prompt", async () => {
    const dir = workspace();
    const { fake, result } = await run(dir, [reply().text("ok")], "/release-notes 3.0.0");
    expect(result.code).toBe(0);
    const text = lastUserText(requestAt(fake, 0));
    expect(text).toContain("Write the release notes for version 3.0.0.");
    expect(text).toContain("SKILL-BODY-MARKER");
  });

  test("a custom command with $ARGUMENTS, $0/$1, a ! line and an @file, from -p", async () => {
    const dir = workspace();
    const { fake, result } = await run(dir, [reply().text("reviewed")], '/review src/app.ts "error handling"');
    expect(result.code).toBe(0);
    const text = lastUserText(requestAt(fake, 0));
    expect(text).toContain('Review src/app.ts with a focus on error handling (all arguments: src/app.ts "error handling").');
    // The ! line ran (allowed for this expansion by the command's allowed-tools) and its output is inlined.
    expect(text).toContain("COMMIT-MARKER");
    expect(text).not.toContain("!`git log");
    expect(text).toContain("CHECKLIST-MARKER");
  });

  test("a ! line the rules do not allow aborts the command: nothing is sent", async () => {
    const dir = writeWorkspace({ ".claude/commands/wipe.md": "---\ndescription: d\n---\nState:\n!`touch pwned`\n" });
    const { fake, result } = await run(dir, [reply().text("never")], "/wipe");
    expect(fake.requests.filter((request) => request.endpoint === "messages")).toHaveLength(0);
    expect(result.stderr).toContain("touch pwned");
    expect(await Bun.file(join(dir, "pwned")).exists()).toBe(false);
  });

  test("adding a skill leaves the tool definitions and the first system block byte-identical", async () => {
    const dir = workspace();
    const before = (await run(dir, [reply().text("ok")], "hello")).fake;
    const firstBefore = requestAt(before, 0);
    await before.close();
    await Bun.write(join(dir, ".claude/skills/another/SKILL.md"), "---\nname: another\ndescription: Another skill\n---\nbody\n");
    const after = (await run(dir, [reply().text("ok")], "hello")).fake;
    const firstAfter = requestAt(after, 0);
    expect(JSON.stringify(firstAfter.body.tools)).toBe(JSON.stringify(firstBefore.body.tools));
    const blocks = (request: RecordedRequest) => request.body.system as Array<{ text: string }>;
    expect(blocks(firstAfter)[0]).toEqual(blocks(firstBefore)[0]);
    expect(systemText(firstAfter)).toContain("- another: Another skill");
  });

  test("a skill's frontmatter hooks apply once it is invoked (a project's only in a trusted folder)", async () => {
    const dir = writeWorkspace({
      ".claude/skills/careful/SKILL.md":
        "---\nname: careful\ndescription: Be careful with shell commands\nhooks:\n  PostToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: \"echo '{\\\"hookSpecificOutput\\\":{\\\"hookEventName\\\":\\\"PostToolUse\\\",\\\"additionalContext\\\":\\\"SKILL-HOOK-RAN\\\"}}'\"\n---\nRun commands one at a time.\n",
    });
    // The skill's hook is not active before the skill is used (first request), and is after /careful.
    const script = () => [reply().toolUse("Bash", { command: "echo hi" }), reply().text("done")];
    const untrusted = await run(dir, script(), "/careful", ["--allowedTools", "Bash(echo *)"]);
    expect(untrusted.result.code).toBe(0);
    expect(JSON.stringify(requestAt(untrusted.fake, 1).body.messages)).not.toContain("SKILL-HOOK-RAN");
    await untrusted.fake.close();
    const configDir = tempDirectory("clew-config-");
    expect((await runClew(["trust"], { cwd: dir, configDir })).code).toBe(0);
    const trusted = await run(dir, script(), "/careful", ["--allowedTools", "Bash(echo *)"], configDir);
    expect(trusted.result.code).toBe(0);
    expect(JSON.stringify(requestAt(trusted.fake, 1).body.messages)).toContain("SKILL-HOOK-RAN");
  });

  test("a nested folder's skills load when the model first reads a file there, announced in a reminder, callable after", async () => {
    const dir = workspace();
    await Bun.write(join(dir, "apps/web/package.json"), '{ "name": "web" }\n');
    await Bun.write(join(dir, "apps/web/.claude/skills/web-deploy/SKILL.md"), "---\nname: web-deploy\ndescription: Deploys the web app\n---\nNESTED-SKILL-BODY\n");
    const script = [
      reply().toolUse("Read", { file_path: join(dir, "apps/web/package.json") }),
      reply().toolUse("Skill", { skill: "web-deploy" }),
      reply().text("deployed"),
    ];
    const { fake, result } = await run(dir, script, "deploy the web app", ["--allowedTools", "Skill"]);
    expect(result.code).toBe(0);
    expect(systemText(requestAt(fake, 0))).not.toContain("web-deploy");
    expect(JSON.stringify(requestAt(fake, 1).body.messages)).toContain("- web-deploy: Deploys the web app");
    expect(toolResults(requestAt(fake, 2))[0]?.text).toContain("NESTED-SKILL-BODY");
    // The cached system prompt is the same as before the nested skills arrived.
    expect(systemText(requestAt(fake, 2))).toBe(systemText(requestAt(fake, 0)));
  });

  test("a warm start (index and summary cached) sends the same catalogue; an edited skill is seen at once", async () => {
    const dir = workspace();
    const configDir = tempDirectory("clew-config-");
    const system = async () => {
      const { fake } = await run(dir, [reply().text("ok")], "hello", [], configDir);
      const text = systemText(requestAt(fake, 0));
      await fake.close();
      return text;
    };
    const cold = await system();
    expect(await system()).toBe(cold);
    const file = join(dir, ".claude/skills/release-notes/SKILL.md");
    await Bun.write(file, RELEASE_SKILL.replace("Writes release notes from the git log in the house style", "Writes release notes, now with links"));
    const edited = await system();
    expect(edited).toContain("- release-notes: Writes release notes, now with links");
    expect(edited).not.toContain("in the house style");
  });
});
