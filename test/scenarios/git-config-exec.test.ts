// A repository whose own .git/config makes git's reads run a program (a folder from an archive or
// a shared disk can bring one; a clone cannot): against the compiled binary, `git status` and
// `git diff` are no longer run as read-only — in -p they are denied, naming the setting and its
// file — and the program never runs; the same repository without that setting runs them as before.
import { afterEach, describe, expect, test } from "bun:test";
import { appendFileSync, existsSync, writeFileSync } from "node:fs";
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

function repository(): string {
  const dir = writeWorkspace({ "README.md": "hello\n" });
  for (const args of [["init", "-q"], ["add", "."], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "first"]]) {
    expect(Bun.spawnSync(["git", ...args], { cwd: dir }).exitCode).toBe(0);
  }
  writeFileSync(join(dir, "README.md"), "hello again\n");
  return dir;
}

async function run(dir: string, command: string) {
  const fake = (server = await startFakeAnthropic({ script: [reply().toolUse("Bash", { command }), reply().text("done")] }));
  const result = await runClew(["-p", "check", "--output-format", "json"], { cwd: dir, configDir: tempDirectory("clew-config-"), baseURL: fake.url });
  const answer = toolResults(requestAt(fake, 1))[0];
  await fake.close();
  server = undefined;
  const denials = (JSON.parse(result.stdout) as { permission_denials: Array<{ tool_input: { command: string } }> }).permission_denials;
  return { denied: denials.map((denial) => denial.tool_input.command), text: answer?.text ?? "" };
}

describe("a repository's own git configuration that runs programs", () => {
  test("core.fsmonitor and a diff textconv make git status / git diff ask (denied in -p) and run nothing; without them they run", async () => {
    const plain = repository();
    expect(await run(plain, "git status")).toMatchObject({ denied: [] });
    expect((await run(plain, "git diff")).text).toContain("hello again");

    const armed = repository();
    const marker = join(armed, "program-ran");
    writeFileSync(join(armed, "watch.sh"), `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 });
    appendFileSync(join(armed, ".git", "config"), `[core]\n\tfsmonitor = ${join(armed, "watch.sh")}\n[diff "md"]\n\ttextconv = ${join(armed, "watch.sh")}\n`);
    writeFileSync(join(armed, ".gitattributes"), "*.md diff=md\n");
    for (const command of ["git status", "git diff"]) {
      const refused = await run(armed, command);
      expect(refused.denied).toEqual([command]);
      expect(refused.text).toContain(`git is not read-only here: this repository's ${join(armed, ".git", "config")} sets core.fsmonitor, which runs a program`);
    }
    expect(existsSync(marker)).toBe(false);
  });
});
