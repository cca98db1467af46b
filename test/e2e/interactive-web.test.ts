// The web tools in a real terminal: "Yes, and don't ask again" on a WebFetch approval saves the
// host rule WebFetch(domain:host) to .clew/settings.local.json, so the next page on that host is
// fetched without a question; a WebSearch's results are listed under the call; and /cost after a
// WebSearch includes the searches' price.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, type FakeServer, type Reply } from "../fake-anthropic/index.ts";
import { costUSD } from "../../src/model/models.ts";
import { formatCost } from "../../src/ui/format.ts";
import { hasTmux, terminalHarness, type TmuxTerminal } from "../helpers/tmux.ts";
import { startWebServer, type WebServer } from "../helpers/web-server.ts";

const { fake, open, workspace } = terminalHarness();

let site: WebServer;
beforeAll(async () => {
  site = await startWebServer("127.0.0.1");
});
afterAll(async () => {
  await site.close();
});

async function prompt(terminal: TmuxTerminal, text: string): Promise<void> {
  await terminal.waitFor("/help for help", "the banner");
  terminal.type(text);
  terminal.keys("Enter");
}

const count = (text: string, part: string): number => text.split(part).length - 1;

/** What the fake billed: each request's simulated input side and its reply's output, at its model's price, searches included. */
function billed(server: FakeServer, script: readonly Reply[]): number {
  return server.requests.reduce((sum, request) => {
    const step = request.step === null ? undefined : script[request.step];
    if (!request.cache || !step) return sum;
    const usage = { inputTokens: request.cache.inputTokens, cacheReadInputTokens: request.cache.cacheReadInputTokens, cacheCreationInputTokens: request.cache.cacheCreationInputTokens, outputTokens: step.outputTokens };
    return sum + costUSD(String(request.body.model), usage) + step.webSearchRequests * 0.01;
  }, 0);
}

describe.skipIf(!hasTmux)("web tools in the terminal", () => {
  test("Yes, and don't ask again on a WebFetch saves WebFetch(domain:host); the next page on that host is not asked about", async () => {
    const first = `${site.url}/docs/library/json.html`;
    const second = `${site.url}/notes.md`;
    const server = await fake([
      reply().text("Fetching.").toolUse("WebFetch", { url: first, prompt: "How do I pretty-print?" }),
      reply().text("Use indent=4."),
      reply().text("And the notes.").toolUse("WebFetch", { url: second, prompt: "Which flag was added?" }),
      reply().text("--fast."),
      reply().text("Both pages read."),
    ]);
    const { dir, configDir } = workspace();
    const terminal = open({ cwd: dir, configDir, baseURL: server.url });
    await prompt(terminal, "read the json docs and the notes");
    const asking = await terminal.waitFor(`Allow WebFetch on ${first}?`);
    expect(asking).toContain(`Yes, and don't ask again for WebFetch(domain:127.0.0.1) in ${dir}`);
    // Nothing is fetched while the question is open.
    expect(site.log).toEqual([]);
    terminal.keys("Down", "Enter");
    await terminal.waitFor("Both pages read.");
    const screen = terminal.screen();
    expect(screen).toContain("Saved WebFetch(domain:127.0.0.1) to .clew/settings.local.json");
    expect(count(screen, "Allow WebFetch on")).toBe(1);
    const saved = JSON.parse(readFileSync(join(dir, ".clew", "settings.local.json"), "utf8")) as { permissions: { allow: string[] } };
    expect(saved.permissions.allow).toEqual(["WebFetch(domain:127.0.0.1)"]);
    expect(site.log.map((entry) => entry.path)).toEqual(["/docs/library/json.html", "/notes.md"]);
    expect(server.violations).toEqual([]);
  });

  test("a WebSearch's results are listed under the call: each title and URL once", async () => {
    const server = await fake([
      reply().text("Searching.").toolUse("WebSearch", { query: "bun latest release" }),
      reply()
        .webSearch("bun release", [{ title: "Bun 1.3 release notes", url: "https://bun.sh/blog/bun-v1.3" }, { title: "Bun on GitHub", url: "https://github.com/oven-sh/bun" }])
        .webSearch("bun changelog", [{ title: "Bun 1.3 release notes", url: "https://bun.sh/blog/bun-v1.3" }])
        .text("Bun 1.3."),
      reply().text("Bun 1.3 is the latest."),
    ]);
    const { dir, configDir } = workspace();
    mkdirSync(join(dir, ".clew"));
    writeFileSync(join(dir, ".clew", "settings.local.json"), JSON.stringify({ permissions: { allow: ["WebSearch"] } }));
    const terminal = open({ cwd: dir, configDir, baseURL: server.url });
    await prompt(terminal, "what is the latest bun?");
    await terminal.waitFor("Bun 1.3 is the latest.");
    const screen = terminal.screen();
    expect(screen).toMatch(/⎿ Did 2 searches in [\d.]+s: 2 results\n {4}Bun 1\.3 release notes — https:\/\/bun\.sh\/blog\/bun-v1\.3\n {4}Bun on GitHub — https:\/\/github\.com\/oven-sh\/bun\n/);
    expect(count(screen, "https://bun.sh/blog/bun-v1.3")).toBe(1);
  });

  test("/cost after a WebSearch includes the searches at $10 per 1,000", async () => {
    const script = [
      reply().text("Searching.").toolUse("WebSearch", { query: "bun latest release" }),
      reply().webSearch("bun release", [{ title: "Bun 1.3", url: "https://bun.sh/blog/bun-v1.3" }]).webSearch("bun changelog", [{ title: "Changelog", url: "https://bun.sh/docs/changelog" }]).text("Bun 1.3."),
      reply().text("Bun 1.3 is the latest."),
    ];
    const server = await fake(script);
    const { dir, configDir } = workspace();
    mkdirSync(join(dir, ".clew"));
    writeFileSync(join(dir, ".clew", "settings.local.json"), JSON.stringify({ permissions: { allow: ["WebSearch"] } }));
    const terminal = open({ cwd: dir, configDir, baseURL: server.url });
    await prompt(terminal, "what is the latest bun?");
    await terminal.waitFor("Bun 1.3 is the latest.");
    // The turn's footer: the prompt takes input again.
    await terminal.waitFor(/✻ \S+ in · /, "the turn's footer");
    terminal.type("/cost");
    terminal.keys("Enter");
    await terminal.waitFor("Session cost:");
    const total = billed(server, script);
    const shown = terminal.after("> /cost");
    expect(shown).toContain(`Session cost: ${formatCost(total)}`);
    // The search's own request, to the small model, is listed apart.
    expect(shown).toMatch(/Helpers and tools claude-haiku-5-5: [\d,]+ in, [\d,]+ out/);
    // The two searches' two cents show in the figure: without them it would read differently.
    expect(formatCost(total)).not.toBe(formatCost(total - 0.02));
    expect(server.violations).toEqual([]);
  });
});
