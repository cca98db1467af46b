// A task that overflows a small context window: compaction fires, the loop continues, the
// user's constraint survives it, and --resume rebuilds the compacted conversation exactly.
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { lastUserText, messagesOf, reply, startFakeAnthropic, type FakeServer, type RecordedRequest } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory, transcripts } from "../helpers/clew-process.ts";
import { transcriptLines, transcriptMessages, withoutCacheControl } from "../helpers/transcript.ts";
import { writeWorkspace } from "./workspaces.ts";

const CONSTRAINT = "never edit files under legacy/";
const SUMMARY = "Summary: the user wants notes.txt updated; big.txt was read.";

function requestText(request: RecordedRequest): string {
  return JSON.stringify(request.body.messages);
}

let servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

describe("scenario: compaction", () => {
  test("a skill the model loaded and the todo list survive compaction, in the summary message", async () => {
    const big = Array.from({ length: 600 }, (_, i) => `line ${i}: ${"x".repeat(40)}`).join("\n");
    const dir = writeWorkspace({
      "big.txt": big,
      ".claude/skills/release/SKILL.md": "---\nname: release\ndescription: Release steps\n---\nAlways bump the version first. RELEASE-SKILL-MARKER\n",
    });
    const summarize = (request: RecordedRequest) => /write a summary of the conversation/.test(lastUserText(request));
    const server = await startFakeAnthropic({
      script: [
        reply().toolUse("Skill", { skill: "release" }),
        reply().toolUse("TodoWrite", { todos: [{ content: "Bump the version", status: "in_progress", activeForm: "Bumping the version" }, { content: "Tag the release", status: "pending", activeForm: "Tagging" }] }),
        reply().toolUse("Read", { file_path: join(dir, "big.txt") }),
        (request) => (summarize(request) ? reply().text(SUMMARY) : reply().text("no compaction request")),
        reply().text("done"),
      ],
    });
    servers.push(server);
    const run = await runClew(["-p", "Cut the release.", "--output-format", "json", "--allowedTools", "Skill,TodoWrite,Read"], { cwd: dir, baseURL: server.url, configDir: tempDirectory("clew-config-"), env: { CLEW_CONTEXT_WINDOW: "12000" } });
    expect(run.code).toBe(0);
    const opening = (index: number) => String(messagesOf(server.requests[index] as RecordedRequest)[0]?.content[0]?.text);
    expect(opening(4)).toContain("Skills loaded earlier in this conversation; their instructions still apply:");
    expect(opening(4)).toContain("Always bump the version first. RELEASE-SKILL-MARKER");
    expect(opening(4)).toContain("- [in_progress] Bump the version\n- [pending] Tag the release");
  });

  test("overflowing a small window compacts, keeps the constraint, and resumes from the summary", async () => {
    const big = Array.from({ length: 600 }, (_, i) => `line ${i}: ${"x".repeat(40)}`).join("\n");
    const dir = writeWorkspace({ "big.txt": big, "notes.txt": "old\n", "legacy/keep.txt": "keep\n" });
    const configDir = tempDirectory("clew-config-");
    const server = await startFakeAnthropic({
      script: [
        reply().toolUse("Read", { file_path: join(dir, "big.txt") }),
        (request) =>
          /write a summary of the conversation/.test(lastUserText(request)) ? reply().text(SUMMARY) : reply().text("no compaction request"),
        (request) =>
          requestText(request).includes(CONSTRAINT)
            ? reply().toolUse("Read", { file_path: join(dir, "notes.txt") })
            : reply().text("constraint lost"),
        reply().toolUse("Edit", { file_path: join(dir, "notes.txt"), old_string: "old", new_string: "new" }),
        reply().text("Updated notes.txt and left legacy/ alone."),
      ],
    });
    servers.push(server);
    const run = await runClew(
      ["-p", `Update notes.txt, and ${CONSTRAINT}.`, "--output-format", "json", "--permission-mode", "acceptEdits"],
      { cwd: dir, baseURL: server.url, configDir, env: { CLEW_CONTEXT_WINDOW: "12000" } },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(server.violations).toEqual([]);
    expect(JSON.parse(run.stdout)).toMatchObject({ subtype: "success", result: "Updated notes.txt and left legacy/ alone." });
    expect(readFileSync(join(dir, "notes.txt"), "utf8")).toBe("new\n");
    // After the summary request, history starts with the summary and still carries the constraint.
    const afterCompaction = server.requests[2] as RecordedRequest;
    const first = messagesOf(afterCompaction)[0];
    expect(first?.role).toBe("user");
    expect(String(first?.content[0]?.text)).toContain(SUMMARY);
    expect(String(first?.content[0]?.text)).toContain(CONSTRAINT);
    // The big read survives only as a shortened head and tail.
    expect(requestText(afterCompaction).length).toBeLessThan(requestText(server.requests[1] as RecordedRequest).length / 2);
    expect(requestText(afterCompaction)).toContain("characters truncated");

    const [path] = transcripts(configDir);
    const lines = transcriptLines(path as string) as Array<Record<string, unknown>>;
    expect(lines.some((line) => line.type === "system" && line.subtype === "compact_boundary")).toBe(true);
    const stored = transcriptMessages(path as string);
    const lastRequest = server.requests[4]?.body.messages;
    expect(stored.slice(0, -1)).toEqual(withoutCacheControl(lastRequest) as typeof stored);

    // Resuming rebuilds the compacted history, not the overflowing one.
    const session = (JSON.parse(run.stdout) as { session_id: string }).session_id;
    const resumed = await startFakeAnthropic({ script: [reply().text("resumed")] });
    servers.push(resumed);
    const again = await runClew(["-p", "-r", session, "what next?", "--output-format", "json"], { cwd: dir, baseURL: resumed.url, configDir });
    expect(again.code).toBe(0);
    expect(resumed.violations).toEqual([]);
    const resentMessages = withoutCacheControl(resumed.requests[0]?.body.messages) as unknown[];
    expect(resentMessages.slice(0, stored.length)).toEqual(stored.map((message, index) => (index === stored.length - 1 ? resentMessages[index] : message)) as unknown[]);
    expect(JSON.stringify(resentMessages)).toContain(SUMMARY);
  });
});

describe("scenario: /compact in headless mode", () => {
  test("-c '/compact <instructions>' summarises the last session; the next resume starts from the summary", async () => {
    const dir = writeWorkspace({ "a.txt": "alpha\n" });
    const configDir = tempDirectory("clew-config-");
    const first = await startFakeAnthropic({ script: [reply().toolUse("Read", { file_path: join(dir, "a.txt") }), reply().text("It says alpha.")] });
    servers.push(first);
    expect((await runClew(["-p", "what is in a.txt? keep answers short"], { cwd: dir, baseURL: first.url, configDir })).code).toBe(0);

    const summarizer = await startFakeAnthropic({
      script: [(request) => reply().text(/focus on a\.txt/.test(lastUserText(request)) ? "Summary: a.txt holds alpha." : "instructions lost")],
    });
    servers.push(summarizer);
    const compacted = await runClew(["-p", "-c", "/compact focus on a.txt", "--output-format", "stream-json", "--verbose"], {
      cwd: dir,
      baseURL: summarizer.url,
      configDir,
    });
    expect(compacted.code).toBe(0);
    const frames = compacted.stdout.trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(frames.find((frame) => frame.subtype === "compact_boundary")).toMatchObject({ compact_metadata: { trigger: "manual" } });
    expect(frames.at(-1)).toMatchObject({ type: "result", result: "Conversation compacted.", is_error: false });

    const next = await startFakeAnthropic({ script: [reply().text("ok")] });
    servers.push(next);
    expect((await runClew(["-p", "-c", "and now?"], { cwd: dir, baseURL: next.url, configDir })).code).toBe(0);
    const sent = JSON.stringify(next.requests[0]?.body.messages);
    expect(sent).toContain("Summary: a.txt holds alpha.");
    expect(sent).toContain("keep answers short");
    expect(next.violations).toEqual([]);
  });

  test("PreCompact and PostCompact hooks see the compaction; a PreCompact block stops it", async () => {
    const dir = writeWorkspace({ "a.txt": "alpha\n" });
    const configDir = tempDirectory("clew-config-");
    const first = await startFakeAnthropic({ script: [reply().toolUse("Read", { file_path: join(dir, "a.txt") }), reply().text("It says alpha.")] });
    servers.push(first);
    expect((await runClew(["-p", "what is in a.txt?"], { cwd: dir, baseURL: first.url, configDir })).code).toBe(0);

    const hooks = (pre: string) => ({
      hooks: {
        PreCompact: [{ hooks: [{ type: "command", command: pre }] }],
        PostCompact: [{ hooks: [{ type: "command", command: `cat > ${join(dir, "post.json")}` }] }],
      },
    });
    writeFileSync(join(configDir, "settings.json"), JSON.stringify(hooks(`cat > ${join(dir, "pre.json")}`)));
    const summarizer = await startFakeAnthropic({ script: [reply().text("Summary: alpha.")] });
    servers.push(summarizer);
    expect((await runClew(["-p", "-c", "/compact keep it short"], { cwd: dir, baseURL: summarizer.url, configDir })).code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, "pre.json"), "utf8"))).toMatchObject({ hook_event_name: "PreCompact", trigger: "manual", custom_instructions: "keep it short" });
    expect(JSON.parse(readFileSync(join(dir, "post.json"), "utf8"))).toMatchObject({ hook_event_name: "PostCompact", trigger: "manual", compact_summary: "Summary: alpha." });

    writeFileSync(join(configDir, "settings.json"), JSON.stringify(hooks("echo 'compaction is frozen during the release' >&2; exit 2")));
    const blocked = await startFakeAnthropic({ script: [reply().text("should not be asked")] });
    servers.push(blocked);
    const run = await runClew(["-p", "-c", "/compact"], { cwd: dir, baseURL: blocked.url, configDir });
    expect(run.stderr).toContain("compaction is frozen during the release");
    expect(blocked.requests.filter((request) => request.endpoint === "messages")).toHaveLength(0);
  });
});
