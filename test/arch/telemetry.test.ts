// Telemetry costs nothing when it is off: the @opentelemetry packages are imported by one module,
// that module (and the sink behind it) is reached only through import(), and starting a session's
// telemetry with it off loads none of them — checked in a fresh process, against the same process
// with telemetry on, so the check cannot pass by finding nothing.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { tempDirectory } from "../helpers/clew-process.ts";

const SRC = resolve(import.meta.dir, "../../src");
const ADAPTER = "telemetry/otel-sdk.ts";
const LAZY = new Set([ADAPTER, "telemetry/sink.ts", "telemetry/attributes.ts"]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}

const files = sourceFiles(SRC).map((file) => ({ name: relative(SRC, file), text: readFileSync(file, "utf8") }));

describe("telemetry is lazy", () => {
  test("only the adapter imports @opentelemetry packages (type-only imports aside)", () => {
    const importers = files.filter((file) => /^(?:import|export)\s+(?!type\b)[^;]*from\s+["']@opentelemetry\//m.test(file.text)).map((file) => file.name);
    expect(importers).toEqual([ADAPTER]);
  });

  test("the adapter, the sink and the attributes module are never imported statically", () => {
    const staticImports = files.flatMap((file) =>
      [...file.text.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*from\s+["'](\.[^"']+)["']/gm)].flatMap((match) => {
        const target = relative(SRC, resolve(SRC, file.name, "..", match[1] ?? ""));
        return LAZY.has(target) && !LAZY.has(file.name) ? [`${file.name} → ${target}`] : [];
      }),
    );
    expect(staticImports).toEqual([]);
  });

  test("starting telemetry with it off loads no @opentelemetry module; with it on, they load", async () => {
    const probe = join(tempDirectory("clew-telemetry-probe-"), "probe.ts");
    await Bun.write(
      probe,
      `const { startTelemetry } = await import(${JSON.stringify(join(SRC, "telemetry/index.ts"))});
const on = process.argv[2] === "on";
const telemetry = await startTelemetry({
  processEnv: on ? { CLEW_ENABLE_TELEMETRY: "1", OTEL_LOGS_EXPORTER: "console" } : { OTEL_LOGS_EXPORTER: "otlp", OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9" },
  settings: { settings: { env: {} }, origins: {} },
  sessionId: "s", version: "0", configDir: ${JSON.stringify(tempDirectory("clew-telemetry-cfg-"))},
  model: () => "m", effort: () => undefined, resume: undefined, costUSD: () => 0, report: () => {},
});
const recorder = () => {};
console.log(JSON.stringify({ same: telemetry.observe(recorder) === recorder, otel: Object.keys(require.cache).filter((key) => key.includes("@opentelemetry")).length }));
`,
    );
    const run = async (mode: string) => {
      const child = Bun.spawn(["bun", probe, mode], { stdout: "pipe", stderr: "pipe" });
      const [out, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
      expect(code).toBe(0);
      return JSON.parse(out) as { same: boolean; otel: number };
    };
    expect(await run("off")).toEqual({ same: true, otel: 0 });
    const on = await run("on");
    expect(on.same).toBe(false);
    expect(on.otel).toBeGreaterThan(0);
  });
});
