// `--bare` and `--disable-slash-commands` against the compiled binary: in bare mode only what
// the command line names is loaded (the user's hooks, skills, CLAUDE.md and auto discovery are
// not; `--settings` hooks and every permission rule still are), the tools are Bash, Read and
// Edit, and Bash children see CLAUDE_CODE_SIMPLE=1; without skills and commands nothing is
// offered, listed or expanded.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startFakeAnthropic, textOf, toolNames, toolResults, type FakeServer, type RecordedRequest, type ScriptStep } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";
import { writeWorkspace } from "./workspaces.ts";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const marker = (dir: string, name: string) => `touch ${JSON.stringify(join(dir, name))}`;

/** A project with instructions and a skill, and a user folder with a hook, a skill and a deny rule. */
function setup() {
  const cwd = writeWorkspace({
    "CLAUDE.md": "Always answer in haiku.\n",
    ".claude/skills/deploy/SKILL.md": "---\nname: deploy\ndescription: Ship the project to production\n---\nDeploy it.\n",
    "notes.txt": "keep\n",
  });
  const configDir = tempDirectory("clew-config-");
  mkdirSync(join(configDir, "skills", "tidy"), { recursive: true });
  writeFileSync(join(configDir, "skills", "tidy", "SKILL.md"), "---\nname: tidy\ndescription: Tidy the workspace up\n---\nTidy.\n");
  writeFileSync(
    join(configDir, "settings.json"),
    JSON.stringify({ permissions: { deny: ["Bash(rm *)"] }, hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: marker(cwd, "user-hook-ran") }] }] } }),
  );
  return { cwd, configDir };
}

async function run(args: string[], script: ScriptStep[], space = setup()) {
  const fake = (server = await startFakeAnthropic({ script, rejectInvalid: true }));
  const result = await runClew(["-p", "go", ...args], { cwd: space.cwd, configDir: space.configDir, baseURL: fake.url });
  return { ...result, ...space, requests: fake.requests.filter((request) => request.endpoint === "messages") };
}

const sent = (request: RecordedRequest | undefined) => `${textOf(request?.body.system)}\n${JSON.stringify(request?.body.messages)}\n${JSON.stringify(request?.body.tools)}`;

describe("--bare", () => {
  test("without it, the user's hook runs and CLAUDE.md and both skills reach the model", async () => {
    const result = await run([], [reply().text("done")]);
    expect(result.code).toBe(0);
    expect(existsSync(join(result.cwd, "user-hook-ran"))).toBe(true);
    const first = sent(result.requests[0]);
    for (const part of ["Always answer in haiku.", "deploy", "tidy"]) expect(first).toContain(part);
  });

  test("with it: Bash, Read and Edit only; no hook, skill or CLAUDE.md from folders; --settings hooks and deny rules still apply", async () => {
    const space = setup();
    const settings = JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: marker(space.cwd, "cli-hook-ran") }] }] } });
    const result = await run(
      ["--bare", "--settings", settings],
      [reply().toolUse("Bash", { command: 'echo "simple=$CLAUDE_CODE_SIMPLE"' }), reply().toolUse("Bash", { command: "rm notes.txt" }), reply().text("done")],
      space,
    );
    expect(result.code).toBe(0);
    expect(toolNames(result.requests[0] as RecordedRequest).sort()).toEqual(["Bash", "Edit", "Read"]);
    const first = sent(result.requests[0]);
    for (const part of ["Always answer in haiku.", "Ship the project", "Tidy the workspace"]) expect(first).not.toContain(part);
    expect(existsSync(join(space.cwd, "user-hook-ran"))).toBe(false);
    expect(existsSync(join(space.cwd, "cli-hook-ran"))).toBe(true);
    expect(toolResults(result.requests[1] as RecordedRequest)[0]?.text).toContain("simple=1");
    expect(toolResults(result.requests[2] as RecordedRequest)[0]).toMatchObject({ isError: true });
    expect(existsSync(join(space.cwd, "notes.txt"))).toBe(true);
  });

  test("--tools still chooses the tools; --agents still defines helpers", async () => {
    const agents = JSON.stringify({ reviewer: { description: "Reviews a change", prompt: "You review." } });
    const result = await run(["--bare", "--tools", "Read,Grep,Agent", "--agents", agents], [reply().text("done")]);
    expect(toolNames(result.requests[0] as RecordedRequest).sort()).toEqual(["Agent", "Grep", "Read"]);
    expect(sent(result.requests[0])).toContain("reviewer");
  });
});

describe("--disable-slash-commands", () => {
  test("no Skill tool, no listing, and a /command is sent as typed", async () => {
    const space = setup();
    const fake = (server = await startFakeAnthropic({ script: [reply().text("done")], rejectInvalid: true }));
    const result = await runClew(["-p", "/deploy now", "--disable-slash-commands"], { cwd: space.cwd, configDir: space.configDir, baseURL: fake.url });
    expect(result.code).toBe(0);
    const request = fake.requests.find((candidate) => candidate.endpoint === "messages") as RecordedRequest;
    expect(toolNames(request)).not.toContain("Skill");
    expect(sent(request)).not.toContain("Ship the project");
    expect(JSON.stringify(request.body.messages)).toContain("/deploy now");
    expect(JSON.stringify(request.body.messages)).not.toContain("Deploy it.");
  });
});

describe("--safe-mode", () => {
  test("nothing discovered, as in bare mode, but every tool is offered", async () => {
    const result = await run(["--safe-mode"], [reply().text("done")]);
    expect(result.code).toBe(0);
    expect(toolNames(result.requests[0] as RecordedRequest)).toEqual(expect.arrayContaining(["Bash", "Read", "Edit", "Write", "Grep", "Glob"]));
    expect(sent(result.requests[0])).not.toContain("Always answer in haiku.");
    expect(existsSync(join(result.cwd, "user-hook-ran"))).toBe(false);
  });
});

describe("Setup hooks: --init, --maintenance, --init-only", () => {
  /** A user settings file whose Setup hook records its trigger and adds context; a SessionStart hook records that it ran. */
  function setupSpace() {
    const cwd = writeWorkspace({ "README.md": "hi\n" });
    const configDir = tempDirectory("clew-config-");
    const setupHook = `cat > ${JSON.stringify(join(cwd, "setup-input.json"))}; echo '{"hookSpecificOutput":{"hookEventName":"Setup","additionalContext":"The database is seeded."}}'`;
    writeFileSync(
      join(configDir, "settings.json"),
      JSON.stringify({ hooks: { Setup: [{ hooks: [{ type: "command", command: setupHook }] }], SessionStart: [{ hooks: [{ type: "command", command: marker(cwd, "session-start-ran") }] }] } }),
    );
    return { cwd, configDir };
  }

  test("-p --init runs Setup (trigger init) before the first request, its context with the prompt; without the flag it does not run", async () => {
    const plain = await run([], [reply().text("done")], setupSpace());
    expect(existsSync(join(plain.cwd, "setup-input.json"))).toBe(false);
    expect(JSON.stringify(plain.requests[0]?.body.messages)).not.toContain("The database is seeded.");

    const init = await run(["--init"], [reply().text("done")], setupSpace());
    expect(init.code).toBe(0);
    expect(JSON.parse(readFileSync(join(init.cwd, "setup-input.json"), "utf8"))).toMatchObject({ hook_event_name: "Setup", trigger: "init", cwd: init.cwd });
    expect(JSON.stringify(init.requests[0]?.body.messages)).toContain("The database is seeded.");
    expect(existsSync(join(init.cwd, "session-start-ran"))).toBe(true);

    const maintenance = await run(["--maintenance"], [reply().text("done")], setupSpace());
    expect(JSON.parse(readFileSync(join(maintenance.cwd, "setup-input.json"), "utf8"))).toMatchObject({ trigger: "maintenance" });
  });

  test("--init-only runs the Setup hooks and exits without asking the model anything", async () => {
    const space = setupSpace();
    const fake = (server = await startFakeAnthropic({ script: [] }));
    const result = await runClew(["--init-only"], { cwd: space.cwd, configDir: space.configDir, baseURL: fake.url });
    expect({ code: result.code, requests: fake.requests.length }).toEqual({ code: 0, requests: 0 });
    expect(JSON.parse(readFileSync(join(space.cwd, "setup-input.json"), "utf8"))).toMatchObject({ trigger: "init" });
  });
});
