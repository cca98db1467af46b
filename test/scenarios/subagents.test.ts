// Helper agents against the compiled binary: three Explore helpers launched in one reply run at
// the same time and hand back only their final messages; a worktree helper's edits land on its
// own branch; a background helper's report reaches the parent as a reminder (a helper's own too);
// helpers' frames carry parent_tool_use_id, their hooks fire, their transcripts sit beside the parent's.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { messagesOf, reply, startFakeAnthropic, textOf, toolNames, toolResults, type FakeServer, type RecordedRequest, type ScriptStep } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";
import { parseFrames } from "../helpers/scenario.ts";
import { writeWorkspace } from "./workspaces.ts";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const systemText = (request: RecordedRequest) => JSON.stringify(request.body.system);
const firstUserText = (request: RecordedRequest) => textOf(messagesOf(request)[0]?.content as never);

function git(dir: string, ...args: string[]): string {
  const run = Bun.spawnSync(["git", "-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd: dir, stdout: "pipe", stderr: "pipe" });
  return run.stdout.toString();
}

function repo(files: Record<string, string>): string {
  const dir = writeWorkspace(files);
  git(dir, "init", "-q");
  git(dir, "add", ".");
  git(dir, "commit", "-qm", "initial");
  return dir;
}

const TOPICS = ["alpha", "beta", "gamma"] as const;

/** Each Explore helper reads its own file, then reports; the parent answers once all three are back. */
function exploreScript(dir: string): ScriptStep[] {
  const router: ScriptStep = (request) => {
    const system = systemText(request);
    if (system.includes("read-only search helper")) {
      const topic = TOPICS.find((name) => firstUserText(request).includes(`topic ${name}`)) ?? "none";
      const messages = messagesOf(request);
      if (messages.length === 1) return reply().toolUse("Read", { file_path: join(dir, `${topic}.txt`) });
      return reply().text(`SUMMARY-${topic.toUpperCase()}: the ${topic} file says hello.`);
    }
    return reply().text("All three helpers reported.");
  };
  return [
    reply()
      .text("I'll ask three helpers.")
      .toolUse("Agent", { description: "Explore alpha", prompt: "Find the topic alpha file and summarise it.", subagent_type: "Explore" })
      .toolUse("Agent", { description: "Explore beta", prompt: "Find the topic beta file and summarise it.", subagent_type: "Explore" })
      .toolUse("Agent", { description: "Explore gamma", prompt: "Find the topic gamma file and summarise it.", subagent_type: "Explore" }),
    ...Array.from({ length: 7 }, () => router),
  ];
}

/** The session id the run's frames carry. */
function sessionIdOf(frames: Array<Record<string, unknown>>): string {
  return String(frames.find((frame) => typeof frame.session_id === "string")?.session_id);
}

describe("helper agents", () => {
  test("three Explore helpers in one reply run concurrently and return only their final messages", async () => {
    const dir = repo(Object.fromEntries(TOPICS.map((topic) => [`${topic}.txt`, `${topic} BODY-MARKER-${topic}\n`])));
    const configDir = tempDirectory("clew-config-");
    const fake = (server = await startFakeAnthropic({ script: exploreScript(dir), eventDelayMs: 20 }));
    const result = await runClew(["-p", "Summarise the three topics", "--output-format", "stream-json", "--verbose"], { cwd: dir, baseURL: fake.url, configDir });
    if (result.code !== 0) console.error(result.stderr);
    expect(result.code).toBe(0);
    expect(fake.violations).toEqual([]);
    const requests = fake.requests;
    expect(requests.length).toBe(8);
    const helperFirst = requests.filter((request) => systemText(request).includes("read-only search helper") && messagesOf(request).length === 1);
    expect(helperFirst.length).toBe(3);
    // Overlap: every helper's first request arrived before any of them was answered.
    const lastArrival = Math.max(...helperFirst.map((request) => request.receivedAt));
    const firstAnswer = Math.min(...helperFirst.map((request) => request.answeredAt ?? Number.POSITIVE_INFINITY));
    expect(lastArrival).toBeLessThan(firstAnswer);
    // Explore gets read-only tools only, and no Agent tool of its own in plan mode's spirit.
    expect(toolNames(helperFirst[0] as RecordedRequest).sort()).toEqual(["Bash", "BashOutput", "Glob", "Grep", "KillShell", "Read"]);
    // The parent's next request: the first one plus the reply and three results — nothing of the helpers' own work.
    const parentRequests = requests.filter((request) => toolNames(request).includes("Agent"));
    expect(parentRequests.length).toBe(2);
    const [before, after] = parentRequests as [RecordedRequest, RecordedRequest];
    expect(messagesOf(after).length).toBe(messagesOf(before).length + 2);
    const results = toolResults(after);
    expect(results.map((entry) => entry.text.split("\n")[0]).sort()).toEqual(TOPICS.map((topic) => `SUMMARY-${topic.toUpperCase()}: the ${topic} file says hello.`));
    for (const entry of results) expect(entry.text).toMatch(/agentId: a[0-9a-f]{16} \(use SendMessage/);
    expect(JSON.stringify(after.body.messages)).not.toContain("BODY-MARKER");
    // stream-json: helper frames carry the Agent call's id.
    const frames = parseFrames(result.stdout);
    const agentCallIds = new Set<string>();
    const assistantFrames = frames.filter((frame) => frame.type === "assistant");
    const parentCalls = assistantFrames.flatMap((frame) => ((frame.message as { content: Array<{ type: string; id?: string; name?: string }> }).content).filter((block) => block.type === "tool_use" && block.name === "Agent").map((block) => block.id as string));
    for (const id of parentCalls) agentCallIds.add(id);
    expect(agentCallIds.size).toBe(3);
    const tagged = frames.filter((frame) => typeof frame.parent_tool_use_id === "string");
    expect(tagged.length).toBeGreaterThanOrEqual(9);
    for (const frame of tagged) expect(agentCallIds.has(frame.parent_tool_use_id as string)).toBe(true);
    // Each helper's transcript is its own JSONL beside the parent's.
    const projects = join(configDir, "projects");
    const project = readdirSync(projects)[0] as string;
    const sessionId = sessionIdOf(frames);
    const sessionDir = readdirSync(join(projects, project)).find((name) => name === sessionId) as string;
    const helperLogs = readdirSync(join(projects, project, sessionDir, "subagents"));
    expect(helperLogs.length).toBe(3);
    for (const name of helperLogs) expect(name).toMatch(/^agent-a[0-9a-f]{16}\.jsonl$/);
    const resultFrame = frames.find((frame) => frame.type === "result") as Record<string, unknown>;
    const modelUsage = resultFrame.modelUsage as Record<string, { inputTokens: number }>;
    // Explore runs on the fast model: its usage is reported beside the parent's.
    expect(Object.keys(modelUsage).length).toBe(2);
  }, 60_000);

  test("a worktree helper's edits land on its branch, not in the parent's tree", async () => {
    const dir = repo({ "src/app.ts": "export const answer = 1;\n" });
    writeFileSync(join(dir, "notes.txt"), "uncommitted parent work\n");
    const statusBefore = git(dir, "status", "--porcelain");
    const router: ScriptStep = (request) => {
      if (systemText(request).includes("You are a helper agent")) {
        const messages = messagesOf(request);
        const cwd = /Working directory: ([^\\\s"]+)/.exec(systemText(request))?.[1] ?? "";
        if (messages.length === 1) return reply().toolUse("Write", { file_path: join(cwd, "src/feature.ts"), content: "export const feature = true;\n" });
        return reply().text("Added src/feature.ts.");
      }
      return reply().text("The helper's branch holds the feature.");
    };
    const fake = (server = await startFakeAnthropic({ script: [reply().toolUse("Agent", { description: "Add feature", prompt: "Add src/feature.ts", isolation: "worktree" }), router, router, router] }));
    const result = await runClew(["-p", "Add a feature in a worktree", "--output-format", "json", "--permission-mode", "acceptEdits"], { cwd: dir, baseURL: fake.url, configDir: tempDirectory("clew-config-") });
    if (result.code !== 0) console.error(result.stderr);
    expect(result.code).toBe(0);
    const results = toolResults(fake.requests[3] as RecordedRequest);
    const text = results[0]?.text ?? "";
    const branch = /clew\/agent-[\w-]+/.exec(text)?.[0];
    expect(branch).toBeDefined();
    expect(text).toContain("src/feature.ts");
    // The parent's tree: exactly as before, and the feature exists only on the helper's branch.
    expect(existsSync(join(dir, "src/feature.ts"))).toBe(false);
    expect(git(dir, "status", "--porcelain")).toBe(statusBefore);
    expect(git(dir, "show", `${branch}:src/feature.ts`)).toBe("export const feature = true;\n");
  }, 60_000);

  test("a helper whose own helper runs in the background waits for its report before it answers", async () => {
    const dir = repo({ "a.txt": "a\n" });
    const router: ScriptStep = (request) => {
      const first = firstUserText(request);
      const last = JSON.stringify(messagesOf(request).at(-1));
      if (first.includes("Deep audit")) return reply().text("NESTED-REPORT: the deep audit is clean.");
      if (first.includes("Coordinate the audit")) {
        if (last.includes("NESTED-REPORT")) return reply().text("COORDINATOR-DONE: the deep audit is clean.");
        if (messagesOf(request).length === 1) return reply().toolUse("Agent", { description: "Deep audit", prompt: "Deep audit of the repo", run_in_background: true });
        return reply().text("COORDINATOR-WAITING");
      }
      if (toolResults(request).length === 0) return reply().toolUse("Agent", { description: "Coordinate", prompt: "Coordinate the audit", subagent_type: "general-purpose" });
      return reply().text(`Main: ${toolResults(request)[0]?.text.includes("COORDINATOR-DONE") ? "the coordinator reported the deep audit" : "the coordinator did not wait"}.`);
    };
    const fake = (server = await startFakeAnthropic({ script: Array.from({ length: 8 }, () => router) }));
    const result = await runClew(["-p", "Run the audit", "--output-format", "json"], { cwd: dir, baseURL: fake.url, configDir: tempDirectory("clew-config-") });
    if (result.code !== 0) console.error(result.stderr);
    expect(result.code).toBe(0);
    const coordinator = fake.requests.filter((request) => firstUserText(request).includes("Coordinate the audit"));
    // Launch, the launch result, then the nested report as a reminder: three requests of the coordinator's.
    expect(coordinator.map((request) => (JSON.stringify(messagesOf(request).at(-1)).includes("NESTED-REPORT") ? "report" : "other"))).toEqual(["other", "other", "report"]);
    expect((JSON.parse(result.stdout) as { result: string }).result).toBe("Main: the coordinator reported the deep audit.");
  }, 60_000);

  test("a background helper returns at once and its report reaches the parent as a reminder", async () => {
    const dir = repo({ "a.txt": "a\n" });
    const router: ScriptStep = (request) => {
      if (systemText(request).includes("You are a helper agent")) return reply().text("BACKGROUND-REPORT: the audit found nothing.");
      const last = JSON.stringify(messagesOf(request).at(-1));
      if (last.includes("BACKGROUND-REPORT")) return reply().text("The audit is done and found nothing.");
      return reply().text("The audit runs in the background.");
    };
    const fake = (server = await startFakeAnthropic({ script: [reply().toolUse("Agent", { description: "Audit", prompt: "Audit the repo", run_in_background: true }), router, router, router] }));
    const result = await runClew(["-p", "Audit in the background", "--output-format", "json"], { cwd: dir, baseURL: fake.url, configDir: tempDirectory("clew-config-") });
    if (result.code !== 0) console.error(result.stderr);
    expect(result.code).toBe(0);
    const launched = toolResults(fake.requests.find((request) => toolResults(request).length > 0 && !systemText(request).includes("You are a helper agent")) as RecordedRequest)[0]?.text ?? "";
    expect(launched).toContain("working in the background");
    expect(launched).not.toContain("BACKGROUND-REPORT");
    const parentRequests = fake.requests.filter((request) => !systemText(request).includes("You are a helper agent"));
    const last = parentRequests.at(-1) as RecordedRequest;
    expect(JSON.stringify(messagesOf(last).at(-1))).toContain("BACKGROUND-REPORT: the audit found nothing.");
    expect((JSON.parse(result.stdout) as { result: string }).result).toBe("The audit is done and found nothing.");
  }, 60_000);
});
