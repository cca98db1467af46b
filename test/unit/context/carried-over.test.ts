// What compaction carries over from old messages: the skills the model loaded (latest load of
// each, newest five, a character budget; failed loads not) and the latest todo list; and skills
// an earlier compaction carried, so they outlive any number of compactions.
import { describe, expect, test } from "bun:test";
import { carriedOver } from "../../../src/context/carried-over.ts";
import { compactedHistory } from "../../../src/context/compact.ts";
import type { MessageParam } from "../../../src/model/types.ts";

const skillCall = (id: string, skill: string): MessageParam => ({ role: "assistant", content: [{ type: "tool_use", id, name: "Skill", input: { skill } }] });
const skillResult = (id: string, text: string, isError = false): MessageParam => ({ role: "user", content: [{ type: "tool_result", tool_use_id: id, content: text, ...(isError ? { is_error: true } : {}) }] });
const todos = (id: string, items: Array<[string, string]>): MessageParam => ({ role: "assistant", content: [{ type: "tool_use", id, name: "TodoWrite", input: { todos: items.map(([content, status]) => ({ content, status, activeForm: content })) } }] });

describe("carriedOver", () => {
  test("each skill once, at its latest load; a failed load is not carried; the last todo list", () => {
    const history: MessageParam[] = [
      skillCall("t1", "deploy"), skillResult("t1", "DEPLOY v1"),
      skillCall("t2", "lint"), skillResult("t2", "no such skill", true),
      todos("t3", [["old item", "pending"]]), skillResult("t3", "ok"),
      skillCall("t4", "deploy"), skillResult("t4", "DEPLOY v2"),
      todos("t5", [["write tests", "in_progress"], ["ship", "pending"]]), skillResult("t5", "ok"),
    ];
    expect(carriedOver(history)).toEqual([
      'Skills loaded earlier in this conversation; their instructions still apply:\n<loaded-skill name="deploy">\nDEPLOY v2\n</loaded-skill>',
      "The todo list as it stood (TodoWrite):\n- [in_progress] write tests\n- [pending] ship",
    ]);
  });

  test("skills carried by an earlier summary are carried again; a newer load of one replaces it", () => {
    const first = compactedHistory({ summary: "S1", carried: carriedOver([skillCall("a", "deploy"), skillResult("a", "DEPLOY"), skillCall("b", "review"), skillResult("b", "REVIEW v1")]), prompts: ["task"], workingSet: [], transcriptPath: undefined, tail: [] });
    const later = [...first, skillCall("c", "review"), skillResult("c", "REVIEW v2")];
    const carried = carriedOver(later).join("\n");
    expect(carried).toContain('<loaded-skill name="deploy">\nDEPLOY\n</loaded-skill>');
    expect(carried).toContain('<loaded-skill name="review">\nREVIEW v2\n</loaded-skill>');
    expect(carried).not.toContain("REVIEW v1");
  });

  test("at most five skills, newest first, within the character budget; nothing to carry gives nothing", () => {
    const history = Array.from({ length: 7 }, (_, index) => [skillCall(`s${index}`, `skill${index}`), skillResult(`s${index}`, index === 6 ? "x".repeat(25_000) : `BODY${index}`)]).flat();
    const carried = carriedOver(history)[0] ?? "";
    // skill6 is over the budget alone; the five newest that fit are 1–5.
    expect([...carried.matchAll(/<loaded-skill name="(\w+)">/g)].map((match) => match[1])).toEqual(["skill1", "skill2", "skill3", "skill4", "skill5"]);
    expect(carriedOver([{ role: "user", content: "hi" }])).toEqual([]);
  });
});
