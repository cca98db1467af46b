// The core scenario, against the compiled binary: grep → read → edit → run the failing test →
// done, in all three output formats, with the fake API checking every request it receives.
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startFakeAnthropic, type FakeServer } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory, transcripts } from "../helpers/clew-process.ts";
import { fileMode, transcriptLines, transcriptMessages, withoutCacheControl } from "../helpers/transcript.ts";
import { DONE, failingTestWorkspace, fixScript } from "./workspaces.ts";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function runFix(format: string, extra: string[] = []) {
  const dir = failingTestWorkspace();
  const configDir = tempDirectory("clew-config-");
  server = await startFakeAnthropic({ script: fixScript(dir) });
  const run = await runClew(
    ["-p", "the test in test/math.test.ts fails; fix the bug", "--output-format", format, "--permission-mode", "bypassPermissions", ...extra],
    { cwd: dir, baseURL: server.url, configDir },
  );
  return { dir, configDir, run, fake: server };
}

describe("scenario: fix a failing test", () => {
  test("text output: prints the final answer, fixes the file, leaves a valid transcript", async () => {
    const { dir, configDir, run, fake } = await runFix("text");
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${DONE}\n`);
    expect(readFileSync(join(dir, "src/math.ts"), "utf8")).toContain("return a + b;");
    expect(fake.violations).toEqual([]);
    expect(fake.requests.length).toBe(5);

    const [path, ...others] = transcripts(configDir);
    expect(others).toEqual([]);
    expect(fileMode(path as string)).toBe(0o600);
    const lines = transcriptLines(path as string) as Array<Record<string, unknown>>;
    expect(lines[0]).toMatchObject({ type: "clew-session", version: 1, cwd: dir });
    // The stored conversation is exactly what the model saw, plus its final reply.
    const lastRequest = fake.requests[4]?.body.messages;
    const stored = transcriptMessages(path as string);
    expect(stored.slice(0, -1)).toEqual(withoutCacheControl(lastRequest) as typeof stored);
    expect(stored.at(-1)).toEqual({ role: "assistant", content: [{ type: "text", text: DONE }] });
  });

  test("json output: one result object with Claude Code's fields", async () => {
    const { run, fake } = await runFix("json");
    expect(run.code).toBe(0);
    expect(fake.violations).toEqual([]);
    const result = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(result).toMatchObject({
      type: "result",
      subtype: "success",
      is_error: false,
      result: DONE,
      num_turns: 5,
      stop_reason: "end_turn",
      terminal_reason: "completed",
      permission_denials: [],
    });
    expect(typeof result.session_id).toBe("string");
    expect(result.usage).toMatchObject({ input_tokens: expect.any(Number), output_tokens: expect.any(Number) });
    expect(run.stdout.trim().split("\n").length).toBe(1);
  });

  test("stream-json output: init first, a frame per block and per result, result last", async () => {
    const { run, fake } = await runFix("stream-json", ["--verbose"]);
    expect(run.code).toBe(0);
    expect(fake.violations).toEqual([]);
    const frames = run.stdout.trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(frames[0]).toMatchObject({ type: "system", subtype: "init", permissionMode: "bypassPermissions" });
    expect((frames[0] as { tools: string[] }).tools).toEqual(expect.arrayContaining(["Bash", "Read", "Edit", "Write", "Glob", "Grep"]));
    expect(frames.at(-1)).toMatchObject({ type: "result", subtype: "success", result: DONE, num_turns: 5 });
    const kinds = frames.filter((frame) => frame.type !== "system").map((frame) => {
      const content = (frame.message as { content?: Array<{ type: string }> } | undefined)?.content;
      return `${frame.type}:${content?.[0]?.type ?? ""}`;
    });
    expect(kinds).toEqual([
      "assistant:text", "assistant:tool_use", "user:tool_result",
      "assistant:tool_use", "user:tool_result",
      "assistant:text", "assistant:tool_use", "user:tool_result",
      "assistant:tool_use", "user:tool_result",
      "assistant:text", "result:",
    ]);
    const bashResult = frames.filter((frame) => frame.type === "user").at(-1) as { tool_use_result: Record<string, unknown> };
    expect(bashResult.tool_use_result).toMatchObject({ interrupted: false, exitCode: 0 });
  });
});
