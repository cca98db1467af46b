// http hooks against a real Bun.serve on 127.0.0.1; prompt hooks through an injected model port
// (the only fake: the model).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { PromptPort } from "../../../src/hooks/run-prompt.ts";
import { promptText } from "../../../src/hooks/run-prompt.ts";
import { harness } from "./helpers.ts";

const bashCall = { tool_name: "Bash", tool_input: { command: "curl example.com" }, tool_use_id: "toolu_3" };

interface Seen {
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

let server: ReturnType<typeof Bun.serve>;
const seen: Seen[] = [];

beforeAll(() => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const text = await request.text();
      seen.push({ path: url.pathname, headers: Object.fromEntries(request.headers), body: text ? JSON.parse(text) : undefined });
      switch (url.pathname) {
        case "/deny":
          return Response.json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "network blocked by audit" } });
        case "/empty":
          return new Response("");
        case "/text":
          return new Response("all good");
        case "/fail":
          return new Response("boom", { status: 500 });
        case "/slow":
          await Bun.sleep(5000);
          return new Response("");
        default:
          return new Response("not found", { status: 404 });
      }
    },
  });
});

afterAll(() => server.stop(true));

function httpHook(path: string, extra: Record<string, unknown> = {}): { hooks: unknown } {
  return { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "http", url: `http://127.0.0.1:${server.port}${path}`, ...extra }] }] } };
}

describe("http hooks", () => {
  test("POSTs the input JSON; a JSON answer decides like command stdout; headers expand only allowed variables", async () => {
    const { engine } = harness([httpHook("/deny", { headers: { Authorization: "Bearer $AUDIT_TOKEN", "X-Other": "${HOME}-x" }, allowedEnvVars: ["AUDIT_TOKEN"] })], {
      env: { AUDIT_TOKEN: "t-123", HOME: "/home/secret", PATH: process.env.PATH ?? "" },
    });
    expect(await engine.fire("PreToolUse", bashCall)).toMatchObject({ decision: "deny", reason: "network blocked by audit", errors: [] });
    const request = seen.at(-1);
    expect(request?.headers.authorization).toBe("Bearer t-123");
    expect(request?.headers["x-other"]).toBe("-x");
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(request?.body).toMatchObject({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "curl example.com" }, tool_use_id: "toolu_3" });
  });

  test("httpHookAllowedEnvVars restricts what a hook's allowedEnvVars can reach", async () => {
    const { engine } = harness([httpHook("/empty", { headers: { Authorization: "Bearer $AUDIT_TOKEN" }, allowedEnvVars: ["AUDIT_TOKEN"] })], {
      env: { AUDIT_TOKEN: "t-123" },
      policy: { httpHookAllowedEnvVars: ["OTHER"] },
    });
    await engine.fire("PreToolUse", bashCall);
    // The unlisted variable expanded to nothing (HTTP trims the trailing space).
    expect(seen.at(-1)?.headers.authorization).toBe("Bearer");
  });

  test("an empty 2xx is success; other bodies and statuses are non-blocking errors; HTTP never blocks by status", async () => {
    const port = server.port;
    const empty = harness([httpHook("/empty")]);
    expect(await empty.engine.fire("PreToolUse", bashCall)).toMatchObject({ errors: [], ran: 1 });
    const text = harness([httpHook("/text")]);
    expect((await text.engine.fire("PreToolUse", bashCall)).errors).toEqual([`PreToolUse:Bash hook error: POST http://127.0.0.1:${port}/text answered with a body that is not a JSON object`]);
    const failing = harness([httpHook("/fail")]);
    const outcome = await failing.engine.fire("PreToolUse", bashCall);
    expect([outcome.decision, outcome.errors]).toEqual([undefined, [`PreToolUse:Bash hook error: POST http://127.0.0.1:${port}/fail answered HTTP 500`]]);
    expect(failing.records.map((record) => [record.exitCode, record.stdout, record.outcome])).toEqual([[1, "boom", "error"]]);
  });

  test("a slow server times out without a decision", async () => {
    const { engine, records } = harness([httpHook("/slow", { timeout: 1 })]);
    const outcome = await engine.fire("PreToolUse", bashCall);
    expect([outcome.decision, outcome.errors]).toEqual([undefined, ["PreToolUse:Bash hook timed out after 1s and was stopped; its output was ignored"]]);
    expect(records.map((record) => record.outcome)).toEqual(["timeout"]);
  });

  test("a refused connection is a non-blocking error", async () => {
    const { engine } = harness([{ hooks: { Stop: [{ hooks: [{ type: "http", url: "http://127.0.0.1:1/x" }] }] } }]);
    const outcome = await engine.fire("Stop", { stop_hook_active: false });
    expect(outcome.block).toBeUndefined();
    expect(outcome.errors[0]).toStartWith("Stop hook error: POST http://127.0.0.1:1/x failed: ");
  });
});

function fakeModel(reply: string, prompts: { prompt: string; model: string | undefined }[] = []): PromptPort {
  return async (prompt, model) => {
    prompts.push({ prompt, model });
    return reply;
  };
}

function promptHook(event: string, extra: Record<string, unknown> = {}): { hooks: unknown } {
  return { hooks: { [event]: [{ hooks: [{ type: "prompt", prompt: "Did the assistant finish? $ARGUMENTS", ...extra }] }] } };
}

describe("prompt hooks", () => {
  test("$ARGUMENTS becomes the input JSON; \\$ stays a dollar; without it the JSON is appended", () => {
    expect(promptText("Check $ARGUMENTS for \\$HOME", '{"a":1}')).toBe('Check {"a":1} for $HOME');
    expect(promptText("Check this", '{"a":1}')).toBe('Check this\n\n{"a":1}');
  });

  test("Stop: ok:false keeps the turn going with the reason; the model named by the hook is asked", async () => {
    const prompts: { prompt: string; model: string | undefined }[] = [];
    const { engine } = harness([promptHook("Stop", { model: "claude-haiku-4-5" })], { prompt: fakeModel('Sure.\n```json\n{"ok": false, "reason": "The README was not updated"}\n```', prompts) });
    expect(await engine.fire("Stop", { stop_hook_active: false, last_assistant_message: "Done!" })).toMatchObject({ block: { reason: "The README was not updated" }, errors: [] });
    expect(prompts).toHaveLength(1);
    expect(prompts[0]?.model).toBe("claude-haiku-4-5");
    expect(prompts[0]?.prompt).toStartWith('Did the assistant finish? {"session_id":"sess-1"');
    expect(prompts[0]?.prompt).toContain('"last_assistant_message":"Done!"');
  });

  test("Stop: impossible:true lets the agent stop; ok:true does nothing", async () => {
    const impossible = harness([promptHook("Stop")], { prompt: fakeModel('{"ok": false, "reason": "cannot be done", "impossible": true}') });
    expect((await impossible.engine.fire("Stop", { stop_hook_active: false })).block).toBeUndefined();
    const fine = harness([promptHook("Stop")], { prompt: fakeModel('{"ok": true}') });
    expect(await fine.engine.fire("Stop", { stop_hook_active: false })).toEqual({
      systemMessages: [],
      errors: [],
      terminalSequences: [],
      ran: 1,
      asyncStarted: 0,
      additionalContext: [],
    });
  });

  test("PreToolUse: ok:false denies and by default ends the turn with a warning; continueOnBlock only denies", async () => {
    const model = fakeModel('{"ok": false, "reason": "Deletes user data"}');
    const stopping = harness([promptHook("PreToolUse")], { prompt: model });
    expect(await stopping.engine.fire("PreToolUse", bashCall)).toMatchObject({
      decision: "deny",
      reason: "Deletes user data",
      stop: { reason: "Deletes user data", hookName: "PreToolUse:Bash" },
      systemMessages: ["Deletes user data"],
    });
    const continuing = harness([promptHook("PreToolUse", { continueOnBlock: true })], { prompt: model });
    const outcome = await continuing.engine.fire("PreToolUse", bashCall);
    expect([outcome.decision, outcome.reason, outcome.stop]).toEqual(["deny", "Deletes user data", undefined]);
  });

  test("PostToolUseFailure: ok:false is feedback; UserPromptSubmit: ok:false blocks the prompt", async () => {
    const model = fakeModel('{"ok": false, "reason": "Use the other API"}');
    const failure = harness([promptHook("PostToolUseFailure")], { prompt: model });
    expect((await failure.engine.fire("PostToolUseFailure", { ...bashCall, error: "Exit code 1" })).feedback).toEqual(["Use the other API"]);
    const prompt = harness([promptHook("UserPromptSubmit")], { prompt: model });
    expect((await prompt.engine.fire("UserPromptSubmit", { prompt: "x" })).block).toEqual({ reason: "Use the other API", suppressOriginalPrompt: false });
  });

  test("an unusable answer, a failing model or no model at all are non-blocking errors", async () => {
    const garbage = harness([promptHook("Stop")], { prompt: fakeModel("I think it is fine") });
    const outcome = await garbage.engine.fire("Stop", { stop_hook_active: false });
    expect([outcome.block, outcome.errors]).toEqual([undefined, ['Stop hook error: the model did not answer with JSON like {"ok": true} (got "I think it is fine")']]);
    const failing = harness([promptHook("Stop")], { prompt: async () => Promise.reject(new Error("overloaded")) });
    expect((await failing.engine.fire("Stop", { stop_hook_active: false })).errors).toEqual(["Stop hook error: the model call failed: overloaded"]);
    const none = harness([promptHook("Stop")]);
    expect((await none.engine.fire("Stop", { stop_hook_active: false })).errors).toEqual(["Stop hook error: prompt hooks need a model, and none is available in this session"]);
  });

  test("a model call that ignores its signal still times out", async () => {
    const { engine } = harness([promptHook("Stop", { timeout: 0.2 })], { prompt: () => new Promise(() => {}) });
    expect((await engine.fire("Stop", { stop_hook_active: false })).errors).toEqual(["Stop hook timed out after 0.2s and was stopped; its output was ignored"]);
  });
});
