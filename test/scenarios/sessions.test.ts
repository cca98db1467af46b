// Session identity on the command line: --fork-session copies history into a new session and
// leaves the original untouched; --session-id must be a UUID and names the new transcript.
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { reply, startFakeAnthropic, type FakeServer } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory, transcripts } from "../helpers/clew-process.ts";
import { withoutCacheControl, withoutReminders } from "../helpers/transcript.ts";
import { writeWorkspace } from "./workspaces.ts";

let servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function fake(...texts: string[]): Promise<FakeServer> {
  const server = await startFakeAnthropic({ script: texts.map((text) => reply().text(text)) });
  servers.push(server);
  return server;
}

describe("scenario: session identity", () => {
  test("-c continues the newest conversation, not a newer session a refused prompt left without one", async () => {
    const dir = writeWorkspace({});
    const configDir = tempDirectory("clew-config-");
    const first = await fake("noted");
    const kept = await runClew(["-p", "remember the word kiwi", "--output-format", "json"], { cwd: dir, baseURL: first.url, configDir });
    const original = (JSON.parse(kept.stdout) as { session_id: string }).session_id;
    const refused = await runClew(["-p", "/deplyo prod"], { cwd: dir, baseURL: first.url, configDir });
    expect(refused.code).toBe(1);
    const second = await fake("kiwi");
    const continued = await runClew(["-p", "-c", "which word?", "--output-format", "json"], { cwd: dir, baseURL: second.url, configDir });
    expect((JSON.parse(continued.stdout) as { session_id: string }).session_id).toBe(original);
    expect(JSON.stringify(second.requests[0]?.body.messages)).toContain("remember the word kiwi");
  });

  test("--fork-session continues in a new session and leaves the original transcript as it was", async () => {
    const dir = writeWorkspace({});
    const configDir = tempDirectory("clew-config-");
    const first = await fake("first answer");
    const run = await runClew(["-p", "remember 42", "--output-format", "json"], { cwd: dir, baseURL: first.url, configDir });
    const original = (JSON.parse(run.stdout) as { session_id: string }).session_id;
    const [originalPath] = transcripts(configDir);
    const before = readFileSync(originalPath as string, "utf8");

    const second = await fake("forked answer");
    const forked = await runClew(["-p", "-r", original, "--fork-session", "what number?", "--output-format", "json"], {
      cwd: dir,
      baseURL: second.url,
      configDir,
    });
    expect(forked.code).toBe(0);
    const forkedId = (JSON.parse(forked.stdout) as { session_id: string }).session_id;
    expect(forkedId).not.toBe(original);
    expect(readFileSync(originalPath as string, "utf8")).toBe(before);
    expect(transcripts(configDir).length).toBe(2);
    const sent = withoutReminders(withoutCacheControl(second.requests[0]?.body.messages)) as unknown[];
    expect(sent.slice(0, 2)).toEqual([
      { role: "user", content: [{ type: "text", text: "remember 42" }] },
      { role: "assistant", content: [{ type: "text", text: "first answer" }] },
    ]);
    expect(second.violations).toEqual([]);

    // The fork is resumable on its own.
    const third = await fake("again");
    expect((await runClew(["-p", "-r", forkedId, "once more"], { cwd: dir, baseURL: third.url, configDir })).code).toBe(0);
    expect(JSON.stringify(third.requests[0]?.body.messages)).toContain("forked answer");
  });

  test("--session-id names the transcript and must be a UUID", async () => {
    const dir = writeWorkspace({});
    const configDir = tempDirectory("clew-config-");
    const id = "3f2504e0-4f89-41d3-9a0c-0305e82c3301";
    const server = await fake("hi");
    const run = await runClew(["-p", "hello", "--session-id", id], { cwd: dir, baseURL: server.url, configDir });
    expect(run.code).toBe(0);
    expect(transcripts(configDir).map((path) => path.endsWith(`${id}.jsonl`))).toEqual([true]);
    const bad = await runClew(["-p", "hello", "--session-id", "not-a-uuid"], { cwd: dir, baseURL: server.url, configDir });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("--session-id must be a valid UUID");
  });
});
