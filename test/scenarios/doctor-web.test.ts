// `clew doctor` on web search against the compiled binary: an endpoint that refuses the API's
// server-side web_search tool (a gateway or local model behind ANTHROPIC_BASE_URL) is named with
// its own message and the fix, and the check fails; with WebSearch denied by a bare rule, the check
// says the tool is off and sends no probe for it.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startFakeAnthropic, type FakeServer } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";
import { writeWorkspace } from "./workspaces.ts";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("clew doctor: web search", () => {
  test("an endpoint that refuses the server tool fails the check, with its message and the fix", async () => {
    server = await startFakeAnthropic({ rejectServerTools: true });
    const run = await runClew(["doctor"], { cwd: writeWorkspace({}), baseURL: server.url, configDir: tempDirectory("clew-config-") });
    const host = new URL(server.url).host;
    expect(run.stdout).toContain(`✗ Web search: ${host} refuses the server-side web_search tool (HTTP 400): tools.0: Input tag 'web_search_20250305' found using 'type' does not match any of the expected tags: 'bash_20250124', 'custom', 'text_editor_20250124', 'text_editor_20250429', 'text_editor_20250728'`);
    expect(run.stdout).toContain('To fix: use an endpoint that offers it, or add "WebSearch" to permissions.deny in your settings to stop offering the tool.');
    expect(run.code).toBe(1);
    // The credentials check sends a token count of its own, with no tools.
    const probe = server.requests.find((request) => request.endpoint === "count_tokens" && request.body.tools !== undefined);
    expect(probe?.body.tools).toEqual([{ type: "web_search_20250305", name: "web_search", max_uses: 8 }]);
    expect(probe?.body.model).toBe("claude-haiku-5-5");
  });

  test("with WebSearch denied by a bare rule, the tool is reported off and no web search probe is sent", async () => {
    server = await startFakeAnthropic({ rejectServerTools: true });
    const dir = writeWorkspace({});
    mkdirSync(join(dir, ".clew"));
    const settings = join(dir, ".clew", "settings.local.json");
    writeFileSync(settings, JSON.stringify({ permissions: { deny: ["WebSearch"] } }));
    const run = await runClew(["doctor"], { cwd: dir, baseURL: server.url, configDir: tempDirectory("clew-config-") });
    expect(run.stdout).toContain(`– Web search: off: the deny rule WebSearch in ${settings} removes WebSearch from the tools offered`);
    expect(server.requests.filter((request) => request.endpoint === "count_tokens" && request.body.tools !== undefined)).toEqual([]);
  });
});
