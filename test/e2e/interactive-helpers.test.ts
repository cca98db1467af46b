// Helper agents and MCP servers in a real terminal: running helpers on the live line and one result
// line each when done, a helper's approval prompt naming the helper, Esc stopping the parent and
// its helpers with every transcript left valid, and /mcp showing a connected and a failed server.
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { lastUserText, messagesOf, reply, stall, textOf, toolResults, type RecordedRequest, type ScriptStep, type Step } from "../fake-anthropic/index.ts";
import { waitFor } from "../helpers/scenario.ts";
import { transcriptLines } from "../helpers/transcript.ts";
import { hasTmux, terminalHarness, type TmuxTerminal } from "../helpers/tmux.ts";

const { fake, open, workspace } = terminalHarness();

const FIXTURES = resolve(import.meta.dir, "../mcp-servers/fixtures");
const systemText = (request: RecordedRequest): string => JSON.stringify(request.body.system);
const firstUserText = (request: RecordedRequest): string => textOf(messagesOf(request)[0]?.content);
const isExplore = (request: RecordedRequest): boolean => systemText(request).includes("read-only search helper");
const isGeneralHelper = (request: RecordedRequest): boolean => systemText(request).includes("You are a helper agent");
// Wide enough that two helpers' entries fit the live line uncut.
const WIDE = 180;

async function prompt(terminal: TmuxTerminal, text: string): Promise<void> {
  await terminal.waitFor("/help for help", "the banner");
  terminal.type(text);
  terminal.keys("Enter");
}

function count(text: string, part: string): number {
  return text.split(part).length - 1;
}

/** A promise and the function that settles it: the fake holds a request until the test lets go. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

const TOPICS = ["alpha", "beta"] as const;
type Topic = (typeof TOPICS)[number];

/**
 * The parent launches two Explore helpers in one reply; each reads its topic's file, then its
 * second request is answered by `afterRead`; the parent's later requests get `parentText`.
 */
function twoExploreHelpers(dir: string, afterRead: (topic: Topic) => Step | Promise<Step>, parentText: string): ScriptStep[] {
  for (const topic of TOPICS) writeFileSync(join(dir, `${topic}.txt`), `${topic} BODY\n`);
  const router: ScriptStep = (request) => {
    if (!isExplore(request)) return reply().text(parentText);
    const topic = TOPICS.find((name) => firstUserText(request).includes(`topic ${name}`)) ?? "alpha";
    if (messagesOf(request).length === 1) return reply().toolUse("Read", { file_path: join(dir, `${topic}.txt`) });
    return afterRead(topic);
  };
  return [
    reply()
      .text("Asking two helpers.")
      .toolUse("Agent", { description: "Look at alpha", prompt: "Summarise the topic alpha file.", subagent_type: "Explore" })
      .toolUse("Agent", { description: "Look at beta", prompt: "Summarise the topic beta file.", subagent_type: "Explore" }),
    ...Array.from({ length: 5 }, () => router),
  ];
}

const BOTH_WAITING = (screen: string): boolean =>
  /Explore: Look at alpha · 1 tool · \d+s/.test(screen) && /Explore: Look at beta · 1 tool · \d+s/.test(screen);

/** The parent's transcript and its helpers' under a config dir (one project, one session). */
function sessionTranscripts(configDir: string): { parent: string; helpers: string[] } {
  const projects = join(configDir, "projects");
  const [project] = readdirSync(projects);
  if (project === undefined) throw new Error(`no project folder under ${projects}`);
  const folder = join(projects, project);
  // Session transcripts are named by their UUID (history.jsonl beside them is the prompt history).
  const logs = readdirSync(folder).filter((name) => /^[0-9a-f-]{36}\.jsonl$/.test(name));
  expect({ folder, sessions: logs.length }).toEqual({ folder, sessions: 1 });
  const parent = join(folder, logs[0] as string);
  const subagents = join(folder, (logs[0] as string).replace(/\.jsonl$/, ""), "subagents");
  const helpers = existsSync(subagents) ? readdirSync(subagents).map((name) => join(subagents, name)) : [];
  return { parent, helpers };
}

interface Block {
  type?: unknown;
  id?: unknown;
  tool_use_id?: unknown;
}

/** Every line is JSON, and every tool_use has exactly one tool_result, after it. */
function expectEveryCallAnswered(path: string): { uses: number } {
  const text = readFileSync(path, "utf8");
  expect(text.endsWith("\n")).toBe(true);
  const blocks = (transcriptLines(path) as Array<{ message?: { content?: unknown } }>)
    .flatMap((line) => (Array.isArray(line.message?.content) ? (line.message.content as Block[]) : []));
  const pending = new Set<unknown>();
  const answered = new Set<unknown>();
  for (const block of blocks) {
    if (block.type === "tool_use") pending.add(block.id);
    if (block.type === "tool_result") {
      expect({ path, result: block.tool_use_id, known: pending.has(block.tool_use_id) && !answered.has(block.tool_use_id) }).toEqual({ path, result: block.tool_use_id, known: true });
      answered.add(block.tool_use_id);
    }
  }
  expect({ path, unanswered: [...pending].filter((id) => !answered.has(id)) }).toEqual({ path, unanswered: [] });
  return { uses: pending.size };
}

describe.skipIf(!hasTmux)("helper agents in a terminal", () => {
  test("running helpers are on the live line; when done each leaves one result line and none of its own tool lines", async () => {
    const { dir, configDir } = workspace();
    const held = gate();
    const server = await fake(
      twoExploreHelpers(
        dir,
        async (topic) => {
          await held.opened;
          return reply().text(`SUMMARY-${topic.toUpperCase()}: hello.`);
        },
        "Both helpers reported.",
      ),
    );
    const terminal = open({ cwd: dir, configDir, baseURL: server.url, width: WIDE });
    await prompt(terminal, "summarise both topics");
    // Both helpers have read their file and wait on the model: one live entry each, one tool used.
    const live = await terminal.waitFor(BOTH_WAITING, "both helpers on the live line with one tool each");
    expect(live).toContain("esc to interrupt");
    held.open();
    await terminal.waitFor("Both helpers reported.");
    const done = await terminal.waitFor(/✻ .* out · /, "the turn footer");
    const turn = terminal.after("> summarise both topics");
    const resultLines = turn.split("\n").filter((line) => line.includes("— done ("));
    expect(resultLines.length).toBe(2);
    expect(resultLines.filter((line) => /Explore: Look at alpha — done \(1 tool uses?, [0-9.]+s\)/.test(line)).length).toBe(1);
    expect(resultLines.filter((line) => /Explore: Look at beta — done \(1 tool uses?, [0-9.]+s\)/.test(line)).length).toBe(1);
    // The helpers' own work stays out of the scrollback: no Read lines, none of their text.
    expect(turn).not.toContain("● Read");
    expect(turn).not.toContain("alpha.txt");
    expect(turn).not.toContain("SUMMARY-");
    expect(count(turn, "● Agent")).toBe(2);
    // The live line is gone with the helpers.
    expect(done).not.toMatch(/Explore: Look at \w+ · \d+ tools? · \d+s/);
    expect(server.violations).toEqual([]);
  });

  // The live line reads the helpers' label on every redraw, so their seconds follow the clock
  // while they wait on the model (not only when a helper event arrives).
  test("a running helper's elapsed seconds advance while it waits on the model", async () => {
    const { dir, configDir } = workspace();
    const held = gate();
    const server = await fake(
      twoExploreHelpers(
        dir,
        async () => {
          await held.opened;
          return reply().text("Reported.");
        },
        "Done.",
      ),
    );
    const terminal = open({ cwd: dir, configDir, baseURL: server.url, width: WIDE });
    await prompt(terminal, "summarise both topics");
    await terminal.waitFor(BOTH_WAITING, "both helpers waiting on the model");
    // Content, not timing: the entry must come to show a non-zero elapsed time while held.
    await terminal.waitFor(/Explore: Look at alpha · 1 tool · [1-9]\d*s/, "the helper's elapsed time to advance", 5_000);
    held.open();
    await terminal.waitFor("Done.");
  });

  test("a helper's approval prompt names the helper; Yes runs the command and its result reaches the parent", async () => {
    const { dir, configDir } = workspace();
    const command = "echo from-helper > helper.txt";
    const router: ScriptStep = (request) => {
      if (!isGeneralHelper(request)) {
        const agentResult = toolResults(request)[0]?.text ?? "";
        return reply().text(agentResult.includes("HELPER-WROTE-IT") ? "The helper wrote the file." : "No word from the helper.");
      }
      if (messagesOf(request).length === 1) return reply().toolUse("Bash", { command, description: "Write helper.txt" });
      return reply().text(`HELPER-WROTE-IT: ${toolResults(request)[0]?.isError ? "failed" : "ok"}`);
    };
    const server = await fake([
      reply().text("Delegating.").toolUse("Agent", { description: "Write the file", prompt: "Write helper.txt", subagent_type: "general-purpose" }),
      router, router, router,
    ]);
    const terminal = open({ cwd: dir, configDir, baseURL: server.url, width: WIDE });
    await prompt(terminal, "have a helper write the file");
    const asking = await terminal.waitFor("Run this command?");
    expect(asking).toContain("[general-purpose: Write the file] Run this command?");
    expect(asking).toContain(command);
    terminal.keys("Enter");
    await terminal.waitFor("The helper wrote the file.");
    expect(readFileSync(join(dir, "helper.txt"), "utf8")).toBe("from-helper\n");
    const helperRequests = server.requests.filter(isGeneralHelper);
    expect(helperRequests.length).toBe(2);
    expect(toolResults(helperRequests[1] as RecordedRequest).map((result) => result.isError)).toEqual([false]);
    const parentLast = server.requests.filter((request) => !isGeneralHelper(request)).at(-1) as RecordedRequest;
    const [agentResult] = toolResults(parentLast);
    expect(agentResult?.isError).toBe(false);
    expect(agentResult?.text.split("\n")[0]).toBe("HELPER-WROTE-IT: ok");
    expect(count(terminal.screen(), "Run this command?")).toBe(1);
    expect(server.violations).toEqual([]);
  });

  test("Esc while helpers wait on the model stops the parent and its helpers; every transcript stays valid", async () => {
    const { dir, configDir } = workspace();
    // Silence with the connection open until the client goes away.
    const server = await fake(twoExploreHelpers(dir, (topic) => stall(reply().text(`SUMMARY-${topic}`), 1), "After the stop."));
    // No idle timeout within the test's waits: only Esc can make the client drop the held requests.
    const terminal = open({ cwd: dir, configDir, baseURL: server.url, width: WIDE, env: { CLEW_STREAM_IDLE_TIMEOUT_MS: "120000" } });
    await prompt(terminal, "summarise both topics");
    await terminal.waitFor(BOTH_WAITING, "both helpers waiting on the model");
    await waitFor(() => server.requests.filter((request) => isExplore(request) && messagesOf(request).length === 3).length === 2, "both helpers' second requests");
    terminal.keys("Escape");
    await terminal.waitFor("Interrupted", "the interrupted turn");
    // Both held helper requests were abandoned by the client: the helpers stopped too.
    const held = server.requests.filter((request) => isExplore(request) && messagesOf(request).length === 3);
    await waitFor(() => held.every((request) => request.clientAborted), "both held helper requests to be dropped");
    expect(held.length).toBe(2);
    expect(server.requests.filter(isExplore).length).toBe(4);

    const { parent, helpers } = sessionTranscripts(configDir);
    expect(expectEveryCallAnswered(parent).uses).toBe(2);
    expect(helpers.length).toBe(2);
    for (const path of helpers) {
      expect(path).toMatch(/agent-a[0-9a-f]{16}\.jsonl$/);
      expect(expectEveryCallAnswered(path).uses).toBe(1);
    }

    // The next prompt works, on a history whose every call has its result.
    terminal.type("next");
    terminal.keys("Enter");
    await terminal.waitFor("After the stop.");
    const next = server.requests.at(-1) as RecordedRequest;
    expect(isExplore(next)).toBe(false);
    // No helper carried on after the stop.
    expect(server.requests.filter(isExplore).length).toBe(4);
    // The two Agent calls were answered as interrupted, not as if the helpers had finished.
    expect(toolResults(next).map((result) => ({ isError: result.isError, summary: result.text.includes("SUMMARY-") }))).toEqual([
      { isError: true, summary: false },
      { isError: true, summary: false },
    ]);
    expect(lastUserText(next)).toContain("next");
    expect(expectEveryCallAnswered(parent).uses).toBe(2);
    expect(server.violations).toEqual([]);
  });
});

describe.skipIf(!hasTmux)("/mcp in a terminal", () => {
  /** Runs /mcp until the server has left the pending state (servers connect in the background). */
  async function mcpUntilSettled(terminal: TmuxTerminal, server: string): Promise<string> {
    for (let attempt = 0; ; attempt += 1) {
      const before = count(terminal.screen(), "MCP servers");
      terminal.type("/mcp");
      terminal.keys("Enter");
      await terminal.waitFor((screen) => count(screen, "MCP servers") > before, "the /mcp listing");
      const listing = terminal.after("> /mcp");
      if (!listing.includes(`${server} (cli) — pending`) || attempt >= 50) return listing;
      await Bun.sleep(100);
    }
  }

  test("a connected server shows its tool count; a failed one shows why, with its last stderr line", async () => {
    const { dir, configDir } = workspace();
    const config = {
      mcpServers: {
        fx: { command: "bun", args: [join(FIXTURES, "sdk-server.ts")] },
        broken: { command: "bun", args: [join(FIXTURES, "raw-fault-server.ts"), "exit-at-start"] },
      },
    };
    // No request is made; the fake only stands in for credentials.
    const server = await fake([]);
    const terminal = open({ cwd: dir, configDir, baseURL: server.url, width: WIDE, args: ["--mcp-config", JSON.stringify(config)] });
    await terminal.waitFor("/help for help", "the banner");
    await mcpUntilSettled(terminal, "fx");
    const listing = await mcpUntilSettled(terminal, "broken");
    expect(listing).toMatch(/✔ fx \(cli\) — connected · \d+ tools/);
    const tools = Number(/fx \(cli\) — connected · (\d+) tools/.exec(listing)?.[1]);
    expect(tools).toBeGreaterThan(0);
    expect(listing).toMatch(/✘ broken \(cli\) — failed/);
    // The failed server's last stderr line sits under its own entry, not under the connected one.
    const lines = listing.split("\n");
    const brokenAt = lines.findIndex((line) => line.includes("broken (cli)"));
    const fxAt = lines.findIndex((line) => line.includes("fx (cli)"));
    const stderrAt = lines.findIndex((line) => line.trim() === "fatal: FIXTURE_API_KEY is not set");
    expect(stderrAt).toBeGreaterThan(brokenAt);
    expect(fxAt < brokenAt || fxAt > stderrAt).toBe(true);
  });
});
