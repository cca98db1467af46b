import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { anonymousUserId, standardAttributes, terminalType } from "../../../src/telemetry/attributes.ts";
import { readTelemetryConfig } from "../../../src/telemetry/config.ts";
import { diffLines, languageOf, linesChanged } from "../../../src/telemetry/edits.ts";
import { telemetryVariables } from "../../../src/telemetry/index.ts";
import { lineDiff } from "../../../src/tools/shared/unified-diff.ts";
import { tempDirectory } from "../../helpers/clew-process.ts";

describe("lines changed by an edit", () => {
  test("counted from the tools' own unified diff; a removed line that looks like a header still counts", () => {
    const before = "keep\n-- a SQL comment\nold\n";
    const after = "keep\nnew one\nnew two\n";
    expect(diffLines(lineDiff("/p/q.sql", before, after).diff)).toEqual({ added: 2, removed: 2 });
    expect(linesChanged("Edit", { summary: "", diff: lineDiff("/p/a.ts", "a\n", "a\nb\n").diff }, {})).toEqual({ added: 1, removed: 0 });
  });

  test("a created file counts its lines; a change that cannot be told is undefined", () => {
    expect(linesChanged("Write", { summary: "Wrote 3 lines" }, { type: "create", filePath: "/p/a", content: "1\n2\n3" })).toEqual({ added: 3, removed: 0 });
    expect(linesChanged("Edit", { summary: "Created" }, { filePath: "/p/a", oldString: "", newString: "x\ny\n", replaceAll: false })).toEqual({ added: 2, removed: 0 });
    expect(linesChanged("Write", { summary: "Updated /p/big" }, { type: "update", filePath: "/p/big", content: "..." })).toBeUndefined();
    expect(linesChanged("NotebookEdit", { summary: "Updated cell" }, {})).toBeUndefined();
  });

  test("language by extension, unknown otherwise", () => {
    expect(["/a/b.tsx", "/a/b.PY", "/a/README.md", "/a/Makefile", 42].map(languageOf)).toEqual(["TypeScript", "Python", "Markdown", "unknown", "unknown"]);
  });
});

describe("standard attributes", () => {
  test("OTEL_RESOURCE_ATTRIBUTES keys ride along but never override the built-in ones; session.id off for metrics only", () => {
    const vars = {
      CLEW_ENABLE_TELEMETRY: "1",
      OTEL_METRICS_EXPORTER: "console",
      OTEL_RESOURCE_ATTRIBUTES: "session.id=forged,user.id=forged,team.id=core",
      OTEL_METRICS_INCLUDE_SESSION_ID: "false",
      OTEL_METRICS_INCLUDE_VERSION: "1",
      TERM_PROGRAM: "iTerm.app",
    };
    const config = readTelemetryConfig(vars).config;
    if (!config) throw new Error("telemetry should be on");
    expect(standardAttributes(config, { sessionId: "real", version: "1.2.3", configDir: "/unused" }, vars, "uid")).toEqual({
      metric: { "team.id": "core", "user.id": "uid", "app.version": "1.2.3", "terminal.type": "iTerm.app" },
      event: { "team.id": "core", "user.id": "uid", "app.version": "1.2.3", "terminal.type": "iTerm.app", "session.id": "real" },
    });
  });

  test("terminal.type from TERM_PROGRAM, tmux, screen or TERM, absent for a dumb terminal", () => {
    expect([{ TERM_PROGRAM: "vscode", TMUX: "/tmp/t" }, { TMUX: "/tmp/t" }, { STY: "1.pts" }, { TERM: "xterm-256color" }, { TERM: "dumb" }, {}].map(terminalType)).toEqual([
      "vscode", "tmux", "screen", "xterm-256color", undefined, undefined,
    ]);
  });

  test("user.id is made once and kept in the config directory", () => {
    const dir = tempDirectory("clew-telemetry-id-");
    const first = anonymousUserId(dir);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(join(dir, "telemetry-user-id"), "utf8")).toBe(`${first}\n`);
    expect(anonymousUserId(dir)).toBe(first);
    expect(existsSync(join(dir, "telemetry-user-id"))).toBe(true);
  });
});

describe("where telemetry variables come from", () => {
  const origins = (scope: "user" | "project" | "local" | "managed") => ({ "env.CLAUDE_CODE_ENABLE_TELEMETRY": { scope }, "env.OTEL_EXPORTER_OTLP_ENDPOINT": { scope }, "env.OTHER": { scope } });
  const env = { CLAUDE_CODE_ENABLE_TELEMETRY: "1", OTEL_EXPORTER_OTLP_ENDPOINT: "http://evil.example", OTHER: "x" };
  const settings = (scope: "user" | "project" | "local" | "managed") => ({ settings: { env } as never, origins: origins(scope) });

  test("user and managed settings apply; a repository's project or local settings cannot switch telemetry on or aim it", () => {
    const lines: string[] = [];
    expect(telemetryVariables({ PATH: "/bin" }, settings("user"), (line) => lines.push(line))).toEqual({ PATH: "/bin", ...env });
    expect(telemetryVariables({ PATH: "/bin" }, settings("managed"), (line) => lines.push(line))).toEqual({ PATH: "/bin", ...env });
    expect(lines).toEqual([]);
    expect(telemetryVariables({ PATH: "/bin" }, settings("project"), (line) => lines.push(line))).toEqual({ PATH: "/bin", OTHER: "x" });
    // Nothing is said while telemetry stays off.
    expect(lines).toEqual([]);
    expect(telemetryVariables({ CLEW_ENABLE_TELEMETRY: "1" }, settings("local"), (line) => lines.push(line))).toEqual({ CLEW_ENABLE_TELEMETRY: "1", OTHER: "x" });
    expect(lines).toEqual([
      "clew: telemetry: CLAUDE_CODE_ENABLE_TELEMETRY, OTEL_EXPORTER_OTLP_ENDPOINT from the project's settings were ignored; set telemetry variables in user or managed settings, or in the environment.",
    ]);
  });
});
