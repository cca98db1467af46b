// `--json-schema` (print mode) and the Agent SDK's `outputFormat`: the model answers through the
// StructuredOutput tool, whose input clew checks against the schema; a valid answer is the
// result's `structured_output` (the JSON printed in text mode), an invalid one is refused with
// what to fix, a turn that ends without one is asked again, and after five attempts the run
// ends as error_max_structured_output_retries. A schema that is not one is refused up front.
import { afterEach, describe, expect, test } from "bun:test";
import { lastUserText, reply, startFakeAnthropic, toolResults, type FakeServer, type RecordedRequest, type ScriptStep } from "../fake-anthropic/index.ts";
import { clewCommand, clewEnv, runClew, tempDirectory } from "../helpers/clew-process.ts";
import { query, type SDKMessage } from "../agent-sdk/sdk.ts";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const SCHEMA = { type: "object", properties: { summary: { type: "string" }, count: { type: "integer", minimum: 0 } }, required: ["summary", "count"] };

const messagesRequests = (fake: FakeServer): RecordedRequest[] => fake.requests.filter((request) => request.endpoint === "messages");

async function run(schema: unknown, script: ScriptStep[], format: "json" | "text" = "json") {
  const fake = (server = await startFakeAnthropic({ script, rejectInvalid: true }));
  const result = await runClew(["-p", "summarize", "--output-format", format, "--json-schema", typeof schema === "string" ? schema : JSON.stringify(schema)], {
    cwd: tempDirectory("clew-json-schema-"),
    configDir: tempDirectory("clew-config-"),
    baseURL: fake.url,
  });
  return { ...result, requests: messagesRequests(fake), json: () => JSON.parse(result.stdout) as Record<string, unknown> };
}

function toolOffered(request: RecordedRequest | undefined, name: string): Record<string, unknown> | undefined {
  const tools = request?.body.tools;
  return Array.isArray(tools) ? (tools.find((tool) => typeof tool === "object" && tool !== null && (tool as { name?: unknown }).name === name) as Record<string, unknown> | undefined) : undefined;
}

describe("--json-schema", () => {
  test("StructuredOutput carries the schema; an invalid answer is refused with what to fix; a valid one is structured_output", async () => {
    const result = await run(SCHEMA, [
      reply().toolUse("StructuredOutput", { summary: 5 }),
      reply().toolUse("StructuredOutput", { summary: "two files changed", count: 2 }),
      reply().text("Done."),
    ]);
    expect(result.code).toBe(0);
    expect(toolOffered(result.requests[0], "StructuredOutput")).toMatchObject({ name: "StructuredOutput", input_schema: SCHEMA });
    const [refused] = toolResults(result.requests[1] as RecordedRequest);
    expect(refused?.isError).toBe(true);
    expect(refused?.text).toContain("The input does not match the required schema");
    expect(refused?.text).toContain("/summary");
    expect(refused?.text).toContain("count");
    expect(toolResults(result.requests[2] as RecordedRequest)).toMatchObject([{ isError: false, text: "Structured output provided successfully" }]);
    expect(result.json()).toMatchObject({ type: "result", subtype: "success", is_error: false, result: "Done.", structured_output: { summary: "two files changed", count: 2 }, terminal_reason: "completed", num_turns: 3 });
  });

  test("a turn that ends without the answer is asked for it; text mode prints the answer as JSON", async () => {
    const result = await run(SCHEMA, [reply().text("It has two files."), reply().toolUse("StructuredOutput", { summary: "two files", count: 2 }), reply().text("")], "text");
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 0, stdout: `${JSON.stringify({ summary: "two files", count: 2 })}\n` });
    expect(result.requests).toHaveLength(3);
    expect(lastUserText(result.requests[1] as RecordedRequest)).toContain("Call the StructuredOutput tool now");
  });

  test("no valid answer within five attempts ends as error_max_structured_output_retries", async () => {
    const result = await run(SCHEMA, [reply().toolUse("StructuredOutput", { summary: "x" }), ...Array.from({ length: 4 }, () => reply().text("I would rather not."))]);
    expect(result.code).toBe(1);
    expect(result.requests).toHaveLength(5);
    expect(result.json()).toMatchObject({
      subtype: "error_max_structured_output_retries",
      is_error: true,
      errors: ["Failed to provide valid structured output after 5 attempts"],
      terminal_reason: "structured_output_retry_exhausted",
    });
    expect(result.json()).not.toHaveProperty("structured_output");
  });

  test("a root that is not an object is asked for as the property `output` and given back unwrapped", async () => {
    const list = { type: "array", items: { type: "string" }, minItems: 1 };
    const result = await run(list, [reply().toolUse("StructuredOutput", { output: [] }), reply().toolUse("StructuredOutput", { output: ["a.ts", "b.ts"] }), reply().text("")]);
    expect(toolOffered(result.requests[0], "StructuredOutput")?.input_schema).toEqual({ type: "object", properties: { output: list }, required: ["output"], additionalProperties: false });
    expect(toolResults(result.requests[1] as RecordedRequest)[0]?.isError).toBe(true);
    expect(result.json()).toMatchObject({ subtype: "success", structured_output: ["a.ts", "b.ts"] });
  });

  test("a schema that is not one is refused before any request, saying what is wrong", async () => {
    for (const [schema, why] of [
      ['{"type":"objekt"}', "schema.type must be one of"],
      ["{not json", "it is not JSON"],
      ['["a"]', "it must be a JSON object"],
      ['{"type":"object","properties":{"a":{"$ref":"#/$defs/missing"}}}', "missing"],
    ] as const) {
      const result = await run(schema, []);
      expect({ schema, code: result.code, requests: result.requests.length }).toEqual({ schema, code: 1, requests: 0 });
      expect(result.stderr).toContain("Error: --json-schema is not a valid JSON Schema\n");
      expect(result.stderr).toContain(why);
    }
  });

  test("helpers are never offered StructuredOutput", async () => {
    const result = await run(SCHEMA, [
      reply().toolUse("Agent", { description: "look", prompt: "look around", subagent_type: "general-purpose" }),
      reply().text("looked"),
      reply().toolUse("StructuredOutput", { summary: "looked", count: 0 }),
      reply().text(""),
    ]);
    expect(result.code).toBe(0);
    const helperRequest = result.requests[1] as RecordedRequest;
    expect(toolOffered(helperRequest, "Read")).toBeDefined();
    expect(toolOffered(helperRequest, "StructuredOutput")).toBeUndefined();
    expect(result.json()).toMatchObject({ structured_output: { summary: "looked", count: 0 } });
  });
});

describe("the Agent SDK's outputFormat", () => {
  test("query() with outputFormat json_schema gets structured_output in its result", async () => {
    const binary = clewCommand();
    if (binary.length !== 1 || !binary[0]) throw new Error("the Agent SDK test needs the compiled binary: set CLEW_BIN or build dist/clew");
    const fake = (server = await startFakeAnthropic({ script: [reply().toolUse("StructuredOutput", { summary: "sdk", count: 1 }), reply().text("ok")], rejectInvalid: true }));
    const cwd = tempDirectory("clew-sdk-schema-");
    const stderr: string[] = [];
    const messages: SDKMessage[] = [];
    for await (const message of query({
      prompt: "summarize",
      options: { pathToClaudeCodeExecutable: binary[0], cwd, env: clewEnv({ cwd, configDir: tempDirectory("clew-config-"), baseURL: fake.url }), stderr: (text) => stderr.push(text), outputFormat: { type: "json_schema", schema: SCHEMA } },
    })) {
      messages.push(message);
    }
    expect(stderr.join("")).toBe("");
    expect(toolOffered(messagesRequests(fake)[0], "StructuredOutput")).toMatchObject({ input_schema: SCHEMA });
    expect(messages.filter((message) => message.type === "result")).toMatchObject([{ subtype: "success", structured_output: { summary: "sdk", count: 1 } }]);
  });
});
