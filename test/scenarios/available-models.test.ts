// `availableModels` constrains every way a model is chosen: a `--model` it does not allow stops the
// start, naming the list and its file; with nothing chosen the list's first model is used instead
// of a default it does not allow; version prefixes allow a whole line of models; a helper whose
// own model is not allowed (Explore runs on the fast model) runs on the parent's.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { messagesOf, reply, startFakeAnthropic, type FakeServer, type StepFn } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function configWith(availableModels: string[]): { configDir: string; file: string } {
  const configDir = tempDirectory("clew-config-");
  const file = join(configDir, "settings.json");
  writeFileSync(file, JSON.stringify({ availableModels }));
  return { configDir, file };
}

describe("availableModels", () => {
  test("a --model outside the list stops the start with the list and its file; nothing is sent", async () => {
    const fake = (server = await startFakeAnthropic({ script: [reply().text("never")] }));
    const { configDir, file } = configWith(["sonnet"]);
    const run = await runClew(["-p", "hi", "--model", "opus"], { cwd: tempDirectory("clew-models-"), configDir, baseURL: fake.url });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`error: model opus is not in availableModels (${file}).`);
    expect(run.stderr).toContain("Allowed: sonnet.");
    expect(fake.requests).toHaveLength(0);
  });

  test("with nothing chosen, the list's first model replaces a default it does not allow; a prefix allows its line", async () => {
    const fake = (server = await startFakeAnthropic({ script: [reply().text("one"), reply().text("two")] }));
    const { configDir } = configWith(["sonnet", "claude-haiku-4"]);
    const cwd = tempDirectory("clew-models-");
    expect((await runClew(["-p", "hi"], { cwd, configDir, baseURL: fake.url })).code).toBe(0);
    expect((await runClew(["-p", "hi", "--model", "claude-haiku-4-5-20251001"], { cwd, configDir, baseURL: fake.url })).code).toBe(0);
    expect(fake.requests.map((request) => request.body.model)).toEqual(["claude-sonnet-5-5", "claude-haiku-4-5-20251001"]);
  });

  test("a helper whose model the list does not allow runs on the parent's", async () => {
    const dir = tempDirectory("clew-models-");
    mkdirSync(join(dir, "notes"));
    writeFileSync(join(dir, "notes", "a.txt"), "alpha\n");
    const router: StepFn = (request) => (messagesOf(request).length === 1 && JSON.stringify(request.body.system).includes("read-only search helper") ? reply().text("SUMMARY: alpha") : reply().text("done"));
    const fake = (server = await startFakeAnthropic({ script: [reply().toolUse("Agent", { description: "Look", prompt: "Summarise notes/a.txt.", subagent_type: "Explore" }), router, router] }));
    const { configDir } = configWith(["sonnet"]);
    const run = await runClew(["-p", "look", "--model", "sonnet"], { cwd: dir, configDir, baseURL: fake.url });
    expect(run.code).toBe(0);
    const models = fake.requests.map((request) => request.body.model);
    expect(models.length).toBe(3);
    expect(new Set(models)).toEqual(new Set(["claude-sonnet-5-5"]));
  });
});
