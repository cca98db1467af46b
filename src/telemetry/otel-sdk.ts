/**
 * The OpenTelemetry side: a meter provider and a logger provider with the configured exporters,
 * behind the `SignalPort` the sink calls. This is the only module that imports @opentelemetry
 * packages, and it is itself loaded only with `await import()` when telemetry is on, so a session
 * without telemetry never evaluates any of them.
 */
import type { Attributes as OtelAttributes, Counter, Logger, Meter } from "@opentelemetry/api";
import { SeverityNumber } from "@opentelemetry/api";
import { type ExportResult, ExportResultCode } from "@opentelemetry/core";
import { OTLPLogExporter as JsonLogExporter } from "@opentelemetry/exporter-logs-otlp-http";
import { OTLPLogExporter as ProtobufLogExporter } from "@opentelemetry/exporter-logs-otlp-proto";
import { OTLPMetricExporter as JsonMetricExporter } from "@opentelemetry/exporter-metrics-otlp-http";
import { OTLPMetricExporter as ProtobufMetricExporter } from "@opentelemetry/exporter-metrics-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchLogRecordProcessor, type LogRecordExporter, LoggerProvider, type ReadableLogRecord } from "@opentelemetry/sdk-logs";
import { AggregationTemporality, MeterProvider, PeriodicExportingMetricReader, type PushMetricExporter, type ResourceMetrics } from "@opentelemetry/sdk-metrics";
import type { Attributes } from "./attributes.ts";
import type { SignalExporter, TelemetryConfig } from "./config.ts";
import type { EventName, MetricName, SignalPort } from "./sink.ts";

/** The instrumentation scope of clew's meter and logger. */
const SCOPE = "clew";
/**
 * One export, retries included, may take this long (the SDK retries a refused connection until
 * then); so a collector that is down or never answers holds the exit of `clew -p` this long at most.
 */
const EXPORT_TIMEOUT_MS = 3_000;

const UNITS: Record<MetricName, { unit: string; description: string }> = {
  "claude_code.session.count": { unit: "count", description: "Count of CLI sessions started" },
  "claude_code.lines_of_code.count": { unit: "count", description: "Count of lines of code modified" },
  "claude_code.pull_request.count": { unit: "count", description: "Number of pull requests created" },
  "claude_code.commit.count": { unit: "count", description: "Number of git commits created" },
  "claude_code.cost.usage": { unit: "USD", description: "Cost of the session" },
  "claude_code.token.usage": { unit: "tokens", description: "Number of tokens used" },
  "claude_code.code_edit_tool.decision": { unit: "count", description: "Count of code editing tool permission decisions" },
};

export interface OpenedExport extends SignalPort {
  /** Exports what is pending and stops; resolves within the bound even when the collector hangs. */
  shutdown(): Promise<void>;
}

const succeeded: ExportResult = { code: ExportResultCode.SUCCESS };

function attributeText(attributes: Readonly<Record<string, unknown>>): string {
  return JSON.stringify(attributes);
}

/** `console`: one line per datapoint on stderr (stdout belongs to the answer and to -p json). */
class LineMetricExporter implements PushMetricExporter {
  constructor(private readonly write: (line: string) => void) {}

  export(metrics: ResourceMetrics, done: (result: ExportResult) => void): void {
    for (const scope of metrics.scopeMetrics) {
      for (const metric of scope.metrics) {
        for (const point of metric.dataPoints) {
          this.write(`telemetry: metric ${metric.descriptor.name} ${attributeText(point.attributes)} ${JSON.stringify(point.value)}`);
        }
      }
    }
    done(succeeded);
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

class LineLogExporter implements LogRecordExporter {
  constructor(private readonly write: (line: string) => void) {}

  export(logs: ReadableLogRecord[], done: (result: ExportResult) => void): void {
    for (const record of logs) this.write(`telemetry: event ${record.eventName ?? String(record.body)} ${attributeText(record.attributes)}`);
    done(succeeded);
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** The SDK drops a failed export silently; the user hears of the first failure per exporter. */
function reportingFailures(url: string, write: (line: string) => void): (result: ExportResult) => void {
  let said = false;
  return (result) => {
    if (result.code === ExportResultCode.SUCCESS || said) return;
    said = true;
    write(`telemetry: export to ${url} failed: ${result.error?.message ?? "no reason given"} (further failures are not reported)`);
  };
}

function metricExporter(exporter: SignalExporter, config: TelemetryConfig, write: (line: string) => void): PushMetricExporter {
  if (exporter.kind === "console") return new LineMetricExporter(write);
  const options = {
    url: exporter.url,
    headers: exporter.headers,
    timeoutMillis: EXPORT_TIMEOUT_MS,
    temporalityPreference: config.temporality === "cumulative" ? AggregationTemporality.CUMULATIVE : AggregationTemporality.DELTA,
  };
  const inner = exporter.protocol === "http/json" ? new JsonMetricExporter(options) : new ProtobufMetricExporter(options);
  const report = reportingFailures(exporter.url, write);
  return {
    export: (metrics, done) => inner.export(metrics, (result) => {
      report(result);
      done(result);
    }),
    forceFlush: () => inner.forceFlush(),
    shutdown: () => inner.shutdown(),
    // The exporter's own choice carries OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE.
    selectAggregationTemporality: (type) => inner.selectAggregationTemporality(type),
    selectAggregation: (type) => inner.selectAggregation(type),
  };
}

function logExporter(exporter: SignalExporter, write: (line: string) => void): LogRecordExporter {
  if (exporter.kind === "console") return new LineLogExporter(write);
  const options = { url: exporter.url, headers: exporter.headers, timeoutMillis: EXPORT_TIMEOUT_MS };
  const inner = exporter.protocol === "http/json" ? new JsonLogExporter(options) : new ProtobufLogExporter(options);
  const report = reportingFailures(exporter.url, write);
  return {
    export: (logs, done) => inner.export(logs, (result) => {
      report(result);
      done(result);
    }),
    forceFlush: () => inner.forceFlush(),
    shutdown: () => inner.shutdown(),
  };
}

function within(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return Promise.race([work.then(() => undefined, () => undefined), bound]).finally(() => clearTimeout(timer));
}

export function openExport(config: TelemetryConfig, resource: Attributes, version: string, write: (line: string) => void): OpenedExport {
  const shared = resourceFromAttributes(resource);
  const meters = config.metrics.length === 0 ? undefined : new MeterProvider({
    resource: shared,
    readers: config.metrics.map((exporter) => new PeriodicExportingMetricReader({
      exporter: metricExporter(exporter, config, write),
      exportIntervalMillis: config.metricIntervalMs,
      exportTimeoutMillis: Math.min(EXPORT_TIMEOUT_MS, config.metricIntervalMs),
    })),
  });
  const loggers = config.logs.length === 0 ? undefined : new LoggerProvider({
    resource: shared,
    processors: config.logs.map((exporter) => new BatchLogRecordProcessor({
      exporter: logExporter(exporter, write),
      scheduledDelayMillis: config.logsIntervalMs,
      exportTimeoutMillis: EXPORT_TIMEOUT_MS,
    })),
  });
  const meter: Meter | undefined = meters?.getMeter(SCOPE, version);
  const logger: Logger | undefined = loggers?.getLogger(SCOPE, version);
  const counters = new Map<MetricName, Counter>();
  const counter = (name: MetricName, owner: Meter): Counter => {
    let found = counters.get(name);
    if (!found) {
      found = owner.createCounter(name, UNITS[name]);
      counters.set(name, found);
    }
    return found;
  };
  return {
    add(name: MetricName, value: number, attributes: Attributes): void {
      if (meter) counter(name, meter).add(value, attributes as OtelAttributes);
    },
    emit(name: EventName, attributes: Attributes): void {
      const eventName = `claude_code.${name}`;
      logger?.emit({ eventName, body: eventName, severityNumber: SeverityNumber.INFO, attributes: attributes as OtelAttributes });
    },
    async shutdown(): Promise<void> {
      await within(Promise.all([meters?.shutdown(), loggers?.shutdown()]), EXPORT_TIMEOUT_MS + 500);
    },
  };
}
