/**
 * The telemetry configuration, read from the `OTEL_*` variables Claude Code documents (its
 * "Monitoring" page) plus clew's own switch. Pure: it gets the variables as a record and returns
 * what to export where, with a note for every value it cannot honour, so a misconfiguration is
 * said once instead of silently exporting nothing.
 */

/** The wire formats clew's OTLP exporters speak. gRPC is not one of them (see `readTelemetryConfig`). */
export type OtlpProtocol = "http/json" | "http/protobuf";

export type SignalExporter =
  | { kind: "otlp"; protocol: OtlpProtocol; url: string; headers: Record<string, string> }
  | { kind: "console" };

export interface AttributeSwitches {
  /** OTEL_METRICS_INCLUDE_SESSION_ID (default on). */
  sessionId: boolean;
  /** OTEL_METRICS_INCLUDE_VERSION (default off): `app.version`. */
  version: boolean;
  /** OTEL_METRICS_INCLUDE_ENTRYPOINT (default off): `app.entrypoint`. */
  entrypoint: boolean;
  /** OTEL_METRICS_INCLUDE_RESOURCE_ATTRIBUTES (default on): OTEL_RESOURCE_ATTRIBUTES keys on every datapoint and event. */
  resourceAttributes: boolean;
}

export interface TelemetryConfig {
  metrics: SignalExporter[];
  logs: SignalExporter[];
  metricIntervalMs: number;
  logsIntervalMs: number;
  temporality: "delta" | "cumulative";
  /** OTEL_RESOURCE_ATTRIBUTES, decoded. */
  resourceAttributes: Record<string, string>;
  /** OTEL_SERVICE_NAME, else `clew`. */
  serviceName: string;
  include: AttributeSwitches;
  /** OTEL_LOG_USER_PROMPTS: prompt text on `user_prompt` events (otherwise `<REDACTED>`). */
  logUserPrompts: boolean;
  /** OTEL_LOG_ASSISTANT_RESPONSES, falling back to OTEL_LOG_USER_PROMPTS. */
  logAssistantResponses: boolean;
  /** OTEL_LOG_TOOL_DETAILS: `tool_parameters` and `tool_input` on tool events. */
  logToolDetails: boolean;
}

export interface ConfigReading {
  /** Undefined when telemetry is off (the default). */
  config: TelemetryConfig | undefined;
  /** One line per value that could not be honoured, for the user. */
  notes: string[];
}

export type Variables = Readonly<Record<string, string | undefined>>;

const DEFAULT_ENDPOINT = "http://localhost:4318";
const DEFAULT_METRIC_INTERVAL_MS = 60_000;
const DEFAULT_LOGS_INTERVAL_MS = 5_000;
const SIGNAL_PATHS = { METRICS: "v1/metrics", LOGS: "v1/logs" } as const;
type Signal = keyof typeof SIGNAL_PATHS;

function truthy(value: string | undefined): boolean {
  return value !== undefined && value !== "" && value !== "0" && value.toLowerCase() !== "false";
}

function flag(value: string | undefined, fallback: boolean): boolean {
  return value === undefined || value === "" ? fallback : truthy(value);
}

function set(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === "" ? undefined : trimmed;
}

/** The switch: Claude Code's CLAUDE_CODE_ENABLE_TELEMETRY, or clew's own CLEW_ENABLE_TELEMETRY. */
export function telemetryEnabled(vars: Variables): boolean {
  return truthy(vars.CLAUDE_CODE_ENABLE_TELEMETRY) || truthy(vars.CLEW_ENABLE_TELEMETRY);
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** `key1=value1,key2=value2` (OTEL_RESOURCE_ATTRIBUTES, OTEL_EXPORTER_OTLP_HEADERS), values percent-decoded. */
export function parseKeyValueList(raw: string | undefined, variable: string, notes: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of (raw ?? "").split(",")) {
    if (entry.trim() === "") continue;
    const equals = entry.indexOf("=");
    const key = equals > 0 ? entry.slice(0, equals).trim() : "";
    if (key === "") {
      notes.push(`${variable}: '${entry.trim()}' is not key=value; it was left out.`);
      continue;
    }
    out[decode(key)] = decode(entry.slice(equals + 1).trim());
  }
  return out;
}

function interval(vars: Variables, name: string, fallback: number, notes: string[]): number {
  const raw = set(vars[name]);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (Number.isInteger(value) && value > 0) return value;
  notes.push(`${name}=${raw} is not a positive number of milliseconds; using ${fallback}.`);
  return fallback;
}

/** The signal's URL: its own endpoint as written, else the shared endpoint plus `/v1/<signal>`. */
function signalUrl(vars: Variables, signal: Signal): string {
  const own = set(vars[`OTEL_EXPORTER_OTLP_${signal}_ENDPOINT`]);
  if (own) return own;
  const base = set(vars.OTEL_EXPORTER_OTLP_ENDPOINT) ?? DEFAULT_ENDPOINT;
  return `${base.replace(/\/+$/, "")}/${SIGNAL_PATHS[signal]}`;
}

function signalProtocol(vars: Variables, signal: Signal, notes: string[]): OtlpProtocol | undefined {
  const ownName = `OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`;
  const own = set(vars[ownName]);
  const name = own ? ownName : "OTEL_EXPORTER_OTLP_PROTOCOL";
  const protocol = own ?? set(vars.OTEL_EXPORTER_OTLP_PROTOCOL) ?? "http/protobuf";
  if (protocol === "http/json" || protocol === "http/protobuf") return protocol;
  const what = signal === "METRICS" ? "metrics" : "events";
  if (protocol === "grpc") {
    notes.push(`${name}=grpc is not supported by clew; ${what} are not exported. Use http/protobuf or http/json (a collector's OTLP/HTTP port, usually 4318).`);
  } else {
    notes.push(`${name}=${protocol} is not a known protocol; ${what} are not exported. Use http/protobuf or http/json.`);
  }
  return undefined;
}

function exporters(vars: Variables, signal: Signal, notes: string[]): SignalExporter[] {
  const name = signal === "METRICS" ? "OTEL_METRICS_EXPORTER" : "OTEL_LOGS_EXPORTER";
  const kinds = [...new Set((vars[name] ?? "").split(",").map((kind) => kind.trim()).filter(Boolean))];
  if (kinds.includes("none")) return [];
  const out: SignalExporter[] = [];
  for (const kind of kinds) {
    if (kind === "console") out.push({ kind: "console" });
    else if (kind === "otlp") {
      const protocol = signalProtocol(vars, signal, notes);
      if (!protocol) continue;
      const headers = {
        ...parseKeyValueList(vars.OTEL_EXPORTER_OTLP_HEADERS, "OTEL_EXPORTER_OTLP_HEADERS", notes),
        ...parseKeyValueList(vars[`OTEL_EXPORTER_OTLP_${signal}_HEADERS`], `OTEL_EXPORTER_OTLP_${signal}_HEADERS`, notes),
      };
      out.push({ kind: "otlp", protocol, url: signalUrl(vars, signal), headers });
    } else if (kind === "prometheus" && signal === "METRICS") {
      notes.push(`${name}=prometheus is not supported by clew; use otlp (to a collector that Prometheus scrapes) or console.`);
    } else {
      notes.push(`${name}: '${kind}' is not an exporter clew knows; use otlp, console or none.`);
    }
  }
  return out;
}

/** Reads the configuration; `config` is undefined unless CLAUDE_CODE_ENABLE_TELEMETRY or CLEW_ENABLE_TELEMETRY is set. */
export function readTelemetryConfig(vars: Variables): ConfigReading {
  const notes: string[] = [];
  if (!telemetryEnabled(vars)) return { config: undefined, notes };
  const metrics = exporters(vars, "METRICS", notes);
  const logs = exporters(vars, "LOGS", notes);
  if (set(vars.OTEL_METRICS_EXPORTER) === undefined && set(vars.OTEL_LOGS_EXPORTER) === undefined) {
    notes.push("telemetry is on but no exporter is chosen: set OTEL_METRICS_EXPORTER and/or OTEL_LOGS_EXPORTER (otlp or console).");
  }
  const temporalityRaw = set(vars.OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE)?.toLowerCase();
  if (temporalityRaw !== undefined && temporalityRaw !== "delta" && temporalityRaw !== "cumulative") {
    notes.push(`OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE=${temporalityRaw} is not delta or cumulative; using delta.`);
  }
  const logUserPrompts = truthy(vars.OTEL_LOG_USER_PROMPTS);
  return {
    config: {
      metrics,
      logs,
      metricIntervalMs: interval(vars, "OTEL_METRIC_EXPORT_INTERVAL", DEFAULT_METRIC_INTERVAL_MS, notes),
      logsIntervalMs: interval(vars, "OTEL_LOGS_EXPORT_INTERVAL", DEFAULT_LOGS_INTERVAL_MS, notes),
      temporality: temporalityRaw === "cumulative" ? "cumulative" : "delta",
      resourceAttributes: parseKeyValueList(vars.OTEL_RESOURCE_ATTRIBUTES, "OTEL_RESOURCE_ATTRIBUTES", notes),
      serviceName: set(vars.OTEL_SERVICE_NAME) ?? "clew",
      include: {
        sessionId: flag(vars.OTEL_METRICS_INCLUDE_SESSION_ID, true),
        version: flag(vars.OTEL_METRICS_INCLUDE_VERSION, false),
        entrypoint: flag(vars.OTEL_METRICS_INCLUDE_ENTRYPOINT, false),
        resourceAttributes: flag(vars.OTEL_METRICS_INCLUDE_RESOURCE_ATTRIBUTES, true),
      },
      logUserPrompts,
      logAssistantResponses: flag(vars.OTEL_LOG_ASSISTANT_RESPONSES, logUserPrompts),
      logToolDetails: truthy(vars.OTEL_LOG_TOOL_DETAILS),
    },
    notes,
  };
}
