// Questions without a terminal: numbered choices answered by the next input line.
import { describe, expect, test } from "bun:test";
import { askApprovalPlain, choosePlain } from "../../../src/ui/ask.ts";

function io(answers: string[]) {
  const printed: string[] = [];
  return { printed, print: (text: string) => printed.push(text), readLine: async () => answers.shift() };
}

describe("plain questions", () => {
  const view = { question: "Run this command?", detail: ["rm -rf build"], alwaysLabel: "Yes, and don't ask again for Bash(rm -rf build)" };

  test("the three answers, by number or word", async () => {
    expect(await askApprovalPlain(view, io(["1"]))).toEqual({ kind: "yes" });
    expect(await askApprovalPlain(view, io(["a"]))).toEqual({ kind: "always" });
    expect(await askApprovalPlain(view, io(["no", "use make clean"]))).toEqual({ kind: "no", reason: "use make clean" });
    expect(await askApprovalPlain(view, io([]))).toEqual({ kind: "cancel" });
  });

  test("shows the detail and the options; asks again on a wrong answer; no 'always' when none is offered", async () => {
    const answers = io(["maybe", "2", "y"]);
    expect(await askApprovalPlain({ question: "Write a.txt?", detail: ["+x"] }, answers)).toEqual({ kind: "yes" });
    expect(answers.printed).toEqual(["  +x", "Write a.txt?\n  1. Yes\n  3. No, and tell the model why", "Answer 1 or 3.", "Answer 1 or 3."]);
  });

  test("pick one from a numbered list", async () => {
    const choices = [{ value: "a", label: "first" }, { value: "b", label: "second", hint: "2h ago" }];
    expect(await choosePlain("Which?", choices, io(["2"]))).toBe("b");
    expect(await choosePlain("Which?", choices, io(["9"]))).toBeUndefined();
  });
});
