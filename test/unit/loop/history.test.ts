// History normalisation runs before every request over the whole conversation: it must give the
// API a valid message list, reuse messages that are already valid (no per-step copy of the
// history), and never edit the messages it was given.
import { describe, expect, test } from "bun:test";
import { answerDanglingToolUses, INTERRUPTED_RESULT, normalizeMessages } from "../../../src/loop/history.ts";
import type { MessageParam } from "../../../src/model/types.ts";

const toolUse = (id: string) => ({ type: "tool_use" as const, id, name: "Read", input: { file_path: "/a" } });
const result = (id: string) => ({ type: "tool_result" as const, tool_use_id: id, content: "ok" });
const text = (value: string) => ({ type: "text" as const, text: value });

describe("normalizeMessages", () => {
  test("a history already in shape comes back as the same message objects", () => {
    const history: MessageParam[] = [
      { role: "user", content: [text("fix it")] },
      { role: "assistant", content: [text("reading"), toolUse("t1")] },
      { role: "user", content: [result("t1"), text("<system-reminder>date</system-reminder>")] },
    ];
    const out = normalizeMessages(history);
    expect(out).toEqual(history);
    out.forEach((message, i) => expect(message).toBe(history[i] as MessageParam));
  });

  test("same-role neighbours merge with tool results first; empty text and empty messages go; strings become blocks", () => {
    const history: MessageParam[] = [
      { role: "user", content: "fix it" },
      { role: "assistant", content: [toolUse("t1"), text("")] },
      { role: "user", content: [text("a note")] },
      { role: "user", content: [result("t1")] },
      { role: "assistant", content: "" },
    ];
    const before = structuredClone(history);
    expect(normalizeMessages(history)).toEqual([
      { role: "user", content: [text("fix it")] },
      { role: "assistant", content: [toolUse("t1")] },
      { role: "user", content: [result("t1"), text("a note")] },
    ]);
    expect(history).toEqual(before);
  });

  test("a user message with a result after text is reordered in a copy", () => {
    const message: MessageParam = { role: "user", content: [text("note"), result("t1")] };
    const [out] = normalizeMessages([message]);
    expect(out).toEqual({ role: "user", content: [result("t1"), text("note")] });
    expect(out).not.toBe(message);
    expect(message.content).toEqual([text("note"), result("t1")]);
  });
});

describe("answerDanglingToolUses", () => {
  test("an unanswered call gets an interrupted result, without editing the given messages", () => {
    const history: MessageParam[] = [
      { role: "user", content: [text("go")] },
      { role: "assistant", content: [toolUse("t1"), toolUse("t2")] },
      { role: "user", content: [result("t1"), text("next prompt")] },
    ];
    const before = structuredClone(history);
    expect(answerDanglingToolUses(history)).toEqual([
      { role: "user", content: [text("go")] },
      { role: "assistant", content: [toolUse("t1"), toolUse("t2")] },
      {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "t2", content: INTERRUPTED_RESULT, is_error: true }, result("t1"), text("next prompt")],
      },
    ]);
    expect(history).toEqual(before);
  });
});
