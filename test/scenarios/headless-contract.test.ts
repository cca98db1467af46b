// The headless contract of spec/cli-headless.md, checked on the compiled binary: turn limits,
// where the prompt comes from, usage errors (exit 1, stderr only), --version, permission denials
// in -p, and --disallowedTools narrowing what the model is offered.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import {
  lastUserText,
  reply,
  startFakeAnthropic,
  toolNames,
  toolResults,
  type FakeServer,
  type ScriptStep,
} from "../fake-anthropic/index.ts";
import { runClew, tempDirectory, type ClewOptions } from "../helpers/clew-process.ts";
import { parseFrames, requestAt, systemFrames } from "../helpers/scenario.ts";
import { writeWorkspace } from "./workspaces.ts";

const DONE = "All done.";
const NO_PROMPT = "Error: Input must be provided either through stdin or as a prompt argument when using --print";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(script: ScriptStep[]): Promise<{ fake: FakeServer; dir: string; options: ClewOptions }> {
  const dir = writeWorkspace({ "a.txt": "alpha\n" });
  const fake = (server = await startFakeAnthropic({ script }));
  return { fake, dir, options: { cwd: dir, baseURL: fake.url, configDir: tempDirectory("clew-config-") } };
}

describe("turn limit", () => {
  test("--max-turns 1 with a tool call: exit 1, error_max_turns, num_turns 2", async () => {
    const { fake, options } = await setup([reply().toolUse("Read", { file_path: "a.txt" }), reply().text("never asked")]);
    const run = await runClew(["-p", "read a.txt", "--max-turns", "1", "--output-format", "json"], options);
    expect(fake.violations).toEqual([]);
    expect(run.code).toBe(1);
    expect(fake.requests.length).toBe(1);
    const result = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(result).toMatchObject({
      type: "result",
      subtype: "error_max_turns",
      is_error: true,
      num_turns: 2,
      errors: ["Reached maximum number of turns (1)"],
      terminal_reason: "max_turns",
      permission_denials: [],
    });
    expect(result.result).toBeUndefined();
  });
});

describe("prompt sources", () => {
  test("prompt from stdin only", async () => {
    const { fake, options } = await setup([reply().text(DONE)]);
    const run = await runClew(["-p"], { ...options, stdin: "what is in a.txt?\n" });
    expect(fake.violations).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${DONE}\n`);
    expect(fake.requests.length).toBe(1);
    expect(lastUserText(requestAt(fake, 0))).toBe("what is in a.txt?");
  });

  test("stdin and an argument: stdin first, a blank line, then the argument", async () => {
    const { fake, options } = await setup([reply().text(DONE)]);
    const run = await runClew(["-p", "explain this log"], { ...options, stdin: "line one\nline two\n" });
    expect(fake.violations).toEqual([]);
    expect(run.code).toBe(0);
    expect(lastUserText(requestAt(fake, 0))).toBe("line one\nline two\n\nexplain this log");
  });
});

describe("usage errors: exit 1, message on stderr, nothing on stdout, no request", () => {
  const cases: Array<{ name: string; args: string[]; stderr: string | RegExp }> = [
    { name: "no prompt at all", args: ["-p"], stderr: NO_PROMPT },
    {
      name: "stream-json without --verbose",
      args: ["-p", "hi", "--output-format", "stream-json"],
      stderr: "Error: When using --print, --output-format=stream-json requires --verbose",
    },
    { name: "an unknown flag", args: ["-p", "hi", "--frobnicate"], stderr: /^error: unknown option '--frobnicate'/ },
  ];
  for (const usage of cases) {
    test(usage.name, async () => {
      const { fake, options } = await setup([reply().text(DONE)]);
      const run = await runClew(usage.args, options);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe("");
      if (typeof usage.stderr === "string") expect(run.stderr.split("\n")[0]).toBe(usage.stderr);
      else expect(run.stderr).toMatch(usage.stderr);
      expect(fake.requests.length).toBe(0);
    });
  }

  test("--version prints `<version> (clew)`", async () => {
    const { options } = await setup([]);
    const run = await runClew(["--version"], options);
    expect(run).toEqual({ code: 0, stdout: `${pkg.version} (clew)\n`, stderr: "" });
  });
});

describe("permissions in -p default mode", () => {
  for (const format of ["json", "stream-json"] as const) {
    test(`a Write is denied, the run continues (${format})`, async () => {
      const sentinel = "sentinel.txt";
      const write = reply().text("Creating the file.").toolUse("Write", { file_path: sentinel, content: "should not exist\n" });
      const { fake, dir, options } = await setup([
        write,
        (request) => reply().text(toolResults(request)[0]?.isError ? DONE : "The write went through."),
      ]);
      const args = ["-p", "create sentinel.txt", "--output-format", format, ...(format === "stream-json" ? ["--verbose"] : [])];
      const run = await runClew(args, options);

      expect(fake.violations).toEqual([]);
      expect(run.code).toBe(0);
      expect(existsSync(join(dir, sentinel))).toBe(false);
      const id = write.toolUseIds[0];
      const sent = toolResults(requestAt(fake, 1));
      expect(sent).toEqual([expect.objectContaining({ toolUseId: id, isError: true })]);
      expect(sent[0]?.text).toContain("needs approval");
      expect(sent[0]?.text).toContain("nobody can approve it");

      const frames = parseFrames(run.stdout);
      const result = frames.at(-1);
      expect(result).toMatchObject({ type: "result", subtype: "success", is_error: false, result: DONE, num_turns: 2 });
      expect(result?.permission_denials).toEqual([
        // `reason` is clew's addition: what the model was told.
        { tool_name: "Write", tool_use_id: id, tool_input: { file_path: sentinel, content: "should not exist\n" }, reason: sent[0]?.text },
      ]);
      if (format === "stream-json") {
        expect(systemFrames(frames, "permission_denied")).toEqual([
          {
            type: "system",
            subtype: "permission_denied",
            tool_name: "Write",
            tool_use_id: id,
            message: sent[0]?.text,
            session_id: result?.session_id,
            uuid: expect.any(String),
          },
        ]);
      }
    });
  }
});

describe("tool selection", () => {
  test("--disallowedTools Bash removes Bash from request.tools and from init", async () => {
    const { fake, options } = await setup([reply().text(DONE)]);
    const run = await runClew(["-p", "hi", "--output-format", "stream-json", "--verbose", "--disallowedTools", "Bash"], options);
    expect(fake.violations).toEqual([]);
    expect(run.code).toBe(0);
    const offered = toolNames(requestAt(fake, 0));
    expect(offered).not.toContain("Bash");
    expect(offered).toEqual(["BashOutput", "KillShell", "Glob", "Grep", "Read", "Edit", "Write", "NotebookEdit", "WebFetch", "WebSearch", "TodoWrite", "Agent", "SendMessage"]);
    expect(systemFrames(parseFrames(run.stdout), "init")[0]?.tools).toEqual(offered);
  });
});

describe("credentials on the wire", () => {
  test("ANTHROPIC_API_KEY is sent as x-api-key; ANTHROPIC_AUTH_TOKEN as a bearer token and wins", async () => {
    for (const [env, auth, header] of [
      [{ ANTHROPIC_API_KEY: "sk-key" }, "x-api-key", "sk-key"],
      [{ ANTHROPIC_API_KEY: "sk-key", ANTHROPIC_AUTH_TOKEN: "tok" }, "bearer", "Bearer tok"],
    ] as const) {
      const { fake, options } = await setup([reply().text(DONE)]);
      const run = await runClew(["-p", "hi"], { ...options, env: { ...env } });
      expect(run.code).toBe(0);
      const request = requestAt(fake, 0);
      expect(request.auth).toBe(auth);
      expect(auth === "bearer" ? request.headers.authorization : request.headers["x-api-key"]).toBe(header);
      if (auth === "x-api-key") expect(request.headers.authorization).toBeUndefined();
      await fake.close();
      server = undefined;
    }
  });
});

describe("credentials the SDK could find on its own", () => {
  test("an SDK profile on disk (XDG_CONFIG_HOME/anthropic) is never read: only clew's key reaches the API", async () => {
    const { fake, options } = await setup([reply().text(DONE)]);
    // A stale login of another tool: the SDK's default credential chain would send its token as a
    // second credential (Authorization: Bearer …) to whatever ANTHROPIC_BASE_URL points at.
    const xdg = tempDirectory("clew-xdg-");
    await Bun.write(join(xdg, "anthropic/configs/default.json"), JSON.stringify({ authentication: { type: "user_oauth", client_id: "other-tool" } }));
    await Bun.write(join(xdg, "anthropic/credentials/default.json"), JSON.stringify({ access_token: "profile-token", expires_at: 4_102_444_800 }));
    const run = await runClew(["-p", "hi"], { ...options, env: { XDG_CONFIG_HOME: xdg } });
    expect(run.code).toBe(0);
    const request = requestAt(fake, 0);
    expect({ auth: request.auth, key: request.headers["x-api-key"], authorization: request.headers.authorization }).toEqual({
      auth: "x-api-key",
      key: "sk-test-fake",
      authorization: undefined,
    });
  });
});

describe("settings that shape headless output", () => {
  test("verbose: true in settings makes json output the message array, result last", async () => {
    const { fake, dir, options } = await setup([reply().text(DONE)]);
    await Bun.write(join(dir, ".clew/settings.json"), JSON.stringify({ verbose: true }));
    const run = await runClew(["-p", "hi", "--output-format", "json"], options);
    expect(run.code).toBe(0);
    expect(fake.violations).toEqual([]);
    const frames = JSON.parse(run.stdout) as Array<{ type: string; subtype?: string }>;
    expect(Array.isArray(frames)).toBe(true);
    expect(frames[0]).toMatchObject({ type: "system", subtype: "init" });
    expect(frames.at(-1)).toMatchObject({ type: "result", result: DONE });
  });
});

describe("resume arguments in print mode", () => {
  test("-r without an ID is refused with a hint; an unknown ID names it", async () => {
    const { fake, options } = await setup([reply().text(DONE)]);
    const bare = await runClew(["-p", "hello", "-r"], options);
    expect(bare.code).toBe(1);
    expect(bare.stderr).toContain("--resume needs a session ID");
    const unknown = await runClew(["-p", "-r", "3f2504e0-4f89-41d3-9a0c-0305e82c3301", "hello"], options);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("No conversation found with session ID: 3f2504e0-4f89-41d3-9a0c-0305e82c3301");
    expect(fake.requests.length).toBe(0);
  });
});

describe("unreachable endpoint", () => {
  test("a connection failure exits 1 and names the endpoint clew tried", async () => {
    const dir = writeWorkspace({});
    // Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
    const run = await runClew(["-p", "hi"], {
      cwd: dir,
      baseURL: "http://127.0.0.1:9",
      configDir: tempDirectory("clew-config-"),
      env: { CLEW_MAX_RETRIES: "0" },
    });
    expect(run.code).toBe(1);
    // As Claude Code: the failure's text is the text-mode output (stdout); the diagnostics are on stderr.
    expect(run.stdout).toStartWith("API Error");
    expect(`${run.stdout}${run.stderr}`).toContain("http://127.0.0.1:9");
    expect(`${run.stdout}${run.stderr}`).toContain("ANTHROPIC_BASE_URL");
  });
});
