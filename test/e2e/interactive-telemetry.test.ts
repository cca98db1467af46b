// Telemetry in a real terminal: two prompts, then Ctrl+D. The session's events and metrics reach
// the collector stand-in when the session closes (the export intervals are left long), each prompt
// with its own prompt.id, and the terminal is named in terminal.type.
import { afterEach, describe, expect, test } from "bun:test";
import { reply } from "../fake-anthropic/index.ts";
import { startCollector, type Collector } from "../helpers/otlp-collector.ts";
import { hasTmux, terminalHarness } from "../helpers/tmux.ts";

const { fake, open, workspace } = terminalHarness();

let collector: Collector | undefined;
afterEach(async () => {
  await collector?.close();
  collector = undefined;
});

describe.skipIf(!hasTmux)("telemetry in the interactive UI", () => {
  test("two prompts and Ctrl+D: one session, a user_prompt per prompt with its own prompt.id, delivered at exit", async () => {
    collector = await startCollector();
    const server = await fake([reply().text("First answer."), reply().text("Second answer.")]);
    const { dir, configDir } = workspace();
    const terminal = open({
      cwd: dir,
      configDir,
      baseURL: server.url,
      env: {
        CLAUDE_CODE_ENABLE_TELEMETRY: "1",
        OTEL_METRICS_EXPORTER: "otlp",
        OTEL_LOGS_EXPORTER: "otlp",
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        OTEL_LOGS_EXPORT_INTERVAL: "600000",
      },
    });
    await terminal.waitFor("/help for help");
    terminal.type("first question");
    terminal.keys("Enter");
    await terminal.waitFor("First answer.");
    terminal.type("second question");
    terminal.keys("Enter");
    await terminal.waitFor("Second answer.");
    // Nothing yet: both intervals are minutes long.
    expect(collector.requests).toEqual([]);
    terminal.keys("C-d");
    expect(await terminal.exitCode()).toBe(0);

    const prompts = collector.logRecords().filter((record) => record.eventName === "claude_code.user_prompt");
    expect(prompts.map((record) => record.attributes.prompt_length)).toEqual(["first question".length, "second question".length]);
    expect(new Set(prompts.map((record) => record.attributes["prompt.id"])).size).toBe(2);
    expect(prompts[0]?.attributes["terminal.type"]).toBe("xterm-256color");
    const sessions = collector.datapoints().filter((point) => point.name === "claude_code.session.count");
    expect(sessions.map((point) => [point.value, point.attributes.start_type, point.attributes["session.id"]])).toEqual([[1, "fresh", prompts[0]?.attributes["session.id"]]]);
    expect(collector.logRecords().filter((record) => record.eventName === "claude_code.api_request").length).toBe(2);
  });
});
