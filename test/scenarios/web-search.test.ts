// WebSearch against the compiled binary, through the fake's server-tool blocks: the search runs as
// its own small request offering the API's web_search tool, its titles and URLs reach the model as
// the tool_result, a paused search is continued with its blocks sent back verbatim, every later
// request repeats the earlier history unchanged, and the searches are counted and priced in the json
// result. An endpoint that rejects the server tool gets a tool error naming why, and a bare deny
// rule takes the tool off the offered list.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { canonicalJson, messagesOf, reply, startFakeAnthropic, toolNames, toolResults, type FakeServer, type FakeAnthropicOptions, type Json, type RecordedRequest } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";
import { requestAt } from "../helpers/scenario.ts";
import { withoutCacheControl } from "../helpers/transcript.ts";
import { costUSD } from "../../src/model/models.ts";
import { writeWorkspace } from "./workspaces.ts";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface JsonResult {
  result: string;
  total_cost_usd: number;
  usage: { server_tool_use: { web_search_requests: number; web_fetch_requests: number } };
  modelUsage: Record<string, { webSearchRequests: number; costUSD: number; inputTokens: number; outputTokens: number }>;
}

async function run(settings: Record<string, unknown>, prompt: string, options: FakeAnthropicOptions) {
  server = await startFakeAnthropic(options);
  const dir = writeWorkspace({ "notes.md": "# Notes\n\nBun is a JavaScript runtime.\n" });
  mkdirSync(join(dir, ".clew"));
  writeFileSync(join(dir, ".clew", "settings.local.json"), JSON.stringify(settings));
  const result = await runClew(["-p", prompt, "--output-format", "json"], { cwd: dir, baseURL: server.url, configDir: tempDirectory("clew-config-") });
  return { dir, code: result.code, stderr: result.stderr, json: JSON.parse(result.stdout || "{}") as JsonResult };
}

const HITS_1 = [
  { title: "Bun 1.3 release notes", url: "https://bun.sh/blog/bun-v1.3", pageAge: "October 10, 2025" },
  { title: "Bun on GitHub", url: "https://github.com/oven-sh/bun" },
];
const HITS_2 = [
  { title: "Bun 1.3 release notes", url: "https://bun.sh/blog/bun-v1.3" },
  { title: "Bun changelog", url: "https://bun.sh/docs/changelog" },
];

/** Messages as the API reads them: cache breakpoints are where a request caches, not what it says. */
const history = (request: RecordedRequest): string[] => (withoutCacheControl(request.body.messages) as Json[]).map((message) => canonicalJson(message));

const mainRequests = (fake: FakeServer) => fake.requests.filter((request) => toolNames(request).includes("WebSearch"));

describe("scenario: WebSearch through the API's server-side search", () => {
  test("results reach the model as the tool_result; a paused search continues verbatim; history stays byte-stable", async () => {
    const query = "bun latest release";
    const paused = reply().text("Searching.").webSearch("bun release", HITS_1).stop("pause_turn");
    const finished = reply()
      .webSearch("bun changelog", HITS_2)
      .citedText("Bun 1.3 is the latest release.", [{ url: "https://bun.sh/blog/bun-v1.3", title: "Bun 1.3 release notes", citedText: "Bun 1.3 is here" }]);
    const outcome = await run({ permissions: { allow: ["WebSearch"] } }, "what is the latest bun release?", {
      script: [
        reply().toolUse("WebSearch", { query }),
        paused,
        finished,
        reply().text("Let me check the notes.").toolUse("Read", { file_path: "notes.md" }),
        reply().text("Bun 1.3 is the latest release."),
      ],
    });
    const fake = server as FakeServer;
    expect(fake.violations).toEqual([]);
    expect(outcome.code).toBe(0);
    expect(outcome.json.result).toBe("Bun 1.3 is the latest release.");

    // The search: its own request with only the server tool.
    const side = requestAt(fake, 1);
    expect(side.body.tools).toEqual([{ type: "web_search_20250305", name: "web_search", max_uses: 8 }]);
    expect(messagesOf(side)).toEqual([{ role: "user", content: [{ type: "text", text: `Search the web for: ${query}` }] }]);
    // The paused reply goes back exactly as the API sent it, server blocks and all.
    const resumed = requestAt(fake, 2);
    expect(resumed.body.tools).toEqual(side.body.tools as Json);
    expect(resumed.body.messages).toEqual([side.body.messages, { role: "assistant", content: paused.blocks }].flat() as Json);

    const result = toolResults(requestAt(fake, 3))[0];
    expect(result?.isError).toBe(false);
    for (const hit of [...HITS_1, ...HITS_2]) expect(result?.text).toContain(hit.url);
    expect(result?.text).toContain("Bun 1.3 release notes");
    expect(result?.text).toContain("Bun 1.3 is the latest release.");
    // Each URL once, though both searches found the release notes.
    expect(result?.text.split("https://bun.sh/blog/bun-v1.3").length).toBe(2);

    // Every later main request repeats the earlier ones' messages unchanged.
    const main = mainRequests(fake);
    expect(main.length).toBe(3);
    for (let later = 1; later < main.length; later++) {
      const before = history(main[later - 1] as RecordedRequest);
      expect(history(main[later] as RecordedRequest).slice(0, before.length)).toEqual(before);
    }
  });

  test("searches are counted and priced in the json result (usage.server_tool_use, modelUsage, total_cost_usd)", async () => {
    const outcome = await run({ permissions: { allow: ["WebSearch"] } }, "what is the latest bun release?", {
      script: [reply().toolUse("WebSearch", { query: "bun latest release" }), reply().webSearch("bun release", HITS_1).webSearch("bun changelog", HITS_2).text("Bun 1.3."), reply().text("Bun 1.3 it is.")],
    });
    expect(outcome.json.result).toBe("Bun 1.3 it is.");
    const haiku = outcome.json.modelUsage["claude-haiku-5-5"];
    expect(haiku?.webSearchRequests).toBe(2);
    const haikuTokens = { inputTokens: haiku?.inputTokens ?? 0, outputTokens: haiku?.outputTokens ?? 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 };
    // $10 per 1,000 searches, on top of the tokens.
    expect(haiku?.costUSD).toBeCloseTo(costUSD("claude-haiku-5-5", haikuTokens) + 0.02, 10);
    expect(outcome.json.total_cost_usd).toBeCloseTo(Object.values(outcome.json.modelUsage).reduce((sum, entry) => sum + entry.costUSD, 0), 10);
    expect(outcome.json.usage.server_tool_use).toEqual({ web_search_requests: 2, web_fetch_requests: 0 });
  });

  test("an endpoint that rejects the server tool: a tool error naming why and what to do, and the run goes on", async () => {
    const outcome = await run({ permissions: { allow: ["WebSearch"] } }, "search for bun", {
      rejectServerTools: true,
      script: [reply().toolUse("WebSearch", { query: "bun runtime" }), reply().text("Search is not available here.")],
    });
    const fake = server as FakeServer;
    expect(fake.violations).toEqual([]);
    expect(outcome.json.result).toBe("Search is not available here.");
    // The refused side request used no script step; the main model got the error.
    const result = toolResults(requestAt(fake, 2))[0];
    expect(result?.isError).toBe(true);
    expect(result?.text).toContain("Web search is not available from this model endpoint: it refused the request (HTTP 400)");
    expect(result?.text).toContain("tools.0: Input tag 'web_search_20250305' found using 'type' does not match any of the expected tags: 'bash_20250124', 'custom', 'text_editor_20250124', 'text_editor_20250429', 'text_editor_20250728'");
    expect(result?.text).toContain('To stop offering it, add "WebSearch" to permissions.deny (`clew doctor` checks the endpoint).');
  });

  test('permissions.deny ["WebSearch"] takes the tool off the offered list; WebFetch stays', async () => {
    const outcome = await run({ permissions: { deny: ["WebSearch"] } }, "hello", { script: [reply().text("Hi.")] });
    const fake = server as FakeServer;
    expect(outcome.json.result).toBe("Hi.");
    const offered = toolNames(requestAt(fake, 0));
    expect(offered).not.toContain("WebSearch");
    expect(offered).toContain("WebFetch");
  });
});
