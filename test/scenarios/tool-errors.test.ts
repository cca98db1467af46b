// Mistakes the model makes with tools — a tool that doesn't exist, input that breaks the schema,
// an Edit on a file that changed on disk — come back as is_error results that say how to fix the
// call, and the run carries on. Plus: parallel reads are answered in order, in one message.
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  lastUserText,
  messagesOf,
  reply,
  startFakeAnthropic,
  toolResults,
  type FakeServer,
  type ScriptStep,
} from "../fake-anthropic/index.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";
import { transcriptMessages, withoutCacheControl } from "../helpers/transcript.ts";
import { expectNoDuplicateTurns, expectTranscriptIsLastRequestPlus, onlyTranscript, requestAt } from "../helpers/scenario.ts";
import { writeWorkspace } from "./workspaces.ts";

const DONE = "Finished despite the failed calls.";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function run(dir: string, script: ScriptStep[], extra: string[] = []) {
  const configDir = tempDirectory("clew-config-");
  const fake = (server = await startFakeAnthropic({ script }));
  const result = await runClew(["-p", "do the task", "--output-format", "json", ...extra], { cwd: dir, baseURL: fake.url, configDir });
  return { fake, configDir, result, json: JSON.parse(result.stdout) as Record<string, unknown> };
}

/** Request n's tool results (n is 0-based). */
const resultsOf = (fake: FakeServer, n: number) => toolResults(requestAt(fake, n));

async function hallucinatedToolRun() {
  const dir = writeWorkspace({ "a.txt": "alpha\n" });
  const bogus = reply().text("Trying two things.").toolUse("Frobnicate", { target: "a.txt" }).toolUse("Read", { file_path: join(dir, "a.txt") });
  const outcome = await run(dir, [bogus, reply().text(DONE)], ["--permission-mode", "bypassPermissions"]);
  return { ...outcome, bogus };
}

/** The wire form of an assistant message: what the model sent is what goes back. */
const canonical = (value: unknown) => JSON.stringify(withoutCacheControl(value));

describe("tool errors the model can fix", () => {
  test("a hallucinated tool beside a valid Read: both answered in one user message, the call sent back unchanged", async () => {
    const { fake, configDir, result, json, bogus } = await hallucinatedToolRun();
    expect(result.code).toBe(0);
    expect(fake.violations).toEqual([]);
    expect(json).toMatchObject({ subtype: "success", is_error: false, result: DONE, num_turns: 2 });
    const [frobnicateId, readId] = bogus.toolUseIds;
    const results = resultsOf(fake, 1);
    expect(results.map((sent) => `${sent.toolUseId}:${sent.isError}`)).toEqual([`${frobnicateId}:true`, `${readId}:false`]);
    expect(results[0]?.text).toStartWith("Error: No such tool available: Frobnicate.");
    // It lists what the model can call instead.
    for (const name of ["Bash", "Read", "Edit", "Write", "Glob", "Grep"]) expect(results[0]?.text).toContain(name);
    expect(results[1]?.text).toContain("alpha");
    // The assistant message in the next request is byte-identical to what the model sent.
    const sentBack = messagesOf(requestAt(fake, 1))[1];
    expect(sentBack?.role).toBe("assistant");
    expect(JSON.stringify(sentBack?.content)).toBe(JSON.stringify(bogus.blocks));
    // The transcript keeps the call and its error result exactly as they happened.
    const stored = transcriptMessages(onlyTranscript(configDir));
    expect(canonical(stored[1]?.content)).toBe(JSON.stringify(bogus.blocks));
    expect(stored[2]?.content).toEqual([
      expect.objectContaining({ type: "tool_result", tool_use_id: frobnicateId, is_error: true }),
      expect.objectContaining({ type: "tool_result", tool_use_id: readId }),
    ]);
    expectNoDuplicateTurns(onlyTranscript(configDir));
  });

  test("a tool used earlier and hidden since (a later --disallowedTools, a deny rule): history is resent as recorded", async () => {
    const dir = writeWorkspace({ "a.txt": "alpha\n" });
    const configDir = tempDirectory("clew-config-");
    const write = reply().toolUse("Write", { file_path: join(dir, "b.txt"), content: "beta\n" });
    const first = (server = await startFakeAnthropic({ script: [write, reply().text("wrote it")] }));
    const one = await runClew(["-p", "write b.txt", "--permission-mode", "acceptEdits"], { cwd: dir, baseURL: first.url, configDir });
    expect(one.code).toBe(0);
    await first.close();

    for (const hide of [["--disallowedTools", "Write"], ["--settings", '{"permissions":{"deny":["Write"]}}']]) {
      const again = reply().toolUse("Write", { file_path: join(dir, "c.txt"), content: "gamma\n" });
      const fake = (server = await startFakeAnthropic({ script: [again, reply().text(DONE)] }));
      const next = await runClew(["-p", "-c", "write c.txt too", "--output-format", "json", ...hide], { cwd: dir, baseURL: fake.url, configDir });
      expect(next.code).toBe(0);
      expect(fake.violations).toEqual([]);
      const request = requestAt(fake, 0);
      const offered = (request.body.tools as Array<{ name: string }>).map((tool) => tool.name);
      expect(offered).not.toContain("Write");
      // The earlier Write call goes back as the tool_use it was, not as prose.
      expect(canonical(messagesOf(request)[1]?.content)).toBe(JSON.stringify(write.blocks));
      const answer = resultsOf(fake, 1);
      expect(answer.map((sent) => `${sent.toolUseId}:${sent.isError}`)).toEqual([`${again.toolUseIds[0]}:true`]);
      expect(answer[0]?.text).toStartWith("Error: No such tool available: Write.");
      expect(() => readFileSync(join(dir, "c.txt"))).toThrow();
      await fake.close();
      server = undefined;
    }
  });

  test("Read without file_path and Bash with command: 42 get is_error results naming tool and field", async () => {
    const dir = writeWorkspace({ "a.txt": "alpha\n" });
    const noPath = reply().toolUse("Read", { limit: 5 });
    const badCommand = reply().toolUse("Bash", { command: 42 });
    const { fake, configDir, result, json } = await run(
      dir,
      [noPath, badCommand, reply().text(DONE)],
      ["--permission-mode", "bypassPermissions"],
    );

    expect(fake.violations).toEqual([]);
    expect(result.code).toBe(0);
    expect(json).toMatchObject({ subtype: "success", is_error: false, result: DONE, num_turns: 3 });

    const missing = resultsOf(fake, 1);
    expect(missing).toEqual([expect.objectContaining({ toolUseId: noPath.toolUseIds[0], isError: true })]);
    expect(missing[0]?.text).toMatch(/^InputValidationError: Read was called with invalid input:\n- file_path: .*expected string/);
    expect(missing[0]?.text).toContain("Fix the input");

    const wrongType = resultsOf(fake, 2);
    expect(wrongType).toEqual([expect.objectContaining({ toolUseId: badCommand.toolUseIds[0], isError: true })]);
    expect(wrongType[0]?.text).toMatch(/^InputValidationError: Bash was called with invalid input:\n- command: .*expected string, received number/);
    expect(wrongType[0]?.text).toContain("Fix the input");

    const path = onlyTranscript(configDir);
    expectTranscriptIsLastRequestPlus(path, fake.requests[2]?.body.messages, DONE);
    expectNoDuplicateTurns(path);
  });

  test("Edit after the file changed on disk fails naming the file, writes nothing, and the run continues", async () => {
    const dir = writeWorkspace({ "config.txt": "value = 1\n" });
    const file = join(dir, "config.txt");
    const external = "value = 1\nchanged_by = someone else\n";
    const edit = reply().toolUse("Edit", { file_path: file, old_string: "value = 1", new_string: "value = 2" });
    const { fake, configDir, result, json } = await run(
      dir,
      [
        reply().toolUse("Read", { file_path: file }),
        () => {
          // Another process rewrites the file between the model's Read and its Edit.
          writeFileSync(file, external);
          return edit;
        },
        reply().text(DONE),
      ],
      ["--permission-mode", "acceptEdits"],
    );

    expect(fake.violations).toEqual([]);
    expect(result.code).toBe(0);
    expect(json).toMatchObject({ subtype: "success", is_error: false, result: DONE, num_turns: 3 });
    const results = resultsOf(fake, 2);
    expect(results).toEqual([expect.objectContaining({ toolUseId: edit.toolUseIds[0], isError: true })]);
    expect(results[0]?.text).toContain(file);
    expect(results[0]?.text).toContain("modified since it was read");
    expect(results[0]?.text).toContain("Read it again");
    expect(readFileSync(file, "utf8")).toBe(external);
    expectNoDuplicateTurns(onlyTranscript(configDir));
  });
});

describe("parallel tool calls", () => {
  test("three Reads in one reply: one user message, three results in call order with matching ids", async () => {
    const files = { "one.txt": "first file\n", "two.txt": `${"second file line\n".repeat(2000)}`, "three.txt": "third file\n" };
    const dir = writeWorkspace(files);
    const reads = reply().text("Reading all three.");
    for (const name of Object.keys(files)) reads.toolUse("Read", { file_path: join(dir, name), limit: 3 });
    const { fake, configDir, result, json } = await run(dir, [reads, reply().text(DONE)]);

    expect(fake.violations).toEqual([]);
    expect(result.code).toBe(0);
    expect(json).toMatchObject({ subtype: "success", result: DONE, num_turns: 2 });
    const request = requestAt(fake, 1);
    const last = messagesOf(request).at(-1);
    expect(last?.role).toBe("user");
    const content = (withoutCacheControl(last?.content) as Array<Record<string, unknown>>) ?? [];
    expect(content.map((block) => [block.type, block.tool_use_id])).toEqual(reads.toolUseIds.map((id) => ["tool_result", id]));
    expect(content.map((block) => block.is_error)).toEqual([undefined, undefined, undefined]);
    const texts = toolResults(request).map((sent) => sent.text);
    expect(texts[0]).toContain("first file");
    expect(texts[1]).toContain("second file line");
    expect(texts[2]).toContain("third file");

    const path = onlyTranscript(configDir);
    expectTranscriptIsLastRequestPlus(path, request.body.messages, DONE);
    expectNoDuplicateTurns(path);
  });
});
