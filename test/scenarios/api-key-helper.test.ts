// `apiKeyHelper` in settings: without a key or token in the environment, the command's output is
// the credential, sent as both `x-api-key` and a bearer token; it is asked again when the API
// refuses the key (401) and once the key is older than CLAUDE_CODE_API_KEY_HELPER_TTL_MS; a helper
// that fails stops the run with what it said; a key in the environment comes first.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { http, reply, startFakeAnthropic, type FakeServer, type ScriptStep } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A helper that hands out sk-helper-1, sk-helper-2, … one per run, counted in a file. */
function countingHelper(configDir: string): { counter: string; settings: string } {
  const counter = join(configDir, "count");
  const command = `n=$(cat ${counter} 2>/dev/null || echo 0); n=$((n+1)); echo $n > ${counter}; printf 'sk-helper-%s\\n' $n`;
  const settings = join(configDir, "settings.json");
  writeFileSync(settings, JSON.stringify({ apiKeyHelper: command }));
  return { counter, settings };
}

async function start(script: ScriptStep[]): Promise<FakeServer> {
  server = await startFakeAnthropic({ script });
  return server;
}

/** Runs clew with the fake's URL but no key of its own: the helper must supply it. */
function runWithoutKey(args: string[], dir: string, configDir: string, fake: FakeServer, env: Record<string, string> = {}) {
  return runClew(args, { cwd: dir, configDir, env: { ANTHROPIC_BASE_URL: fake.url, ...env } });
}

describe("apiKeyHelper", () => {
  test("the helper's key goes in both headers; a 401 asks the helper again and the request goes again", async () => {
    const configDir = tempDirectory("clew-config-");
    const dir = tempDirectory("clew-helper-");
    countingHelper(configDir);
    const fake = await start([http(401, { errorType: "authentication_error", message: "invalid x-api-key" }), reply().text("answered with a fresh key")]);
    const run = await runWithoutKey(["-p", "hi", "--output-format", "stream-json", "--verbose"], dir, configDir, fake);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("answered with a fresh key");
    const keys = fake.requests.map((request) => [request.headers["x-api-key"], request.headers.authorization]);
    expect(keys).toEqual([
      ["sk-helper-1", "Bearer sk-helper-1"],
      ["sk-helper-2", "Bearer sk-helper-2"],
    ]);
    const init = run.stdout.split("\n").filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>).find((frame) => frame.subtype === "init");
    expect(init?.apiKeySource).toBe("apiKeyHelper");
  });

  test("a key is reused while fresh, and asked for again once older than the TTL", async () => {
    const steps = () => [reply().toolUse("Bash", { command: "true" }), reply().text("done")];
    const reused = tempDirectory("clew-config-");
    countingHelper(reused);
    const fresh = await start(steps());
    expect((await runWithoutKey(["-p", "go", "--permission-mode", "bypassPermissions"], tempDirectory("clew-helper-"), reused, fresh)).code).toBe(0);
    expect(fresh.requests.map((request) => request.headers["x-api-key"])).toEqual(["sk-helper-1", "sk-helper-1"]);
    await fresh.close();

    const expiring = tempDirectory("clew-config-");
    countingHelper(expiring);
    const stale = await start(steps());
    const run = await runWithoutKey(["-p", "go", "--permission-mode", "bypassPermissions"], tempDirectory("clew-helper-"), expiring, stale, { CLAUDE_CODE_API_KEY_HELPER_TTL_MS: "0" });
    expect(run.code).toBe(0);
    expect(stale.requests.map((request) => request.headers["x-api-key"])).toEqual(["sk-helper-1", "sk-helper-2"]);
  });

  test("a failing helper stops the run with its message and the file that set it; nothing is sent", async () => {
    const configDir = tempDirectory("clew-config-");
    const settings = join(configDir, "settings.json");
    writeFileSync(settings, JSON.stringify({ apiKeyHelper: "echo 'vault is sealed' >&2; exit 3" }));
    const fake = await start([reply().text("never")]);
    const run = await runWithoutKey(["-p", "hi"], tempDirectory("clew-helper-"), configDir, fake);
    expect(run.code).toBe(1);
    expect(`${run.stdout}${run.stderr}`).toContain(`apiKeyHelper ("echo 'vault is sealed' >&2; exit 3" in ${settings}) exited with 3: vault is sealed`);
    expect(fake.requests).toHaveLength(0);
  });

  test("ANTHROPIC_API_KEY in the environment comes first: the helper never runs", async () => {
    const configDir = tempDirectory("clew-config-");
    const { counter } = countingHelper(configDir);
    const fake = await start([reply().text("done")]);
    const run = await runWithoutKey(["-p", "hi"], tempDirectory("clew-helper-"), configDir, fake, { ANTHROPIC_API_KEY: "sk-from-env" });
    expect(run.code).toBe(0);
    expect(fake.requests[0]?.headers["x-api-key"]).toBe("sk-from-env");
    expect(existsSync(counter)).toBe(false);
  });
});
