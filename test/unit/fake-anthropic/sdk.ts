/** The real SDK client pointed at a fake server, and a request body the tests vary. */
import { Anthropic } from "@anthropic-ai/sdk";
import type { MessageCreateParamsNonStreaming, MessageParam, Tool } from "@anthropic-ai/sdk/resources/messages";
import { afterEach } from "bun:test";
import { startFakeAnthropic, type FakeAnthropicOptions, type FakeServer } from "../../fake-anthropic/index.ts";

/** A per-test fake server, closed after each test of the file that calls this. */
export function fakeServerPerTest(): (options: FakeAnthropicOptions) => Promise<FakeServer> {
  let server: FakeServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  return async (options) => {
    server = await startFakeAnthropic(options);
    return server;
  };
}

export function sdkClient(server: FakeServer, options: { authToken?: string } = {}): Anthropic {
  return options.authToken
    ? new Anthropic({ apiKey: null, authToken: options.authToken, baseURL: server.url, maxRetries: 0 })
    : new Anthropic({ apiKey: "test", baseURL: server.url, maxRetries: 0 });
}

export const readTool: Tool = {
  name: "Read",
  description: "Read a file",
  input_schema: { type: "object", properties: { file_path: { type: "string" } }, required: ["file_path"] },
};

export const bashTool: Tool = {
  name: "Bash",
  description: "Run a command",
  input_schema: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
};

export function params(messages: MessageParam[] = [{ role: "user", content: "hi" }]): MessageCreateParamsNonStreaming {
  return { model: "claude-test-1", max_tokens: 1024, tools: [readTool, bashTool], messages };
}
