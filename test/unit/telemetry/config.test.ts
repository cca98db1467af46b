import { describe, expect, test } from "bun:test";
import { readTelemetryConfig, telemetryEnabled, type TelemetryConfig } from "../../../src/telemetry/config.ts";

const DEFAULTS: TelemetryConfig = {
  metrics: [],
  logs: [],
  metricIntervalMs: 60_000,
  logsIntervalMs: 5_000,
  temporality: "delta",
  resourceAttributes: {},
  serviceName: "clew",
  include: { sessionId: true, version: false, entrypoint: false, resourceAttributes: true },
  logUserPrompts: false,
  logAssistantResponses: false,
  logToolDetails: false,
};

describe("telemetry configuration", () => {
  test("off unless CLAUDE_CODE_ENABLE_TELEMETRY or CLEW_ENABLE_TELEMETRY is truthy, whatever OTEL_* says", () => {
    expect(readTelemetryConfig({ OTEL_METRICS_EXPORTER: "otlp", OTEL_EXPORTER_OTLP_ENDPOINT: "http://x" })).toEqual({ config: undefined, notes: [] });
    expect(telemetryEnabled({ CLAUDE_CODE_ENABLE_TELEMETRY: "0" })).toBe(false);
    expect(telemetryEnabled({ CLAUDE_CODE_ENABLE_TELEMETRY: "false" })).toBe(false);
    expect(telemetryEnabled({ CLAUDE_CODE_ENABLE_TELEMETRY: "1" })).toBe(true);
    expect(telemetryEnabled({ CLEW_ENABLE_TELEMETRY: "true" })).toBe(true);
  });

  test("on without an exporter: nothing is exported, and the note says which variables to set", () => {
    expect(readTelemetryConfig({ CLEW_ENABLE_TELEMETRY: "1" })).toEqual({
      config: DEFAULTS,
      notes: ["telemetry is on but no exporter is chosen: set OTEL_METRICS_EXPORTER and/or OTEL_LOGS_EXPORTER (otlp or console)."],
    });
  });

  test("otlp: shared endpoint plus /v1/<signal>, per-signal endpoint as written, headers percent-decoded, protobuf by default", () => {
    const { config, notes } = readTelemetryConfig({
      CLAUDE_CODE_ENABLE_TELEMETRY: "1",
      OTEL_METRICS_EXPORTER: "otlp,console",
      OTEL_LOGS_EXPORTER: "otlp",
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/",
      OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: "https://logs.example.com/ingest",
      OTEL_EXPORTER_OTLP_LOGS_PROTOCOL: "http/json",
      OTEL_EXPORTER_OTLP_HEADERS: "Authorization=Bearer%20abc,x-team=core",
      OTEL_EXPORTER_OTLP_LOGS_HEADERS: "x-team=logs",
      OTEL_METRIC_EXPORT_INTERVAL: "1000",
      OTEL_LOGS_EXPORT_INTERVAL: "250",
      OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE: "cumulative",
      OTEL_RESOURCE_ATTRIBUTES: "team.id=platform,org.name=John%27s%20Org",
      OTEL_SERVICE_NAME: "clew-ci",
      OTEL_METRICS_INCLUDE_SESSION_ID: "false",
      OTEL_METRICS_INCLUDE_VERSION: "true",
      OTEL_LOG_USER_PROMPTS: "1",
      OTEL_LOG_TOOL_DETAILS: "1",
    });
    expect(notes).toEqual([]);
    expect(config).toEqual({
      ...DEFAULTS,
      metrics: [
        { kind: "otlp", protocol: "http/protobuf", url: "http://collector:4318/v1/metrics", headers: { Authorization: "Bearer abc", "x-team": "core" } },
        { kind: "console" },
      ],
      logs: [{ kind: "otlp", protocol: "http/json", url: "https://logs.example.com/ingest", headers: { Authorization: "Bearer abc", "x-team": "logs" } }],
      metricIntervalMs: 1000,
      logsIntervalMs: 250,
      temporality: "cumulative",
      resourceAttributes: { "team.id": "platform", "org.name": "John's Org" },
      serviceName: "clew-ci",
      include: { sessionId: false, version: true, entrypoint: false, resourceAttributes: true },
      logUserPrompts: true,
      // Falls back to OTEL_LOG_USER_PROMPTS, as Claude Code documents.
      logAssistantResponses: true,
      logToolDetails: true,
    });
  });

  test("what clew cannot honour is said, and only that signal or value is dropped", () => {
    const { config, notes } = readTelemetryConfig({
      CLAUDE_CODE_ENABLE_TELEMETRY: "1",
      OTEL_METRICS_EXPORTER: "prometheus,otlp",
      OTEL_LOGS_EXPORTER: "otlp,jaeger",
      OTEL_EXPORTER_OTLP_PROTOCOL: "grpc",
      OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: "http/json",
      OTEL_METRIC_EXPORT_INTERVAL: "soon",
      OTEL_RESOURCE_ATTRIBUTES: "team.id=platform,broken",
      OTEL_LOG_USER_PROMPTS: "1",
      OTEL_LOG_ASSISTANT_RESPONSES: "0",
    });
    expect(config?.metrics).toEqual([{ kind: "otlp", protocol: "http/json", url: "http://localhost:4318/v1/metrics", headers: {} }]);
    expect(config?.logs).toEqual([]);
    expect(config?.resourceAttributes).toEqual({ "team.id": "platform" });
    expect(config?.metricIntervalMs).toBe(60_000);
    expect(config?.logAssistantResponses).toBe(false);
    expect(notes).toEqual([
      "OTEL_METRICS_EXPORTER=prometheus is not supported by clew; use otlp (to a collector that Prometheus scrapes) or console.",
      "OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported by clew; events are not exported. Use http/protobuf or http/json (a collector's OTLP/HTTP port, usually 4318).",
      "OTEL_LOGS_EXPORTER: 'jaeger' is not an exporter clew knows; use otlp, console or none.",
      "OTEL_METRIC_EXPORT_INTERVAL=soon is not a positive number of milliseconds; using 60000.",
      "OTEL_RESOURCE_ATTRIBUTES: 'broken' is not key=value; it was left out.",
    ]);
  });

  test("none wins over anything listed with it", () => {
    expect(readTelemetryConfig({ CLEW_ENABLE_TELEMETRY: "1", OTEL_METRICS_EXPORTER: "otlp,none", OTEL_LOGS_EXPORTER: "none" }).config).toMatchObject({ metrics: [], logs: [] });
  });
});
