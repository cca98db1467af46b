// Telemetry costs nothing when it is off, and little when it is not: the @opentelemetry packages
// are imported by one module, otel-sdk.ts, which no code imports — the build bundles it into one
// module inlined as compressed text (otel-bundle.macro.ts) that otel-load.ts unpacks and imports
// when telemetry is on. So no chunk of the binary holds OpenTelemetry code, and a session with
// telemetry off loads none of it — checked in a fresh process against the same process with
// telemetry on, so the check cannot pass by finding nothing.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { CLEW_BUILD_OPTIONS } from "../../scripts/build-options.ts";
import { otelSdkBundle } from "../../src/telemetry/otel-bundle.macro.ts";
import { tempDirectory } from "../helpers/clew-process.ts";

const SRC = resolve(import.meta.dir, "../../src");
const ADAPTER = "telemetry/otel-sdk.ts";
const LAZY = new Set(["telemetry/otel-load.ts", "telemetry/sink.ts", "telemetry/attributes.ts"]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}

const files = sourceFiles(SRC).map((file) => ({ name: relative(SRC, file), text: readFileSync(file, "utf8") }));

interface OutputMeta {
  inputs?: Record<string, { bytesInOutput: number }>;
}

describe("telemetry is lazy", () => {
  test("only the adapter imports @opentelemetry packages (type-only imports aside), and no code imports the adapter", () => {
    const importers = files.filter((file) => /^(?:import|export)\s+(?!type\b)[^;]*from\s+["']@opentelemetry\//m.test(file.text)).map((file) => file.name);
    expect(importers).toEqual([ADAPTER]);
    const adapterImports = files.filter((file) => /^(?:import|export)\s+(?!type\b)[^;]*from\s+["'][^"']*otel-sdk\.ts["']|(?<!typeof\s)import\(\s*["'][^"']*otel-sdk\.ts["']/m.test(file.text));
    expect(adapterImports.map((file) => file.name)).toEqual([]);
  });

  test("the loader, the sink and the attributes module are never imported statically", () => {
    const staticImports = files.flatMap((file) =>
      [...file.text.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*from\s+["'](\.[^"']+)["']/gm)].flatMap((match) => {
        const target = relative(SRC, resolve(SRC, file.name, "..", match[1] ?? ""));
        return LAZY.has(target) && !LAZY.has(file.name) ? [`${file.name} → ${target}`] : [];
      }),
    );
    expect(staticImports).toEqual([]);
  });

  test("the build: no chunk holds the OpenTelemetry SDK or exporters; the inlined bundle is the adapter with its packages", async () => {
    const outdir = mkdtempSync(join(tmpdir(), "clew-telemetry-lazy-"));
    try {
      const built = await Bun.build({ ...CLEW_BUILD_OPTIONS, bytecode: false, outdir, metafile: true } as Parameters<typeof Bun.build>[0]);
      expect(built.success).toBe(true);
      const outputs = (built as unknown as { metafile?: { outputs: Record<string, OutputMeta> } }).metafile?.outputs;
      if (!outputs) throw new Error("the build wrote no metafile");
      // @opentelemetry/api alone is there already: the Anthropic SDK depends on it for its own tracing hooks.
      const bundled = Object.entries(outputs).flatMap(([chunk, meta]) =>
        Object.keys(meta.inputs ?? {})
          .filter((input) => (input.includes("node_modules/@opentelemetry/") && !input.includes("node_modules/@opentelemetry/api/")) || input.endsWith(ADAPTER))
          .map((input) => `${chunk}: ${input}`),
      );
      expect(bundled).toEqual([]);
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
    const code = new TextDecoder().decode(Bun.gunzipSync(Buffer.from(otelSdkBundle(), "base64")));
    for (const mark of ["claude_code.token.usage", "application/x-protobuf", "resourceMetrics"]) expect(code).toContain(mark);
    expect(code).not.toMatch(/from\s*["']\.{1,2}\//);
    // Two builds of the whole tree.
  }, 120_000);

  test("starting telemetry with it off loads nothing of OpenTelemetry; with it on, the inlined bundle loads", async () => {
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
console.log(JSON.stringify({ same: telemetry.observe(recorder) === recorder, modules: Object.keys(require.cache).map((key) => key.replace(${JSON.stringify(`${SRC}/`)}, "").replace(/^blob:.*/, "blob:")).sort() }));
`,
    );
    const run = async (mode: string) => {
      const child = Bun.spawn(["bun", probe, mode], { stdout: "pipe", stderr: "pipe" });
      const [out, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
      expect(code).toBe(0);
      return JSON.parse(out) as { same: boolean; modules: string[] };
    };
    expect(await run("off")).toEqual({ same: true, modules: ["telemetry/config.ts", "telemetry/index.ts"] });
    const on = await run("on");
    expect(on.same).toBe(false);
    expect(on.modules).toEqual(expect.arrayContaining(["blob:", "telemetry/otel-load.ts", "telemetry/sink.ts"]));
  });
});
