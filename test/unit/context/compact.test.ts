import { describe, expect, test } from "bun:test";
import {
  compactedHistory,
  estimateTokens,
  recentTail,
  summaryRequest,
  SUMMARY_OPENING,
  trimOldToolResults,
  userPrompts,
} from "../../../src/context/compact.ts";
import type { MessageParam } from "../../../src/model/types.ts";
import { systemNote } from "../../../src/util/system-note.ts";

const user = (text: string): MessageParam => ({ role: "user", content: [{ type: "text", text }] });
const call = (id: string): MessageParam => ({ role: "assistant", content: [{ type: "tool_use", id, name: "Read", input: {} }] });
const result = (id: string, text: string): MessageParam => ({ role: "user", content: [{ type: "tool_result", tool_use_id: id, content: text }] });

describe("compaction pieces", () => {
  test("user prompts exclude reminders and tool results, and survive an earlier summary", () => {
    const first = [user("fix the bug; never touch legacy/"), call("a"), result("a", "file"), user(`${systemNote("date")}`)];
    expect(userPrompts(first)).toEqual(["fix the bug; never touch legacy/"]);
    const compacted = compactedHistory({ summary: "S", prompts: userPrompts(first), workingSet: [], transcriptPath: undefined, tail: [] });
    expect(userPrompts([...compacted, user("and add a test")])).toEqual(["fix the bug; never touch legacy/", "and add a test"]);
    const text = (compacted[0]?.content as Array<{ text: string }>)[0]?.text ?? "";
    expect(text.startsWith(SUMMARY_OPENING)).toBe(true);
    expect(text).toContain("<user-message>\nfix the bug; never touch legacy/\n</user-message>");
  });

  test("the kept tail starts at an assistant message so every tool_use keeps its result", () => {
    const history = [user("go"), call("a"), result("a", "1"), call("b"), result("b", "2"), call("c"), result("c", "3")];
    const tail = recentTail(history, 3, 10_000);
    expect(tail.map((message) => message.role)).toEqual(["assistant", "user"]);
    expect(tail[0]).toEqual(call("c"));
  });

  test("the summary request is the history plus one instruction message", () => {
    const history = [user("go"), call("a"), result("a", "1")];
    const request = summaryRequest(history, "focus on the API");
    expect(request.slice(0, 3)).toEqual(history);
    expect(JSON.stringify(request[3])).toContain("focus on the API");
  });

  test("trimming shortens only old tool results, keeping pairs and recent messages intact", () => {
    const big = "x".repeat(50_000);
    const history = [user("go"), call("a"), result("a", big), call("b"), result("b", big), call("c"), result("c", big)];
    const { messages, savedTokens } = trimOldToolResults(history, 2, 1_000);
    expect(savedTokens).toBeGreaterThan(20_000);
    expect(messages.length).toBe(history.length);
    expect(messages.slice(-2)).toEqual(history.slice(-2));
    const trimmed = (messages[2]?.content as Array<{ content: string; tool_use_id: string }>)[0];
    expect(trimmed?.tool_use_id).toBe("a");
    expect(trimmed?.content.length).toBeLessThan(1_200);
    expect(trimmed?.content).toContain("characters truncated");
    expect(trimOldToolResults(messages, 2, 1_000).savedTokens).toBe(0);
  });
});

describe("estimateTokens", () => {
  const base64 = (bytes: number) => Buffer.alloc(bytes, 7).toString("base64");
  test("an image counts as the API's bound for one image, not as its base64 text", () => {
    const withImage: MessageParam[] = [
      { role: "user", content: [{ type: "text", text: "what is in this screenshot?" }, { type: "image", source: { type: "base64", media_type: "image/png", data: base64(3_000_000) } }] },
    ];
    const textOnly: MessageParam[] = [{ role: "user", content: [{ type: "text", text: "what is in this screenshot?" }] }];
    expect(estimateTokens(withImage) - estimateTokens(textOnly)).toBeGreaterThan(1_600);
    expect(estimateTokens(withImage) - estimateTokens(textOnly)).toBeLessThan(1_650);
  });

  test("a PDF document counts by its size, a few thousand tokens per 100 KB, inside a tool result too", () => {
    const pdf = base64(300_000);
    const messages: MessageParam[] = [
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: [{ type: "document", source: { type: "base64", media_type: "application/pdf", data: pdf } }] }] },
    ];
    expect(estimateTokens(messages)).toBeGreaterThan(Math.ceil(pdf.length / 100_000) * 3_000);
    expect(estimateTokens(messages)).toBeLessThan(Math.ceil(pdf.length / 100_000) * 3_000 + 100);
    // The messages themselves are left as they were.
    expect((messages[0]?.content as Array<{ content: Array<{ source: { data: string } }> }>)[0]?.content[0]?.source.data).toBe(pdf);
  });
});
