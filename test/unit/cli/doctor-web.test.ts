// The doctor's web search check against the fake API: an endpoint that counts a request offering
// the server-side web_search tool passes; one that refuses it fails with its own message and the
// fix; a bare deny rule means the tool is off and nothing is asked; without credentials or with
// nonessential traffic off, nothing is sent.
import { afterEach, describe, expect, test } from "bun:test";
import { webSearchCheck, webSearchDenyRule } from "../../../src/cli/doctor-web.ts";
import { readEnvironment } from "../../../src/settings/paths.ts";
import type { SettingsRule } from "../../../src/settings/types.ts";
import { startFakeAnthropic, type FakeServer } from "../../fake-anthropic/index.ts";
import { tempDirectory } from "../../helpers/clew-process.ts";

let fake: FakeServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function environment(vars: Record<string, string>) {
  const home = tempDirectory("clew-doctor-web-");
  return readEnvironment({ HOME: home, CLEW_CONFIG_DIR: home, PATH: "/usr/bin:/bin", ...vars }, home);
}

const rule = (text: string, kind: SettingsRule["kind"] = "deny"): SettingsRule => ({ text, kind, source: { scope: "user", file: "/home/u/.clew/settings.json", root: "/home/u/.clew" } });

describe("doctor: web search", () => {
  test("an endpoint that accepts the server tool passes; the probe is a token count offering exactly WebSearch's tool", async () => {
    fake = await startFakeAnthropic();
    const env = environment({ ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-test" });
    const check = await webSearchCheck({ env, rules: [], model: "claude-haiku-5-5" });
    expect(check).toEqual({ ok: true, label: "Web search", detail: `${new URL(fake.url).host} accepts the server-side web_search tool (claude-haiku-5-5)` });
    expect(fake.requests.map((request) => ({ endpoint: request.endpoint, auth: request.auth, body: request.body }))).toEqual([
      {
        endpoint: "count_tokens",
        auth: "x-api-key",
        body: { model: "claude-haiku-5-5", messages: [{ role: "user", content: "Search the web for: clew" }], tools: [{ type: "web_search_20250305", name: "web_search", max_uses: 8 }] },
      },
    ]);
    expect(fake.violations).toEqual([]);
    // No script step was used: counting is free.
    expect(fake.requests[0]?.step).toBeNull();
  });

  test("an endpoint that refuses it fails with the endpoint's message and says what to do", async () => {
    fake = await startFakeAnthropic({ rejectServerTools: true });
    const env = environment({ ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_AUTH_TOKEN: "token" });
    const check = await webSearchCheck({ env, rules: [rule("Bash(rm *)")], model: "local-model" });
    expect(check).toEqual({
      ok: false,
      label: "Web search",
      detail: `${new URL(fake.url).host} refuses the server-side web_search tool (HTTP 400): tools.0: Input tag 'web_search_20250305' found using 'type' does not match any of the expected tags: 'bash_20250124', 'custom', 'text_editor_20250124', 'text_editor_20250429', 'text_editor_20250728'`,
      lines: [
        `WebSearch will fail with "Web search is not available from this model endpoint". WebSearch runs the API's server-side web_search tool, which Anthropic's API offers but many gateways and local models do not.`,
        'To fix: use an endpoint that offers it, or add "WebSearch" to permissions.deny in your settings to stop offering the tool.',
      ],
    });
    expect(fake.requests[0]?.auth).toBe("bearer");
  });

  test("a bare deny rule turns the tool off: reported as such, nothing sent", async () => {
    fake = await startFakeAnthropic({ rejectServerTools: true });
    const env = environment({ ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-test" });
    const check = await webSearchCheck({ env, rules: [rule("WebSearch")], model: "m" });
    expect(check).toEqual({ ok: "n/a", label: "Web search", detail: "off: the deny rule WebSearch in /home/u/.clew/settings.json removes WebSearch from the tools offered" });
    expect(fake.requests).toEqual([]);
  });

  test("which deny rules remove the tool: bare names and patterns covering it, not specifiers or other kinds", () => {
    expect(webSearchDenyRule([rule("WebSearch")])?.text).toBe("WebSearch");
    expect(webSearchDenyRule([rule("WebSearch(*)")])?.text).toBe("WebSearch(*)");
    expect(webSearchDenyRule([rule("Web*")])?.text).toBe("Web*");
    expect(webSearchDenyRule([rule("WebSearch(zod)"), rule("WebFetch"), rule("WebSearch", "allow"), rule("WebSearch", "ask")])).toBeUndefined();
  });

  test("without credentials, or with nonessential traffic off, nothing is sent", async () => {
    fake = await startFakeAnthropic();
    expect(await webSearchCheck({ env: environment({ ANTHROPIC_BASE_URL: fake.url }), rules: [], model: "m" })).toEqual({ ok: "n/a", label: "Web search", detail: "not checked: no API credentials" });
    const quiet = await webSearchCheck({ env: environment({ ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "k", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1" }), rules: [], model: "m" });
    expect(quiet.ok).toBe("n/a");
    expect(quiet.detail).toStartWith("not checked (CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC is set).");
    expect(fake.requests).toEqual([]);
  });

  test("an endpoint with no token-count route cannot be checked, and says what to do if searches fail", async () => {
    const bare = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => Response.json({ error: { type: "not_found_error", message: "Not Found" } }, { status: 404 }) });
    try {
      const check = await webSearchCheck({ env: environment({ ANTHROPIC_BASE_URL: `http://127.0.0.1:${bare.port}`, ANTHROPIC_API_KEY: "k" }), rules: [], model: "m" });
      expect(check.ok).toBe("n/a");
      expect(check.detail).toBe(
        `not checked: 127.0.0.1:${bare.port} has no token-count endpoint (HTTP 404: Not Found). WebSearch runs the API's server-side web_search tool, which Anthropic's API offers but many gateways and local models do not; if searches fail, add "WebSearch" to permissions.deny in your settings to stop offering the tool`,
      );
    } finally {
      await bare.stop(true);
    }
  });
});
