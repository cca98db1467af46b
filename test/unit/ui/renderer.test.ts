// Event sequences rendered to plain text (theme off, no TTY): what ends up in the scrollback.
import { describe, expect, test } from "bun:test";
import type { AgentEvent } from "../../../src/loop/events.ts";
import { assistant, outcome, render, turnStart, usage } from "./fixture.ts";

const delta = (text: string): AgentEvent => ({ type: "text_delta", text });
const end = (partial: Parameters<typeof outcome>[0] = {}): AgentEvent => ({ type: "turn_end", outcome: outcome(partial) });

describe("renderer", () => {
  test("streamed text is committed line by line, however the deltas split it, then a footer", () => {
    const events = [turnStart, { type: "request_start", turn: 1 } as AgentEvent, delta("Hel"), delta("lo the"), delta("re.\n\nSec"), delta("ond para"), delta("graph.\n\n\n"), assistant("…"), end({ usage: usage({ inputTokens: 1200, outputTokens: 34 }) })];
    expect(render(events)).toBe(["", "Hello there.", "", "Second paragraph.", "", "✻ 1.2k in · 34 out · $1.23 · 12.0s", ""].join("\n"));
  });

  test("a partial line is held until its newline or the end of the message", () => {
    expect(render([turnStart, delta("no newline yet")])).toBe("");
    expect(render([turnStart, delta("no newline yet"), assistant("no newline yet")])).toBe("\nno newline yet\n");
  });

  test("tool calls: one line each, a result line, a diff for edits, output lines for Bash", () => {
    const events: AgentEvent[] = [
      turnStart,
      delta("Looking.\n"),
      assistant("Looking."),
      { type: "tool_start", id: "t1", name: "Read", input: { file_path: "/repo/src/x.ts" } },
      { type: "tool_end", id: "t1", name: "Read", isError: false, content: "…", display: { summary: "Read 120 lines" } },
      { type: "tool_start", id: "t2", name: "Edit", input: { file_path: "/repo/src/x.ts", old_string: "a", new_string: "b" } },
      {
        type: "tool_end",
        id: "t2",
        name: "Edit",
        isError: false,
        content: "ok",
        display: { summary: "Edited /repo/src/x.ts (+1 -1)", diff: "--- a/repo/src/x.ts\n+++ b/repo/src/x.ts\n@@ -1,2 +1,2 @@\n-a\n+b\n c" },
      },
      { type: "tool_start", id: "t3", name: "Bash", input: { command: "npm test", description: "Run tests" } },
      { type: "tool_end", id: "t3", name: "Bash", isError: true, content: "1 failing\nExpected 2\nExit code 1", display: { summary: "exit 1" } },
      { type: "tool_start", id: "t4", name: "Read", input: { file_path: "/elsewhere/y.ts" } },
      { type: "tool_end", id: "t4", name: "Read", isError: true, content: "File does not exist. Check the path." },
      end(),
    ];
    expect(render(events)).toBe(
      [
        "",
        "Looking.",
        "",
        "● Read src/x.ts",
        "  ⎿ Read 120 lines",
        "● Edit src/x.ts",
        "  ⎿ Edited src/x.ts (+1 -1)",
        "    @@ -1,2 +1,2 @@",
        "    -a",
        "    +b",
        "     c",
        "● Bash npm test",
        "  ⎿ exit 1",
        "    1 failing",
        "    Expected 2",
        "● Read /elsewhere/y.ts",
        "  ⎿ Error: File does not exist.",
        "",
        "✻ 0 in · 0 out · $0.00 · 16.5s",
        "",
      ].join("\n"),
    );
  });

  test("concurrent calls: a result that does not follow its own call line names the call", () => {
    const events: AgentEvent[] = [
      { type: "tool_start", id: "a", name: "Read", input: { file_path: "/repo/a.ts" } },
      { type: "tool_start", id: "b", name: "Grep", input: { pattern: "TODO", path: "/repo/src" } },
      { type: "tool_end", id: "b", name: "Grep", isError: false, content: "", display: { summary: "Found 3 files" } },
      { type: "tool_end", id: "a", name: "Read", isError: false, content: "", display: { summary: "Read 9 lines" } },
    ];
    expect(render(events)).toBe(["", "● Read a.ts", "● Grep \"TODO\" in src", "  ⎿ Found 3 files", "  ⎿ Read a.ts · Read 9 lines", ""].join("\n"));
  });

  test("a denial is shown once (its first sentence), not again as the call's error result", () => {
    const reason = "Permission to use Bash command `rm -rf x` was denied by the deny rule Bash(rm *) in /repo/.clew/settings.json. Do not retry this.";
    const events: AgentEvent[] = [
      { type: "tool_start", id: "d", name: "Bash", input: { command: "rm -rf x" } },
      { type: "permission_denied", id: "d", name: "Bash", input: { command: "rm -rf x" }, reason },
      { type: "tool_end", id: "d", name: "Bash", isError: true, content: reason },
    ];
    expect(render(events)).toBe(
      ["", "● Bash rm -rf x", "  ⎿ Permission to use Bash command `rm -rf x` was denied by the deny rule Bash(rm *) in /repo/.clew/settings.json.", ""].join("\n"),
    );
  });

  test("an approval prompt between call and result: the result names the call, the diff is not repeated", () => {
    const events: AgentEvent[] = [
      { type: "tool_start", id: "w", name: "Write", input: { file_path: "/repo/n.txt", content: "x\n" } },
      { type: "tool_end", id: "w", name: "Write", isError: false, content: "ok", display: { summary: "Updated /repo/n.txt (+1 -1)", diff: "@@ -1 +1 @@\n-y\n+x" } },
    ];
    const both = render(events.slice(0, 1), {
      after: (renderer) => {
        renderer.afterPrompt("w", true);
        renderer.handle(events[1] as AgentEvent);
      },
    });
    expect(both).toBe("\n● Write n.txt\n  ⎿ Write n.txt · Updated n.txt (+1 -1)\n");
  });

  test("thinking is collapsed to how long it took, or shown whole when verbose", () => {
    // The fixture's clock moves 1.5 s per event: thinking from the first delta to the text is 3 s.
    const events: AgentEvent[] = [{ type: "thinking_delta", text: "First thought.\nSecond " }, { type: "thinking_delta", text: "thought." }, delta("Answer.\n"), assistant("Answer.")];
    expect(render(events)).toBe("\n✻ Thought for 3s\n\nAnswer.\n");
    expect(render(events, { verbose: true })).toBe("\n✻ Thought for 3s\n  First thought.\n  Second thought.\n\nAnswer.\n");
  });

  test("a thinking block is timed from its start to its stop; omitted and redacted thinking get a line too", () => {
    const raw = (event: Extract<AgentEvent, { type: "raw_stream" }>["event"]): AgentEvent => ({ type: "raw_stream", event });
    const events: AgentEvent[] = [
      raw({ type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "", signature: "" } }),
      { type: "thinking_delta", text: "Check the tests." },
      raw({ type: "content_block_stop", index: 0 }),
      // display "omitted": the block arrives with no text, only a signature.
      raw({ type: "content_block_start", index: 1, content_block: { type: "thinking", thinking: "", signature: "" } }),
      raw({ type: "content_block_stop", index: 1 }),
      raw({ type: "content_block_start", index: 2, content_block: { type: "redacted_thinking", data: "opaque" } }),
      raw({ type: "content_block_stop", index: 2 }),
      delta("Done.\n"),
      assistant("Done."),
    ];
    expect(render(events)).toBe("\n✻ Thought for 3s\n✻ Thought for 2s\n✻ Thought for 2s (redacted by the API)\n\nDone.\n");
    expect(render(events, { verbose: true })).toBe(
      "\n✻ Thought for 3s\n  Check the tests.\n\n✻ Thought for 2s (no thinking text returned)\n\n✻ Thought for 2s (redacted by the API)\n\nDone.\n",
    );
  });

  test("retries, notices, compaction and turn problems", () => {
    const events: AgentEvent[] = [
      turnStart,
      { type: "api_retry", attempt: 1, maxRetries: 10, delayMs: 2000, status: 529, category: "overloaded", message: "Overloaded" },
      { type: "notice", level: "warning", message: "The model declined." },
      { type: "notice", level: "info", message: "Asking the model to continue." },
      { type: "compact_boundary", trigger: "auto", preTokens: 150_000, messages: [] },
      end({ reason: "api_error", error: { message: "Internal server error", status: 500, category: "server_error" } }),
    ];
    expect(render(events)).toBe(
      [
        "",
        "  API error (529) · retrying in 2.0s · attempt 1/10",
        "",
        "⚠ The model declined.",
        "",
        "Asking the model to continue.",
        "",
        "✻ Conversation compacted (auto; 150k tokens before)",
        "",
        "API error 500: Internal server error",
        "",
        "✻ 0 in · 0 out · $0.00 · 7.5s",
        "",
      ].join("\n"),
    );
  });

  test("an interrupted turn says so; text streamed before the interrupt is kept", () => {
    const events: AgentEvent[] = [turnStart, delta("Half a sen"), end({ reason: "aborted_streaming" })];
    expect(render(events)).toBe(["", "Half a sen", "", "Interrupted · tell clew what to do instead", "", "✻ 0 in · 0 out · $0.00 · 3.0s", ""].join("\n"));
  });
});
