// Telemetry costs nothing when it is off, and little when it is not: the @opentelemetry packages
// are imported by one module, otel-sdk.ts, which only telemetry/index.ts imports, dynamically —
// the build embeds it as one compressed bundle (scripts/cold-modules.ts), unpacked and imported
// when telemetry is on. So no chunk of the binary holds OpenTelemetry SDK code, and a session with
// telemetry off loads none of it — checked in a fresh process against the same process with
// telemetry on, so the check cannot pass by finding nothing.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { CLEW_BUILD_OPTIONS } from "../../scripts/build-options.ts";
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

interface OutputMeta {
  inputs?: Record<string, { bytesInOutput: number }>;
}

describe("telemetry is lazy", () => {
  test("only the adapter imports @opentelemetry packages (type-only imports aside), and only telemetry/index.ts imports the adapter, dynamically", () => {
    const importers = files.filter((file) => /^(?:import|export)\s+(?!type\b)[^;]*from\s+["']@opentelemetry\//m.test(file.text)).map((file) => file.name);
    expect(importers).toEqual([ADAPTER]);
    const dynamicImporters = files.filter((file) => /(?<!typeof\s)import\(\s*["'][^"']*otel-sdk\.ts["']/m.test(file.text));
    expect(dynamicImporters.map((file) => file.name)).toEqual(["telemetry/index.ts"]);
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

  test("the build: no chunk holds the OpenTelemetry SDK or exporters; the compressed bundle is the adapter with its packages", async () => {
    const outdir = mkdtempSync(join(tmpdir(), "clew-telemetry-lazy-"));
    try {
      const built = await Bun.build({ ...CLEW_BUILD_OPTIONS, bytecode: false, outdir, metafile: true } as Parameters<typeof Bun.build>[0]);
      expect(built.success).toBe(true);
      const outputs = (built as unknown as { metafile?: { outputs: Record<string, OutputMeta> } }).metafile?.outputs;
      if (!outputs) throw new Error("the build wrote no metafile");
      // @opentelemetry/api alone is there already: the Anthropic SDK depends on it for its own tracing hooks.
      const bundled = Object.entries(outputs).flatMap(([chunk, meta]) =>
        Object.keys(meta.inputs ?? {})
          .filter((input) => input.includes("node_modules/@opentelemetry/") && !input.includes("node_modules/@opentelemetry/api/"))
          .map((input) => `${chunk}: ${input}`),
      );
      expect(bundled).toEqual([]);
      const assets = built.outputs.filter((output) => output.kind === "asset" && /otel-sdk-[^/]*\.gz$/.test(output.path));
      expect(assets.length).toBe(1);
      const code = new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(readFileSync((assets[0] as { path: string }).path))));
      for (const mark of ["claude_code.token.usage", "application/x-protobuf", "resourceMetrics"]) expect(code).toContain(mark);
      // Self-contained: it imports nothing relative (it is loaded from memory).
      expect(code).not.toMatch(/from\s*["']\.{1,2}\//);
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
    // Two builds of the whole tree.
  }, 120_000);

  test("starting telemetry with it off loads nothing of OpenTelemetry; with it on, the adapter loads", async () => {
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
    // Run from source the adapter imports as written; the binary unpacks its bundle instead (scenario tests).
    expect(on.modules).toEqual(expect.arrayContaining([ADAPTER, "telemetry/sink.ts"]));
  });
});
