// A canary in a Read-denied .env against the compiled binary: Bash commands that would read it
// without naming it one by one (recursive searches, git's work-tree modes, files chosen at run
// time) are refused and listed in permission_denials, the canary reaches no request, and the
// everyday commands beside them run without asking.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startFakeAnthropic, toolResults, type FakeServer, type Reply } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";
import { writeWorkspace } from "./workspaces.ts";

const CANARY = "CANARY-5e1f-0d9a";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const READERS = [
  "grep -r CANARY .",
  "grep -rn CANARY",
  "rg --hidden --no-ignore CANARY",
  "git grep --untracked CANARY",
  "git grep --no-index CANARY",
  "git diff --no-index /dev/null .env",
  "find . -type f | xargs cat",
  "find . -name '.env' -exec cat {} +",
  "cat .e*",
  "cd src && cat ../.env",
  "diff -r . src",
  "tar cf - . | tar xOf -",
  "cat /proc/self/cwd/.env",
];

const EVERYDAY: Array<[command: string, shows: string]> = [
  ["npm test", "all 3 tests passed"],
  ["git status", "On branch"],
  ["ls", "package.json"],
  ["cat src/app.ts", "export const answer"],
  ["grep -r answer src", "src/app.ts"],
];

function workspace(): string {
  const dir = writeWorkspace({
    ".env": `API_KEY=${CANARY}\n`,
    ".gitignore": ".env\n",
    "package.json": '{ "name": "app", "scripts": { "test": "echo all 3 tests passed" } }\n',
    "src/app.ts": "export const answer = 42;\n",
    "src/util.ts": "export const util = 1;\n",
  });
  const git = (...args: string[]) => Bun.spawnSync(["git", "-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd: dir, stdout: "ignore", stderr: "ignore" });
  git("init", "-q");
  git("add", ".");
  git("commit", "-qm", "initial");
  mkdirSync(join(dir, ".clew"));
  writeFileSync(join(dir, ".clew/settings.local.json"), JSON.stringify({ permissions: { allow: ["Bash(npm test *)"], deny: ["Read(./.env)"] } }));
  return dir;
}

describe("scenario: a Read deny holds for every Bash reader", () => {
  test("recursive and indirect readers are refused, everyday commands run, the canary reaches no request", async () => {
    const dir = workspace();
    let calls: Reply = reply();
    for (const command of [...READERS, ...EVERYDAY.map(([command]) => command)]) calls = calls.toolUse("Bash", { command });
    server = await startFakeAnthropic({ script: [calls, reply().text("done")] });
    const run = await runClew(["-p", "look for secrets", "--output-format", "json"], { cwd: dir, baseURL: server.url, configDir: tempDirectory("clew-config-") });

    expect(server.violations).toEqual([]);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as { result: string; permission_denials: Array<{ tool_name: string; tool_use_id: string; tool_input: { command: string } }> };
    expect(result.result).toBe("done");
    expect(result.permission_denials.map((denial) => denial.tool_input.command)).toEqual(READERS);

    const second = server.requests[1];
    if (!second) throw new Error("the run made no second request");
    const results = toolResults(second);
    expect(results).toHaveLength(READERS.length + EVERYDAY.length);
    const byId = new Map(results.map((sent) => [sent.toolUseId, sent]));
    for (const [index, id] of calls.toolUseIds.entries()) {
      const sent = byId.get(id);
      if (index < READERS.length) {
        expect(sent?.isError).toBe(true);
        // Named reads meet the deny rule itself; the others need an approval nobody can give in -p.
        expect(sent?.text).toMatch(/denied by the deny rule Read\(\.\/\.env\)|nobody can approve it/);
      } else {
        const [command, shows] = EVERYDAY[index - READERS.length] ?? ["", ""];
        expect({ command, isError: sent?.isError, shows: sent?.text.includes(shows) }).toEqual({ command, isError: false, shows: true });
      }
    }
    // The recursive search is told what to use instead.
    expect(byId.get(calls.toolUseIds[0] ?? "")?.text).toContain("use the Grep, Glob and Read tools instead");
    for (const request of server.requests) expect(JSON.stringify(request.body)).not.toContain(CANARY);
  });

  test("a cd in one call carries over: the next call's relative paths are judged where Bash now is", async () => {
    const dir = workspace();
    writeFileSync(join(dir, ".clew/settings.local.json"), JSON.stringify({ permissions: { allow: ["Bash(cat *)"], deny: ["Read(./.env)"] } }));
    const cd = reply().toolUse("Bash", { command: "cd src" });
    const cat = reply().toolUse("Bash", { command: "cat ../.env" });
    server = await startFakeAnthropic({ script: [cd, cat, reply().text("done")] });
    const run = await runClew(["-p", "look", "--output-format", "json"], { cwd: dir, baseURL: server.url, configDir: tempDirectory("clew-config-") });
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as { permission_denials: Array<{ tool_input: { command: string } }> };
    expect(result.permission_denials.map((denial) => denial.tool_input.command)).toEqual(["cat ../.env"]);
    for (const request of server.requests) expect(JSON.stringify(request.body)).not.toContain(CANARY);
  });
});
