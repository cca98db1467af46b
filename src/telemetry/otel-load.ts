/**
 * Loads the OpenTelemetry adapter from the bundle the build inlined (otel-bundle.macro.ts):
 * unpacked in memory and imported from a blob URL, the first time telemetry is on.
 */
import { otelSdkBundle } from "./otel-bundle.macro.ts" with { type: "macro" };

export type OtelSdk = typeof import("./otel-sdk.ts");

export async function loadOtelSdk(): Promise<OtelSdk> {
  const code = Bun.gunzipSync(Buffer.from(otelSdkBundle(), "base64"));
  const url = URL.createObjectURL(new Blob([code], { type: "text/javascript" }));
  try {
    return (await import(url)) as OtelSdk;
  } finally {
    URL.revokeObjectURL(url);
  }
}
