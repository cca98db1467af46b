// `-w` / `--worktree [name]` against the compiled binary and real git: the session runs in
// <repo>/.claude/worktrees/<name> on the branch worktree-<name>, its edits stay there (the main
// checkout is untouched), the folder is excluded through info/exclude, a second run reuses the
// worktree, and outside a repository the flag is refused before any request.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startFakeAnthropic, type FakeServer } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";
import { writeWorkspace } from "./workspaces.ts";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function git(cwd: string, ...args: string[]): string {
  const run = Bun.spawnSync(["git", ...args], { cwd, env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" } });
  if (run.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr.toString()}`);
  return run.stdout.toString().trim();
}

function repository(): string {
  const dir = writeWorkspace({ "app.txt": "version 1\n" });
  git(dir, "init", "-q", "-b", "main");
  git(dir, "add", ".");
  git(dir, "commit", "-q", "-m", "first");
  return dir;
}

describe("--worktree", () => {
  test("runs in .claude/worktrees/<name> on worktree-<name>; the main checkout stays as it was; a second run reuses it", async () => {
    const repo = repository();
    const tree = join(repo, ".claude", "worktrees", "fix-it");
    const fake = (server = await startFakeAnthropic({ script: [reply().toolUse("Read", { file_path: join(tree, "app.txt") }), reply().toolUse("Edit", { file_path: join(tree, "app.txt"), old_string: "version 1", new_string: "version 2" }), reply().text("edited"), reply().text("again")] }));
    const configDir = tempDirectory("clew-config-");
    const first = await runClew(["-p", "bump the version", "--worktree", "fix-it", "--permission-mode", "acceptEdits"], { cwd: repo, configDir, baseURL: fake.url });
    expect(first.code).toBe(0);
    expect(first.stderr).toContain(`clew: working in a new worktree ${tree} (branch worktree-fix-it)`);
    expect(readFileSync(join(tree, "app.txt"), "utf8")).toBe("version 2\n");
    expect(readFileSync(join(repo, "app.txt"), "utf8")).toBe("version 1\n");
    expect(git(tree, "branch", "--show-current")).toBe("worktree-fix-it");
    expect(git(repo, "status", "--porcelain")).toBe("");
    expect(readFileSync(join(repo, ".git", "info", "exclude"), "utf8")).toContain("/.claude/worktrees/");
    const firstBody = JSON.stringify(fake.requests[0]?.body.system);
    expect(firstBody).toContain(`Working directory: ${tree}`);

    const again = await runClew(["-p", "go on", "-w", "fix-it"], { cwd: repo, configDir, baseURL: fake.url });
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(`clew: working in the worktree ${tree} (branch worktree-fix-it)`);
  });

  test("without a name one is made up; outside a repository it is refused before any request", async () => {
    const repo = repository();
    const fake = (server = await startFakeAnthropic({ script: [reply().text("ok")] }));
    const unnamed = await runClew(["-p", "hello there", "-w"], { cwd: repo, configDir: tempDirectory("clew-config-"), baseURL: fake.url });
    expect(unnamed.code).toBe(0);
    const made = /worktrees\/(session-[0-9a-f]{8}) \(branch worktree-session-[0-9a-f]{8}\)/.exec(unnamed.stderr);
    expect(made).not.toBeNull();
    expect(existsSync(join(repo, ".claude", "worktrees", made?.[1] ?? ""))).toBe(true);

    const plain = tempDirectory("clew-not-git-");
    const refused = await runClew(["-p", "hi", "--worktree", "x"], { cwd: plain, configDir: tempDirectory("clew-config-"), baseURL: fake.url });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("--worktree needs a git repository");
    expect(fake.requests.filter((request) => request.endpoint === "messages")).toHaveLength(1);
  });
});
