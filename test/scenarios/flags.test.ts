// Command-line flags that shape the request and the output: what the fake API receives and
// what stdout carries.
import { afterEach, describe, expect, test } from "bun:test";
import { reply, startFakeAnthropic, type FakeServer } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";
import { writeWorkspace } from "./workspaces.ts";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function run(args: string[], env: Record<string, string> = {}) {
  const dir = writeWorkspace({ "a.txt": "alpha\n" });
  server = await startFakeAnthropic({ script: [reply().text("ok")] });
  const result = await runClew(["-p", "hi", ...args], { cwd: dir, baseURL: server.url, configDir: tempDirectory("clew-config-"), env });
  return { result, body: server.requests[0]?.body as Record<string, unknown> };
}

describe("flags", () => {
  test("--model resolves aliases; ANTHROPIC_MODEL applies when no flag is given; the flag wins", async () => {
    expect((await run(["--model", "sonnet"])).body.model).toBe("claude-sonnet-5-5");
    expect((await run([], { ANTHROPIC_MODEL: "claude-haiku-4-5" })).body.model).toBe("claude-haiku-4-5");
    expect((await run(["--model", "opus"], { ANTHROPIC_MODEL: "claude-haiku-4-5" })).body.model).toBe("claude-opus-5-5");
    expect((await run([], { ANTHROPIC_DEFAULT_SONNET_MODEL: "my-sonnet", ANTHROPIC_MODEL: "sonnet" })).body.model).toBe("my-sonnet");
  });

  test("--append-system-prompt adds to the system prompt; --system-prompt replaces the built-in one", async () => {
    const appended = JSON.stringify((await run(["--append-system-prompt", "Answer in French."])).body.system);
    expect(appended).toContain("Answer in French.");
    expect(appended).toContain("You are clew");
    const replaced = JSON.stringify((await run(["--system-prompt", "You are a calculator."])).body.system);
    expect(replaced).toContain("You are a calculator.");
    expect(replaced).not.toContain("You are clew");
  });

  test("--tools restricts the built-in tools sent to the model", async () => {
    const { body } = await run(["--tools", "Read,Grep"]);
    expect((body.tools as Array<{ name: string }>).map((tool) => tool.name)).toEqual(["Grep", "Read"]);
  });

  test("--include-partial-messages adds raw stream events to stream-json", async () => {
    const { result } = await run(["--output-format", "stream-json", "--verbose", "--include-partial-messages"]);
    const frames = result.stdout.trim().split("\n").map((line) => JSON.parse(line) as { type: string; event?: { type: string } });
    const events = frames.filter((frame) => frame.type === "stream_event").map((frame) => frame.event?.type);
    expect(events[0]).toBe("message_start");
    expect(events).toContain("content_block_delta");
    expect(events.at(-1)).toBe("message_stop");
    // Without the flag there are none.
    const plain = (await run(["--output-format", "stream-json", "--verbose"])).result.stdout;
    expect(plain).not.toContain('"stream_event"');
  });

  test("every request carries the user agent, anthropic-version and the streaming flag", async () => {
    const { body } = await run([]);
    expect(body.stream).toBe(true);
    expect(server?.requests[0]?.headers["user-agent"]).toMatch(/^clew\//);
    expect(server?.requests[0]?.headers["anthropic-version"]).toBeDefined();
  });

  test("ANTHROPIC_BETAS becomes the anthropic-beta header", async () => {
    await run([], { ANTHROPIC_BETAS: "alpha-1, beta-2" });
    expect(server?.requests[0]?.headers["anthropic-beta"]).toContain("alpha-1,beta-2");
  });

  test("a prompt argument with --input-format stream-json is refused, saying to send it as a stdin line", async () => {
    const { result } = await run(["--input-format", "stream-json", "--output-format", "stream-json", "--verbose"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("a prompt argument with --input-format stream-json is not supported: the prompts of a stream-json session arrive on standard input.");
    expect(result.stderr).toContain('{"type":"user","message":{"role":"user","content":"…"}}');
    expect(server?.requests.length).toBe(0);
  });

  test("DISABLE_AUTO_COMPACT keeps a full window from triggering a summary request", async () => {
    const dir = writeWorkspace({ "big.txt": "x".repeat(40_000) });
    server = await startFakeAnthropic({ script: [reply().toolUse("Read", { file_path: "big.txt" }), reply().text("read it")] });
    const result = await runClew(["-p", "read big.txt"], {
      cwd: dir,
      baseURL: server.url,
      configDir: tempDirectory("clew-config-"),
      env: { CLEW_CONTEXT_WINDOW: "12000", DISABLE_AUTO_COMPACT: "1" },
    });
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe("read it");
    expect(server.requests.length).toBe(2);
    expect(JSON.stringify(server.requests[1]?.body.messages)).not.toContain("summary of the conversation");
  });
});
