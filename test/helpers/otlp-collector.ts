// An OTLP/HTTP collector stand-in: Bun.serve on 127.0.0.1 recording every request. JSON bodies
// (http/json) are decoded into flat datapoints and log records; protobuf bodies are kept as bytes.

export interface OtlpRequest {
  path: string;
  contentType: string;
  headers: Record<string, string>;
  body: Uint8Array;
}

export type Flat = Record<string, string | number | boolean>;

export interface Datapoint {
  name: string;
  unit: string;
  attributes: Flat;
  value: number;
  resource: Flat;
}

export interface LogRecord {
  eventName: string;
  body: string;
  attributes: Flat;
  resource: Flat;
}

export interface Collector {
  url: string;
  requests: OtlpRequest[];
  /** Every datapoint of every JSON metrics export, in arrival order. */
  datapoints(): Datapoint[];
  /** Every log record of every JSON logs export, in arrival order. */
  logRecords(): LogRecord[];
  close(): Promise<void>;
}

interface AnyValue {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
}

interface KeyValue {
  key: string;
  value: AnyValue;
}

function valueOf(value: AnyValue): string | number | boolean {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  throw new Error(`unexpected OTLP value ${JSON.stringify(value)}`);
}

export function flatten(attributes: KeyValue[] | undefined): Flat {
  return Object.fromEntries((attributes ?? []).map((entry) => [entry.key, valueOf(entry.value)]));
}

interface MetricsBody {
  resourceMetrics: Array<{
    resource: { attributes: KeyValue[] };
    scopeMetrics: Array<{ metrics: Array<{ name: string; unit: string; sum: { dataPoints: Array<{ attributes: KeyValue[]; asDouble?: number; asInt?: number | string }> } }> }>;
  }>;
}

interface LogsBody {
  resourceLogs: Array<{
    resource: { attributes: KeyValue[] };
    scopeLogs: Array<{ logRecords: Array<{ eventName?: string; body?: AnyValue; attributes: KeyValue[] }> }>;
  }>;
}

function jsonBodies<T>(requests: OtlpRequest[], path: string): T[] {
  return requests
    .filter((request) => request.path === path && request.contentType.startsWith("application/json"))
    .map((request) => JSON.parse(new TextDecoder().decode(request.body)) as T);
}

export async function startCollector(): Promise<Collector> {
  const requests: OtlpRequest[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      requests.push({
        path,
        contentType: request.headers.get("content-type") ?? "",
        headers: Object.fromEntries(request.headers.entries()),
        body: new Uint8Array(await request.arrayBuffer()),
      });
      const json = (request.headers.get("content-type") ?? "").startsWith("application/json");
      return json ? Response.json({}) : new Response(new Uint8Array(0), { headers: { "content-type": "application/x-protobuf" } });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    datapoints: () =>
      jsonBodies<MetricsBody>(requests, "/v1/metrics").flatMap((body) =>
        body.resourceMetrics.flatMap((resourceMetrics) =>
          resourceMetrics.scopeMetrics.flatMap((scope) =>
            scope.metrics.flatMap((metric) =>
              metric.sum.dataPoints.map((point) => ({
                name: metric.name,
                unit: metric.unit,
                attributes: flatten(point.attributes),
                value: Number(point.asDouble ?? point.asInt ?? Number.NaN),
                resource: flatten(resourceMetrics.resource.attributes),
              })),
            ),
          ),
        ),
      ),
    logRecords: () =>
      jsonBodies<LogsBody>(requests, "/v1/logs").flatMap((body) =>
        body.resourceLogs.flatMap((resourceLogs) =>
          resourceLogs.scopeLogs.flatMap((scope) =>
            scope.logRecords.map((record) => ({
              eventName: record.eventName ?? "",
              body: record.body?.stringValue ?? "",
              attributes: flatten(record.attributes),
              resource: flatten(resourceLogs.resource.attributes),
            })),
          ),
        ),
      ),
    close: async () => {
      await server.stop(true);
    },
  };
}
