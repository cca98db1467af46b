// Effort and thinking in a real terminal: /effort shows and sets the level, the next request
// carries it, /status explains each switch and the transcript records it; thinking shows as one
// "Thought for Ns" line, or in full with --verbose.
import { describe, expect, test } from "bun:test";
import { reply, type JsonObject } from "../fake-anthropic/index.ts";
import { transcripts } from "../helpers/clew-process.ts";
import { hasTmux, terminalHarness, type TmuxTerminal } from "../helpers/tmux.ts";
import { transcriptLines } from "../helpers/transcript.ts";

const { fake, open, workspace } = terminalHarness();

async function run(terminal: TmuxTerminal, line: string, until: string): Promise<string> {
  terminal.type(line);
  terminal.keys("Enter");
  await terminal.waitFor((screen) => screen.lastIndexOf(until) > screen.lastIndexOf(`> ${line}`), `the output of ${line}`);
  return terminal.after(`> ${line}`);
}

const THOUGHT = "Weigh the greeting.\nThen answer briefly.";

describe.skipIf(!hasTmux)("effort and thinking", () => {
  test("/effort shows and sets the level; the next request carries it; /model and /effort switches are explained in /status and recorded", async () => {
    const server = await fake([reply().thinking(THOUGHT).text("First answer."), reply().text("Second answer."), reply().text("Third answer.")]);
    const { dir, configDir } = workspace();
    const terminal = open({ cwd: dir, configDir, baseURL: server.url });
    await terminal.waitFor("/help for help");

    expect(await run(terminal, "/effort", "/effort auto")).toContain("Effort: medium (the model's default)");
    const first = await run(terminal, "first question", "First answer.");
    // Collapsed: one line with the time it took, none of the thinking text.
    expect(first).toMatch(/✻ Thought for \d+s\n/);
    expect(first).not.toContain("Weigh the greeting");
    expect(server.requests[0]?.body.output_config).toEqual({ effort: "medium" });

    expect(await run(terminal, "/effort extreme", "Unknown effort level")).toContain("Use one of low, medium, high, xhigh, max, or auto");
    expect(await run(terminal, "/effort low", "for this session")).toContain("Effort set to low for this session");
    await run(terminal, "second question", "Second answer.");
    expect(server.requests[1]?.body.output_config).toEqual({ effort: "low" });
    // The same model: its thinking block goes back with its signature.
    const kept = (server.requests[1]?.body.messages as JsonObject[])[1]?.content as JsonObject[];
    expect(kept[0]).toEqual({ type: "thinking", thinking: THOUGHT, signature: expect.any(String) });

    await run(terminal, "/model claude-opus-4-6", "Model set to claude-opus-4-6");
    await run(terminal, "third question", "Third answer.");
    const third = server.requests[2]?.body as JsonObject;
    expect({ model: third.model, thinking: third.thinking, output_config: third.output_config }).toEqual({ model: "claude-opus-4-6", thinking: { type: "adaptive" }, output_config: { effort: "low" } });
    // Another model: the old model's thinking is not sent to it.
    expect(JSON.stringify(third.messages)).not.toContain('"type":"thinking"');

    const status = await run(terminal, "/status", "rebuilds the cache");
    expect(status).toMatch(/Model:\s+claude-opus-4-6\n/);
    expect(status).toMatch(/Effort:\s+low \(from \/effort\)\n/);
    expect(status).toMatch(/Thinking:\s+adaptive/);
    expect(status).toMatch(/\d\d:\d\d:\d\d {2}effort medium → low \(\/effort low\)\n/);
    expect(status).toMatch(/\d\d:\d\d:\d\d {2}model claude-opus-5-5 → claude-opus-4-6 \(\/model claude-opus-4-6\)\n/);
    expect(server.violations).toEqual([]);

    const [path] = transcripts(configDir);
    const switches = transcriptLines(path ?? "").filter((line) => (line as { subtype?: string }).subtype === "model_settings_change");
    expect(switches).toEqual([
      expect.objectContaining({
        type: "system",
        previous: { model: "claude-opus-5-5", effort: "medium", thinking: { type: "adaptive" } },
        model: "claude-opus-5-5",
        effort: "low",
        thinking: { type: "adaptive" },
        content: "Switched effort medium → low (/effort low); the next request rebuilds the prompt cache for the conversation.",
      }),
      expect.objectContaining({
        type: "system",
        previous: { model: "claude-opus-5-5", effort: "low", thinking: { type: "adaptive" } },
        model: "claude-opus-4-6",
        effort: "low",
      }),
    ]);
  });

  test("--verbose shows the thinking in full under its line", async () => {
    const server = await fake([reply().thinking(THOUGHT).text("Answer.")]);
    const { dir, configDir } = workspace();
    const terminal = open({ cwd: dir, configDir, baseURL: server.url, args: ["--verbose"] });
    await terminal.waitFor("/help for help");
    const shown = await run(terminal, "hello", "Answer.");
    expect(shown).toMatch(/✻ Thought for \d+s\n {2}Weigh the greeting\.\n {2}Then answer briefly\.\n/);
  });
});
