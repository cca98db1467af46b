import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sessionCheckpoints } from "../../../src/app/checkpoints-setup.ts";
import { tempDirectory } from "../../helpers/clew-process.ts";

function folders() {
  const root = tempDirectory("clew-ckpt-setup-");
  const projectDir = join(root, "project");
  mkdirSync(projectDir);
  writeFileSync(join(projectDir, "a.txt"), "a\n");
  return { root, projectDir, stateDir: join(root, "state") };
}

describe("sessionCheckpoints", () => {
  test("off when fileCheckpointingEnabled is false", () => {
    const f = folders();
    expect(sessionCheckpoints({ enabled: false, projectDir: f.projectDir, stateDir: f.stateDir, sessionId: "s1", path: process.env.PATH ?? "", report: () => {} })).toBeUndefined();
  });

  test("a checkpoint that cannot be taken is reported once and the session goes on without them", async () => {
    const f = folders();
    const lines: string[] = [];
    const port = sessionCheckpoints({ enabled: true, projectDir: f.projectDir, stateDir: f.stateDir, sessionId: "s1", path: join(f.root, "no-git-here"), report: (line) => lines.push(line) });
    await port?.beforePrompt(1);
    await port?.afterTurn(1);
    await port?.beforePrompt(2);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toStartWith("clew: checkpoints are off for this session: ");
    expect(lines[0]).toEndWith("(rewind will not be able to restore files).");
  });

  test("the snapshot before a prompt is written with the prompt's description; a discarded prompt leaves none", async () => {
    const f = folders();
    const port = sessionCheckpoints({ enabled: true, projectDir: f.projectDir, stateDir: f.stateDir, sessionId: "s1", path: process.env.PATH ?? "/usr/bin:/bin", report: () => {} });
    const file = join(f.stateDir, "s1", "checkpoints.json");
    const stored = () => (existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as { checkpoints: Array<{ prompt: number; text?: string }> }).checkpoints.map((record) => [record.prompt, record.text]) : undefined);
    expect(await port?.startPrompt()).toBe(1);
    expect(stored()).toBeUndefined();
    await port?.describe(1, { text: "first" });
    expect(stored()).toEqual([[1, "first"]]);
    expect(await port?.startPrompt()).toBe(2);
    await port?.discard(2);
    expect(stored()).toEqual([[1, "first"]]);
  }, 30_000);

  test("records each prompt in the session's file, the repository shared by the project's sessions", async () => {
    const f = folders();
    const port = sessionCheckpoints({ enabled: true, projectDir: f.projectDir, stateDir: f.stateDir, sessionId: "s1", path: process.env.PATH ?? "/usr/bin:/bin", report: () => {} });
    await port?.beforePrompt(1);
    await port?.afterTurn(1);
    // The first snapshot is kept (a tree to write when needed): written now, to compare.
    await (await port?.load())?.resolveKept();
    const records = (await port?.load())?.list() ?? [];
    expect(records.map((record) => [record.prompt, Object.keys(record.before), Object.keys(record.after ?? {})])).toEqual([[1, ["."], ["."]]]);
    const other = sessionCheckpoints({ enabled: true, projectDir: f.projectDir, stateDir: f.stateDir, sessionId: "s2", path: process.env.PATH ?? "/usr/bin:/bin", report: () => {} });
    await other?.beforePrompt(1);
    // A small project's snapshot is kept in-process (a tree to write when needed): written now, to compare.
    await (await other?.load())?.resolveKept();
    expect((await other?.load())?.list()[0]?.before).toEqual(records[0]?.before ?? {});
  }, 30_000);
});
