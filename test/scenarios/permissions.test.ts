// The permission gate against the compiled binary: with only narrow allow rules, every bypass
// attempt the model makes is refused before anything runs (a sentinel proves it), the run
// finishes, and each refusal is reported in permission_denials.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startFakeAnthropic, toolResults, type FakeServer, type Reply } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";
import { writeWorkspace } from "./workspaces.ts";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const SETTINGS = { permissions: { allow: ["Bash(npm test *)", "Bash(git status)"], deny: ["Read(./.env)"] } };

function bypassAttempts(dir: string): string[] {
  const sentinel = join(dir, "pwned");
  return [
    `npm test && touch ${sentinel}`,
    `npm test; touch ${sentinel}`,
    `npm test $(touch ${sentinel})`,
    `npm test \`touch ${sentinel}\``,
    `git status | sh -c 'touch ${sentinel}'`,
    `bash -c "touch ${sentinel}"`,
    `env X=1 touch ${sentinel}`,
    `npm test > ${sentinel}`,
    `npm test\ntouch ${sentinel}`,
  ];
}

describe("scenario: permission gate", () => {
  test("bypass attempts against narrow Bash allow rules are all refused; nothing runs", async () => {
    const dir = writeWorkspace({ "package.json": '{ "scripts": { "test": "true" } }\n' });
    mkdirSync(join(dir, ".clew"));
    writeFileSync(join(dir, ".clew/settings.local.json"), JSON.stringify(SETTINGS));
    const attempts = bypassAttempts(dir);
    let call: Reply = reply();
    for (const command of attempts) call = call.toolUse("Bash", { command });
    server = await startFakeAnthropic({
      script: [call, (request) => reply().text(`${toolResults(request).filter((result) => result.isError).length} refused`)],
    });
    const run = await runClew(["-p", "try things", "--output-format", "json"], { cwd: dir, baseURL: server.url, configDir: tempDirectory("clew-config-") });
    expect(server.violations).toEqual([]);
    expect(run.code).toBe(0);
    expect(existsSync(join(dir, "pwned"))).toBe(false);
    const result = JSON.parse(run.stdout) as { result: string; permission_denials: Array<{ tool_name: string; tool_input: { command: string } }> };
    expect(result.result).toBe(`${attempts.length} refused`);
    expect(result.permission_denials.map((denial) => denial.tool_input.command)).toEqual(attempts);
  });

  test("Read(./.env) deny holds against .., absolute paths, symlinks, Grep and cat", async () => {
    const dir = writeWorkspace({ ".env": "SECRET=hunter2\n", "sub/keep.txt": "x\n" });
    symlinkSync(join(dir, ".env"), join(dir, "innocent.txt"));
    writeFileSync(join(dir, "settings.json"), JSON.stringify(SETTINGS));
    server = await startFakeAnthropic({
      script: [
        reply()
          .toolUse("Read", { file_path: "sub/../.env" })
          .toolUse("Read", { file_path: join(dir, ".env") })
          .toolUse("Read", { file_path: join(dir, "innocent.txt") })
          .toolUse("Grep", { pattern: "SECRET", path: ".env", output_mode: "content" })
          .toolUse("Grep", { pattern: "SECRET", output_mode: "content" })
          .toolUse("Bash", { command: "cat .env" }),
        (request) => reply().text(JSON.stringify(toolResults(request).map((result) => result.text))),
      ],
    });
    const run = await runClew(["-p", "find secrets", "--output-format", "json", "--settings", join(dir, "settings.json")], {
      cwd: dir,
      baseURL: server.url,
      configDir: tempDirectory("clew-config-"),
    });
    expect(run.code).toBe(0);
    expect(server.violations).toEqual([]);
    const outputs = JSON.parse((JSON.parse(run.stdout) as { result: string }).result) as string[];
    expect(outputs.length).toBe(6);
    for (const output of outputs) expect(output).not.toContain("hunter2");
    const denials = (JSON.parse(run.stdout) as { permission_denials: unknown[] }).permission_denials;
    // The directory-wide Grep is allowed, but the denied file is left out of its results.
    expect(denials.length).toBe(5);
  });

  test("settings env reaches tool processes; a bare deny hides the tool from the model", async () => {
    const dir = writeWorkspace({});
    const settings = { env: { CLEW_TEST_FLAVOUR: "mint" }, permissions: { allow: ["Bash(echo *)"], deny: ["WebFetch", "Write"] } };
    writeFileSync(join(dir, "s.json"), JSON.stringify(settings));
    server = await startFakeAnthropic({
      script: [reply().toolUse("Bash", { command: "echo $CLEW_TEST_FLAVOUR" }), (request) => reply().text(toolResults(request)[0]?.text ?? "")],
    });
    const run = await runClew(["-p", "flavour?", "--settings", join(dir, "s.json")], { cwd: dir, baseURL: server.url, configDir: tempDirectory("clew-config-") });
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe("mint");
    const names = (server.requests[0]?.body.tools as Array<{ name: string }>).map((tool) => tool.name);
    expect(names).not.toContain("Write");
    expect(names).toContain("Edit");
  });

  test("a malformed settings file stops the run with its file and line", async () => {
    const dir = writeWorkspace({ ".clew/settings.json": '{\n  "permissions": {\n    "deny": ["Bash"],\n  }\n}\n' });
    server = await startFakeAnthropic({ script: [reply().text("should not be asked")] });
    const run = await runClew(["-p", "hi"], { cwd: dir, baseURL: server.url, configDir: tempDirectory("clew-config-") });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(join(dir, ".clew/settings.json"));
    expect(run.stderr).toMatch(/settings\.json:4:/);
    expect(server.requests.length).toBe(0);
  });

  test("plan mode refuses edits with a message naming plan mode", async () => {
    const dir = writeWorkspace({ "a.txt": "a\n" });
    server = await startFakeAnthropic({
      script: [reply().toolUse("Write", { file_path: join(dir, "b.txt"), content: "b" }), (request) => reply().text(toolResults(request)[0]?.text ?? "")],
    });
    const run = await runClew(["-p", "write b", "--permission-mode", "plan"], { cwd: dir, baseURL: server.url, configDir: tempDirectory("clew-config-") });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/plan mode/i);
    expect(existsSync(join(dir, "b.txt"))).toBe(false);
  });
});
