// Thinking and effort against the compiled binary: what each request carries (thinking config,
// output_config.effort, the interleaved-thinking beta) per model and per source, and thinking
// blocks going back exactly as the API sent them across tool calls.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startFakeAnthropic, type FakeServer, type Json, type JsonObject } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";
import { writeWorkspace } from "./workspaces.ts";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface RunOptions {
  env?: Record<string, string>;
  userSettings?: Record<string, unknown>;
}

async function run(args: string[], options: RunOptions = {}) {
  const dir = writeWorkspace({ "a.txt": "alpha\n" });
  const configDir = tempDirectory("clew-config-");
  if (options.userSettings) writeFileSync(join(configDir, "settings.json"), JSON.stringify(options.userSettings));
  server = await startFakeAnthropic({ script: [reply().text("ok")] });
  const result = await runClew(["-p", "hi", ...args], { cwd: dir, baseURL: server.url, configDir, env: options.env });
  const request = server.requests[0];
  return { result, body: (request?.body ?? {}) as JsonObject, headers: request?.headers ?? {} };
}

/** The request parameters this feature is about, as one object. */
function reasoningOf(body: JsonObject): Record<string, Json | undefined> {
  return { model: body.model, thinking: body.thinking, output_config: body.output_config };
}

describe("effort", () => {
  test("--effort high reaches the request as Claude Code sends it: output_config.effort next to adaptive thinking", async () => {
    const { result, body } = await run(["--effort", "high"]);
    expect(result.code).toBe(0);
    expect(reasoningOf(body)).toEqual({ model: "claude-opus-5-5", thinking: { type: "adaptive" }, output_config: { effort: "high" } });
    // Without any source, the model's own default is sent (Opus 5.5: medium), as Claude Code 2.1.332 does.
    expect(reasoningOf((await run([])).body)).toEqual({ model: "claude-opus-5-5", thinking: { type: "adaptive" }, output_config: { effort: "medium" } });
  });

  test("precedence: CLAUDE_CODE_EFFORT_LEVEL over --effort over the effortLevel setting", async () => {
    const setting = { effortLevel: "low" };
    expect((await run([], { userSettings: setting })).body.output_config).toEqual({ effort: "low" });
    expect((await run(["--effort", "xhigh"], { userSettings: setting })).body.output_config).toEqual({ effort: "xhigh" });
    expect((await run(["--effort", "xhigh"], { userSettings: setting, env: { CLAUDE_CODE_EFFORT_LEVEL: "max" } })).body.output_config).toEqual({ effort: "max" });
    // A typo in the variable is reported and skipped; the flag applies.
    const typo = await run(["--effort", "xhigh"], { env: { CLAUDE_CODE_EFFORT_LEVEL: "maximum" } });
    expect(typo.body.output_config).toEqual({ effort: "xhigh" });
    expect(typo.result.stderr).toContain("CLAUDE_CODE_EFFORT_LEVEL='maximum' is not an effort level (low, medium, high, xhigh, max or auto); it is ignored.");
  });

  test("an invalid --effort is a usage error naming the allowed values, and nothing is sent", async () => {
    const { result } = await run(["--effort", "extreme"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("error: option '--effort <level>' argument 'extreme' is invalid. Allowed choices are low, medium, high, xhigh, max.");
    expect(server?.requests.length).toBe(0);
  });

  test("a level the model lacks is fitted to it, and a model without effort gets none, with a note on stderr", async () => {
    const fitted = await run(["--model", "claude-opus-4-6", "--effort", "xhigh"]);
    expect(reasoningOf(fitted.body)).toEqual({ model: "claude-opus-4-6", thinking: { type: "adaptive" }, output_config: { effort: "high" } });
    expect(fitted.result.stderr).toContain("Effort xhigh (--effort) is not available on claude-opus-4-6; using high (it accepts low, medium, high, max).");
    const none = await run(["--model", "claude-haiku-4-5", "--effort", "low"]);
    expect(reasoningOf(none.body)).toEqual({ model: "claude-haiku-4-5", thinking: undefined, output_config: undefined });
    expect(none.result.stderr).toContain("claude-haiku-4-5 takes no effort level; effort low (--effort) is not sent.");
  });
});

describe("thinking per model", () => {
  test("a budget model gets MAX_THINKING_TOKENS as its budget and the interleaved-thinking beta; an adaptive model ignores the budget", async () => {
    const budget = await run(["--model", "claude-sonnet-4-5"], { env: { MAX_THINKING_TOKENS: "5000" } });
    expect(reasoningOf(budget.body)).toEqual({ model: "claude-sonnet-4-5", thinking: { type: "enabled", budget_tokens: 5000 }, output_config: undefined });
    expect(budget.headers["anthropic-beta"]?.split(",")).toContain("interleaved-thinking-2025-05-14");
    const adaptive = await run(["--model", "claude-opus-4-6"], { env: { MAX_THINKING_TOKENS: "5000" } });
    expect(reasoningOf(adaptive.body)).toEqual({ model: "claude-opus-4-6", thinking: { type: "adaptive" }, output_config: { effort: "high" } });
    expect(adaptive.headers["anthropic-beta"] ?? "").not.toContain("interleaved-thinking");
    expect(adaptive.result.stderr).toBe("");
  });

  test("MAX_THINKING_TOKENS=0 turns thinking off where it can be; a model that always thinks keeps thinking and says so", async () => {
    expect(reasoningOf((await run(["--model", "claude-opus-4-8"], { env: { MAX_THINKING_TOKENS: "0" } })).body)).toEqual({
      model: "claude-opus-4-8",
      thinking: undefined,
      output_config: { effort: "high" },
    });
    const always = await run([], { env: { MAX_THINKING_TOKENS: "0" } });
    expect(always.body.thinking).toEqual({ type: "adaptive" });
    expect(always.result.stderr).toContain("claude-opus-5-5 always thinks; MAX_THINKING_TOKENS=0 does not turn it off.");
  });

  test("a model id clew does not know (a gateway's) is sent no thinking and no effort unless asked", async () => {
    expect(reasoningOf((await run(["--model", "my-gateway-model"])).body)).toEqual({ model: "my-gateway-model", thinking: undefined, output_config: undefined });
    expect(reasoningOf((await run(["--model", "my-gateway-model", "--effort", "low"])).body)).toEqual({ model: "my-gateway-model", thinking: undefined, output_config: { effort: "low" } });
  });
});

describe("interleaved thinking", () => {
  test("across three tool calls every thinking block goes back byte for byte, signatures included, never with cache_control", async () => {
    const dir = writeWorkspace({ "a.txt": "alpha\n", "b.txt": "beta\n", "c.txt": "gamma\n" });
    mkdirSync(join(dir, "sub"));
    const first = reply().thinking("I should read a.txt first.").redactedThinking("cmVkYWN0ZWQtb25l").toolUse("Read", { file_path: join(dir, "a.txt") });
    // Display "omitted": empty thinking text, only a signature.
    const second = reply().thinking("").toolUse("Read", { file_path: join(dir, "b.txt") });
    const third = reply().thinking("Alpha and beta read; c.txt is last.\nThen answer.", "sig-custom/+=").toolUse("Read", { file_path: join(dir, "c.txt") });
    const last = reply().thinking("All three read.").text("alpha, beta, gamma");
    server = await startFakeAnthropic({ script: [first, second, third, last] });
    const result = await runClew(["-p", "read the three files"], { cwd: dir, baseURL: server.url, configDir: tempDirectory("clew-config-") });
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe("alpha, beta, gamma");
    expect(server.requests.length).toBe(4);
    expect(server.violations).toEqual([]);

    const replies = [first, second, third];
    for (let n = 1; n < 4; n++) {
      const messages = (server.requests[n]?.body.messages ?? []) as JsonObject[];
      const assistants = messages.filter((message) => message.role === "assistant");
      expect(assistants.length).toBe(n);
      assistants.forEach((message, i) => {
        const sent = (message.content as JsonObject[]).filter((block) => block.type === "thinking" || block.type === "redacted_thinking");
        const produced = (replies[i]?.blocks ?? []).filter((block) => block.type === "thinking" || block.type === "redacted_thinking");
        // Same serialisation as the API produced them: same keys in the same order, same bytes.
        expect(sent.map((block) => JSON.stringify(block))).toEqual(produced.map((block) => JSON.stringify(block)));
        // Thinking comes first in its message, as the API wrote it.
        expect((message.content as JsonObject[]).slice(0, sent.length).map((block) => block.type)).toEqual(sent.map((block) => block.type));
      });
    }
  });
});
