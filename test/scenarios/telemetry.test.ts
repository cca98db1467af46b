// Telemetry against the compiled binary: a `clew -p` task that greps, reads, edits a file and runs
// the tests, with an OTLP/HTTP collector stand-in on 127.0.0.1. With telemetry on, the collector
// receives Claude Code's metric and event names with their attributes before clew exits (the
// export intervals are left long, so only the flush on exit can deliver them); with it off, the
// collector hears nothing and the model's first request is the same.
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { messagesOf, reply, startFakeAnthropic, type FakeServer, type RecordedRequest } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";
import { startCollector, type Collector, type Datapoint } from "../helpers/otlp-collector.ts";
import { failingTestWorkspace, fixScript, writeWorkspace } from "./workspaces.ts";

const PROMPT = "the test in test/math.test.ts fails; fix the bug";

let fake: FakeServer | undefined;
let collector: Collector | undefined;
afterEach(async () => {
  await fake?.close();
  await collector?.close();
  fake = undefined;
  collector = undefined;
});

function exporting(url: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    CLAUDE_CODE_ENABLE_TELEMETRY: "1",
    OTEL_METRICS_EXPORTER: "otlp",
    OTEL_LOGS_EXPORTER: "otlp",
    OTEL_EXPORTER_OTLP_ENDPOINT: url,
    OTEL_EXPORTER_OTLP_HEADERS: "Authorization=Bearer%20collector-token",
    OTEL_RESOURCE_ATTRIBUTES: "team.id=platform,department=eng",
    ...extra,
  };
}

async function fixWithTelemetry(env: Record<string, string>, args: string[] = []) {
  const dir = failingTestWorkspace();
  const configDir = tempDirectory("clew-config-");
  fake = await startFakeAnthropic({ script: fixScript(dir) });
  const run = await runClew(["-p", PROMPT, "--output-format", "json", "--permission-mode", "bypassPermissions", ...args], { cwd: dir, baseURL: fake.url, configDir, env });
  return { dir, configDir, run, requests: fake.requests };
}

function points(all: Datapoint[], name: string): Datapoint[] {
  return all.filter((point) => point.name === name);
}

/** The first request as the model saw it, with the run's own folder and session written the same way. */
function comparable(request: RecordedRequest | undefined, dir: string, sessionId: string): unknown {
  const text = JSON.stringify(request?.body).replaceAll(dir, "<dir>").replaceAll(sessionId, "<session>");
  return JSON.parse(text);
}

describe("scenario: telemetry", () => {
  test("on (http/json): metrics and events with Claude Code's names and attributes reach the collector before exit", async () => {
    collector = await startCollector();
    const { run, requests } = await fixWithTelemetry(exporting(collector.url, { OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" }));
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as { session_id: string; total_cost_usd: number; usage: Record<string, number> };
    expect(requests.length).toBe(5);
    expect(new Set(collector.requests.map((request) => `${request.path} ${request.headers.authorization}`))).toEqual(
      new Set(["/v1/metrics Bearer collector-token", "/v1/logs Bearer collector-token"]),
    );

    const metrics = collector.datapoints();
    const standard = { "user.id": expect.stringMatching(/^[0-9a-f]{64}$/), "session.id": result.session_id, "team.id": "platform", department: "eng" };
    const { model, output_config } = requests[0]?.body as { model: string; output_config: { effort: string } };
    // The level the requests carried (the model's default here).
    const effort = output_config.effort;
    expect(new Set(metrics.map((point) => point.name))).toEqual(
      new Set(["claude_code.session.count", "claude_code.token.usage", "claude_code.cost.usage", "claude_code.code_edit_tool.decision", "claude_code.lines_of_code.count"]),
    );
    expect(metrics[0]?.resource).toMatchObject({ "service.name": "clew", "os.type": process.platform, "team.id": "platform", department: "eng" });
    expect(points(metrics, "claude_code.session.count").map(({ attributes, value, unit }) => ({ attributes, value, unit }))).toEqual([
      { attributes: { ...standard, start_type: "fresh" }, value: 1, unit: "count" },
    ]);
    // Tokens by type add up to the run's own usage; the cost to its total.
    const tokens = Object.fromEntries(points(metrics, "claude_code.token.usage").map((point) => [point.attributes.type, point.value]));
    expect(tokens).toEqual({
      input: result.usage.input_tokens,
      output: result.usage.output_tokens,
      cacheRead: result.usage.cache_read_input_tokens,
      cacheCreation: result.usage.cache_creation_input_tokens,
    });
    expect(points(metrics, "claude_code.token.usage")[0]?.attributes).toEqual({ ...standard, model, effort, query_source: "main", type: "input" });
    const [cost] = points(metrics, "claude_code.cost.usage");
    expect(cost?.unit).toBe("USD");
    expect(cost?.value).toBeCloseTo(result.total_cost_usd, 9);
    expect(points(metrics, "claude_code.code_edit_tool.decision").map(({ attributes, value }) => ({ attributes, value }))).toEqual([
      { attributes: { ...standard, tool_name: "Edit", decision: "accept", source: "config", language: "TypeScript" }, value: 1 },
    ]);
    expect(points(metrics, "claude_code.lines_of_code.count").map(({ attributes, value }) => ({ attributes, value }))).toEqual([
      { attributes: { ...standard, type: "added", model }, value: 1 },
      { attributes: { ...standard, type: "removed", model }, value: 1 },
    ]);

    const events = collector.logRecords();
    expect(events.map((event) => event.eventName)).toEqual([
      "claude_code.user_prompt",
      "claude_code.api_request", "claude_code.assistant_response", "claude_code.tool_decision", "claude_code.tool_result",
      "claude_code.api_request", "claude_code.tool_decision", "claude_code.tool_result",
      "claude_code.api_request", "claude_code.assistant_response", "claude_code.tool_decision", "claude_code.tool_result",
      "claude_code.api_request", "claude_code.tool_decision", "claude_code.tool_result",
      "claude_code.api_request", "claude_code.assistant_response",
    ]);
    expect(events.map((event) => event.attributes["event.sequence"])).toEqual(events.map((_, index) => index + 1));
    expect(new Set(events.map((event) => event.attributes["prompt.id"])).size).toBe(1);
    const [prompt] = events;
    expect(prompt?.attributes).toEqual({
      ...standard,
      "event.name": "user_prompt",
      "event.timestamp": expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      "event.sequence": 1,
      "prompt.id": expect.stringMatching(/^[0-9a-f-]{36}$/),
      prompt_length: PROMPT.length,
      prompt: "<REDACTED>",
    });
    const tools = events.filter((event) => event.eventName === "claude_code.tool_result");
    expect(tools.map((event) => [event.attributes.tool_name, event.attributes.success, event.attributes.decision_source])).toEqual([
      ["Grep", "true", "config"], ["Read", "true", "config"], ["Edit", "true", "config"], ["Bash", "true", "config"],
    ]);
    // Without OTEL_LOG_TOOL_DETAILS the command and arguments stay out.
    expect(tools.some((event) => "tool_parameters" in event.attributes || "tool_input" in event.attributes)).toBe(false);
    const first = events.find((event) => event.eventName === "claude_code.api_request");
    expect(first?.attributes).toMatchObject({ model, effort, query_source: "repl_main_thread", input_tokens: expect.any(Number), cost_usd: expect.any(Number), duration_ms: expect.any(Number) });
  });

  test("on (http/protobuf, the default protocol): protobuf bodies carrying the metric and event names", async () => {
    collector = await startCollector();
    const { run } = await fixWithTelemetry(exporting(collector.url));
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const byPath = (path: string) => collector?.requests.filter((request) => request.path === path) ?? [];
    const text = (path: string) => byPath(path).map((request) => new TextDecoder().decode(request.body)).join("\n");
    expect(byPath("/v1/metrics").map((request) => request.contentType)).toContain("application/x-protobuf");
    expect(byPath("/v1/logs").map((request) => request.contentType)).toContain("application/x-protobuf");
    for (const name of ["claude_code.session.count", "claude_code.token.usage", "claude_code.cost.usage", "claude_code.lines_of_code.count", "claude_code.code_edit_tool.decision"]) {
      expect(text("/v1/metrics")).toContain(name);
    }
    for (const name of ["claude_code.user_prompt", "claude_code.api_request", "claude_code.tool_decision", "claude_code.tool_result"]) {
      expect(text("/v1/logs")).toContain(name);
    }
  });

  test("off: OTEL_* set but telemetry not enabled — the collector hears nothing and the first request is unchanged", async () => {
    collector = await startCollector();
    const { OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_METRICS_EXPORTER, OTEL_LOGS_EXPORTER } = exporting(collector.url);
    const off = await fixWithTelemetry({ OTEL_EXPORTER_OTLP_ENDPOINT: OTEL_EXPORTER_OTLP_ENDPOINT ?? "", OTEL_METRICS_EXPORTER: OTEL_METRICS_EXPORTER ?? "", OTEL_LOGS_EXPORTER: OTEL_LOGS_EXPORTER ?? "" });
    expect(off.run.code).toBe(0);
    expect(off.run.stderr).toBe("");
    expect(collector.requests).toEqual([]);
    const offFirst = comparable(off.requests[0], off.dir, (JSON.parse(off.run.stdout) as { session_id: string }).session_id);
    await fake?.close();

    const on = await fixWithTelemetry(exporting(collector.url, { OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" }));
    expect(on.run.code).toBe(0);
    expect(collector.requests.length).toBeGreaterThan(0);
    expect(comparable(on.requests[0], on.dir, (JSON.parse(on.run.stdout) as { session_id: string }).session_id)).toEqual(offFirst);
    expect(Object.keys(on.requests[0]?.headers ?? {}).sort()).toEqual(Object.keys(off.requests[0]?.headers ?? {}).sort());
  });

  test("a denied edit (headless, default mode): tool_decision reject and a code-edit decision, no tool_result; OTEL_LOG_USER_PROMPTS=1 keeps the prompt", async () => {
    collector = await startCollector();
    const dir = writeWorkspace({ "README.md": "# demo\n" });
    const configDir = tempDirectory("clew-config-");
    fake = await startFakeAnthropic({ script: [reply().toolUse("Write", { file_path: join(dir, "tool.py"), content: "print(1)\n" }), reply().text("I could not write it.")] });
    const prompt = "write tool.py";
    const run = await runClew(["-p", prompt], {
      cwd: dir, baseURL: fake.url, configDir, env: exporting(collector.url, { OTEL_EXPORTER_OTLP_PROTOCOL: "http/json", OTEL_LOG_USER_PROMPTS: "1", OTEL_LOG_TOOL_DETAILS: "1" }),
    });
    expect(run.code).toBe(0);
    const events = collector.logRecords();
    expect(events.map((event) => event.eventName)).toEqual([
      "claude_code.user_prompt", "claude_code.api_request", "claude_code.tool_decision", "claude_code.api_request", "claude_code.assistant_response",
    ]);
    expect(events[0]?.attributes.prompt).toBe(prompt);
    expect(events[2]?.attributes).toMatchObject({ tool_name: "Write", decision: "reject", source: "config", tool_use_id: expect.stringMatching(/^toolu_/) });
    const decisions = points(collector.datapoints(), "claude_code.code_edit_tool.decision");
    expect(decisions.map((point) => [point.attributes.tool_name, point.attributes.decision, point.attributes.source, point.attributes.language, point.value])).toEqual([
      ["Write", "reject", "config", "Python", 1],
    ]);
    expect(points(collector.datapoints(), "claude_code.lines_of_code.count")).toEqual([]);
  });

  test("a collector that is down: the run succeeds and the failure is said once per exporter on stderr", async () => {
    const gone = await startCollector();
    const url = gone.url;
    await gone.close();
    const { run } = await fixWithTelemetry(exporting(url, { OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" }));
    expect(run.code).toBe(0);
    const notes = run.stderr.trim().split("\n");
    expect(notes.map((line) => line.replace(/ failed: .*\(/, " failed: <reason> ("))).toEqual(expect.arrayContaining([
      `clew: telemetry: export to ${url}/v1/metrics failed: <reason> (further failures are not reported)`,
      `clew: telemetry: export to ${url}/v1/logs failed: <reason> (further failures are not reported)`,
    ]));
    expect(notes.length).toBe(2);
  });

  test("console exporters write one line per datapoint and event to stderr, never to stdout; grpc is refused with a note", async () => {
    const { run } = await fixWithTelemetry({
      CLEW_ENABLE_TELEMETRY: "1", OTEL_METRICS_EXPORTER: "console", OTEL_LOGS_EXPORTER: "console,otlp", OTEL_EXPORTER_OTLP_LOGS_PROTOCOL: "grpc",
    });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ type: "result", subtype: "success" });
    const lines = run.stderr.trim().split("\n");
    expect(lines[0]).toBe("clew: telemetry: OTEL_EXPORTER_OTLP_LOGS_PROTOCOL=grpc is not supported by clew; events are not exported. Use http/protobuf or http/json (a collector's OTLP/HTTP port, usually 4318).");
    expect(lines.filter((line) => line.startsWith("clew: telemetry: event claude_code.tool_result ")).length).toBe(4);
    expect(lines.some((line) => /^clew: telemetry: metric claude_code\.session\.count \{.*"start_type":"fresh".*\} 1$/.test(line))).toBe(true);
    expect(lines.every((line) => line.startsWith("clew: telemetry: "))).toBe(true);
  });

  test("a helper agent: its request counts as query_source subagent with its type, its tool call is recorded, the prompt is the user's only", async () => {
    collector = await startCollector();
    const dir = writeWorkspace({ "notes.txt": "hello\n" });
    const configDir = tempDirectory("clew-config-");
    const helper = (request: RecordedRequest) => JSON.stringify(request.body.system).includes("read-only search helper");
    fake = await startFakeAnthropic({
      script: [
        reply().toolUse("Agent", { description: "Read notes", prompt: "Read notes.txt and report.", subagent_type: "Explore" }),
        ...Array.from({ length: 3 }, () => (request: RecordedRequest) => {
          if (!helper(request)) return reply().text("The helper reported.");
          return messagesOf(request).length === 1 ? reply().toolUse("Read", { file_path: join(dir, "notes.txt") }) : reply().text("notes.txt says hello.");
        }),
      ],
    });
    const run = await runClew(["-p", "summarise notes.txt with a helper", "--permission-mode", "bypassPermissions"], {
      cwd: dir, baseURL: fake.url, configDir, env: exporting(collector.url, { OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" }),
    });
    expect(run.code).toBe(0);
    expect(fake.requests.length).toBe(4);
    const requests = collector.logRecords().filter((record) => record.eventName === "claude_code.api_request");
    expect(requests.map((record) => [record.attributes.query_source, record.attributes["agent.name"]])).toEqual([
      ["repl_main_thread", undefined], ["Explore", "Explore"], ["Explore", "Explore"], ["repl_main_thread", undefined],
    ]);
    expect(collector.logRecords().filter((record) => record.eventName === "claude_code.tool_result").map((record) => record.attributes.tool_name)).toEqual(["Read", "Agent"]);
    expect(collector.logRecords().filter((record) => record.eventName === "claude_code.user_prompt").length).toBe(1);
    const sources = collector.datapoints().filter((point) => point.name === "claude_code.cost.usage").map((point) => [point.attributes.query_source, point.attributes["agent.name"]]);
    expect(new Set(sources.map((pair) => JSON.stringify(pair)))).toEqual(new Set([JSON.stringify(["main", undefined]), JSON.stringify(["subagent", "Explore"])]));
  });

  test("session.count says how the session started: fresh, then continue, then resume by id", async () => {
    collector = await startCollector();
    const dir = writeWorkspace({ "README.md": "# demo\n" });
    const configDir = tempDirectory("clew-config-");
    fake = await startFakeAnthropic({ script: [reply().text("one"), reply().text("two"), reply().text("three")] });
    const env = exporting(collector.url, { OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" });
    const first = await runClew(["-p", "hello", "--output-format", "json"], { cwd: dir, baseURL: fake.url, configDir, env });
    const sessionId = (JSON.parse(first.stdout) as { session_id: string }).session_id;
    const second = await runClew(["-p", "again", "--continue"], { cwd: dir, baseURL: fake.url, configDir, env });
    const third = await runClew(["-p", "once more", "--resume", sessionId], { cwd: dir, baseURL: fake.url, configDir, env });
    expect([first.code, second.code, third.code]).toEqual([0, 0, 0]);
    const starts = collector.datapoints().filter((point) => point.name === "claude_code.session.count");
    expect(starts.map((point) => [point.attributes.start_type, point.attributes["session.id"]])).toEqual([
      ["fresh", sessionId], ["continue", sessionId], ["resume", sessionId],
    ]);
  });
});
