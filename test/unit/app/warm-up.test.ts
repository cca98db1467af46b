import { describe, expect, test } from "bun:test";
import { schemaWarmUp } from "../../../src/app/warm-up.ts";
import { createStreamFn } from "../../../src/model/client.ts";
import type { AnyTool } from "../../../src/tools/types.ts";
import { reply, startFakeAnthropic } from "../../fake-anthropic/index.ts";

/** A tool whose schema records when it is built. */
function tool(name: string, built: string[]): AnyTool {
  return {
    name,
    get input() {
      built.push(name);
      return undefined;
    },
  } as unknown as AnyTool;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe("schema warm-up while the first request is in flight", () => {
  test("builds the first-reached tools' schemas one task at a time, once, and leaves the others alone", async () => {
    const built: string[] = [];
    const tools = ["TodoWrite", "Write", "Bash", "Edit", "Glob", "Grep", "Read", "mcp__x__y"].map((name) => tool(name, built));
    const warm = schemaWarmUp(() => tools);
    warm();
    // Nothing runs in the caller's own task: the request is on its way first.
    expect(built).toEqual([]);
    await settle();
    expect(built).toEqual(["Read", "Grep", "Glob", "Edit", "Bash", "Write"]);
    warm();
    await settle();
    expect(built).toHaveLength(6);
  });

  test("the model client says when each request has been handed to fetch", async () => {
    const server = await startFakeAnthropic({ script: [reply().text("one"), reply().text("two")] });
    try {
      let sent = 0;
      const receivedWhenSent: number[] = [];
      const stream = createStreamFn({
        apiKey: "sk-test",
        baseURL: server.url,
        maxRetries: 0,
        idleTimeoutMs: 5_000,
        requestTimeoutMs: 10_000,
        headers: {},
        onRequestSent: () => {
          sent += 1;
          receivedWhenSent.push(server.requests.length);
        },
      });
      const request = { model: "claude-sonnet-4-5", maxTokens: 100, system: [], tools: [], messages: [{ role: "user" as const, content: "hi" }] };
      for (let i = 0; i < 2; i++) for await (const _event of stream(request, new AbortController().signal)) void _event;
      expect(sent).toBe(2);
      // Called as the request leaves, before the server has answered it.
      expect(receivedWhenSent).toEqual([0, 1]);
      expect(server.requests).toHaveLength(2);
    } finally {
      await server.close();
    }
  });
});
