// `--fallback-model` / the `fallbackModel` setting: after three overloaded answers in a row a
// request goes on with the next fallback model (the flag outranks the setting; models
// availableModels leaves out are skipped) and the rest of the turn stays there; the next turn
// tries the session's model again; without one, the same model is retried.
import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { overloaded, reply, startFakeAnthropic, type FakeServer } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Three overloaded answers (each asking to retry at once), then a reply. */
const overloadedThrice = () => [...Array.from({ length: 3 }, () => overloaded({ headers: { "retry-after-ms": "1" } })), reply().text("answered")];

async function modelsSent(args: string[], settings: Record<string, unknown> = {}): Promise<{ code: number; models: unknown[]; stderr: string }> {
  const fake = (server = await startFakeAnthropic({ script: overloadedThrice() }));
  const configDir = tempDirectory("clew-config-");
  writeFileSync(join(configDir, "settings.json"), JSON.stringify(settings));
  const run = await runClew(["-p", "hi", "--model", "opus", ...args], { cwd: tempDirectory("clew-fallback-"), configDir, baseURL: fake.url });
  return { code: run.code, models: fake.requests.filter((request) => request.endpoint === "messages").map((request) => request.body.model), stderr: run.stderr };
}

describe("fallback models", () => {
  test("--fallback-model: the fourth attempt goes to the fallback", async () => {
    const run = await modelsSent(["--fallback-model", "sonnet"]);
    expect(run).toMatchObject({ code: 0, models: ["claude-opus-5-5", "claude-opus-5-5", "claude-opus-5-5", "claude-sonnet-5-5"] });
    expect(run.stderr).toContain("clew: claude-opus-5-5 is overloaded; going on with the fallback model claude-sonnet-5-5\n");
  });

  test("the fallbackModel setting does the same; the flag outranks it; a model availableModels leaves out is skipped", async () => {
    expect((await modelsSent([], { fallbackModel: ["haiku"] })).models.at(-1)).toBe("claude-haiku-5-5");
    expect((await modelsSent(["--fallback-model", "sonnet"], { fallbackModel: ["haiku"] })).models.at(-1)).toBe("claude-sonnet-5-5");
    const allowed = await modelsSent(["--fallback-model", "haiku,sonnet"], { availableModels: ["opus", "sonnet"] });
    expect(allowed.models.at(-1)).toBe("claude-sonnet-5-5");
    expect(allowed.stderr).toContain("clew: fallback model haiku is not in availableModels; it is skipped.");
  });

  test("the rest of the turn stays on the fallback; the next turn tries the session's model again", async () => {
    const fake = (server = await startFakeAnthropic({ script: [...overloadedThrice().slice(0, 3), reply().toolUse("Bash", { command: "true" }), reply().text("first turn done"), reply().text("second turn done")] }));
    const line = (text: string) => `${JSON.stringify({ type: "user", message: { role: "user", content: text } })}\n`;
    const run = await runClew(["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose", "--model", "opus", "--fallback-model", "sonnet", "--permission-mode", "bypassPermissions"], {
      cwd: tempDirectory("clew-fallback-"),
      configDir: tempDirectory("clew-config-"),
      baseURL: fake.url,
      stdin: line("first") + line("second"),
    });
    expect(run.code).toBe(0);
    const models = fake.requests.filter((request) => request.endpoint === "messages").map((request) => request.body.model);
    expect(models).toEqual(["claude-opus-5-5", "claude-opus-5-5", "claude-opus-5-5", "claude-sonnet-5-5", "claude-sonnet-5-5", "claude-opus-5-5"]);
  });

  test("without a fallback the model is retried as it was", async () => {
    expect(await modelsSent([])).toMatchObject({ code: 0, models: ["claude-opus-5-5", "claude-opus-5-5", "claude-opus-5-5", "claude-opus-5-5"] });
  });
});
