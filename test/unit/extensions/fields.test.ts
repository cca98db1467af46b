import { describe, expect, test } from "bun:test";
import { FieldReader, modernToolName, splitToolList } from "../../../src/extensions/fields.ts";
import type { ExtensionProblem } from "../../../src/extensions/types.ts";

function reader(data: Record<string, unknown>, lines: Record<string, number> = {}): { read: FieldReader; problems: ExtensionProblem[] } {
  const problems: ExtensionProblem[] = [];
  return { read: new FieldReader(data, lines, "/f.md", problems), problems };
}

describe("tool lists", () => {
  test("commas and spaces split, except inside parentheses", () => {
    expect(splitToolList("Bash(git add *) Bash(git commit *)")).toEqual(["Bash(git add *)", "Bash(git commit *)"]);
    expect(splitToolList("Bash(git add:*), Read,Grep  Glob")).toEqual(["Bash(git add:*)", "Read", "Grep", "Glob"]);
    expect(splitToolList("Agent(Explore, Plan), mcp__github__*")).toEqual(["Agent(Explore, Plan)", "mcp__github__*"]);
  });

  test("legacy names map to today's tools; unknown names stay as written", () => {
    expect(["Task", "Task(reviewer)", "MultiEdit", "NotebookRead", "LS", "Read"].map(modernToolName)).toEqual(["Agent", "Agent(reviewer)", "Edit", "Read", "LS", "Read"]);
  });

  test("a YAML list, a flow list written as a string, and numbers in a list", () => {
    const { read } = reader({ a: ["Read", " Grep "], b: "[Read, Glob]", c: [1, "x"], d: "Task, Bash(ls *)" });
    expect([read.list("a"), read.list("b"), read.list("c"), read.tools("d")]).toEqual([["Read", "Grep"], ["Read", "Glob"], ["1", "x"], ["Agent", "Bash(ls *)"]]);
  });
});

describe("FieldReader", () => {
  test("booleans accept true/false/yes/no/on/off/1/0 in any case", () => {
    const { read, problems } = reader({ a: "YES", b: "off", c: 1, d: 0, e: "On", f: false, g: "No" });
    expect(["a", "b", "c", "d", "e", "f", "g"].map((field) => read.boolean(field, false))).toEqual([true, false, true, false, true, false, false]);
    expect(read.boolean("missing", true)).toBe(true);
    expect(problems).toEqual([]);
  });

  test("a value that is no boolean keeps the default and is reported with its line", () => {
    const { read, problems } = reader({ "user-invocable": "sometimes" }, { "user-invocable": 4 });
    expect(read.boolean("user-invocable", true)).toBe(true);
    expect(problems).toEqual([{
      code: "invalid-field",
      severity: "warning",
      file: "/f.md",
      line: 4,
      field: "user-invocable",
      message: `"user-invocable" must be true or false (yes/no, on/off, 1/0 also work), not "sometimes"; using true.`,
    }]);
  });

  test("non-string scalars become strings; a map for a string field is reported and ignored", () => {
    const { read, problems } = reader({ a: 42, b: true, c: ["x", 2], d: { nested: 1 } });
    expect([read.string("a"), read.string("b"), read.string("c"), read.string("d")]).toEqual(["42", "true", "x, 2", undefined]);
    expect(problems.map((problem) => [problem.field, problem.code])).toEqual([["d", "invalid-field"]]);
  });

  test("enumerations, whole numbers and maps", () => {
    const { read, problems } = reader({ effort: "extreme", maxTurns: "12", bad: -3, hooks: "nope", mode: "manual" });
    expect(read.oneOf("effort", ["low", "high"] as const)).toBeUndefined();
    expect(read.positiveInt("maxTurns")).toBe(12);
    expect(read.positiveInt("bad")).toBeUndefined();
    expect(read.map("hooks")).toBeUndefined();
    expect(read.oneOf("mode", ["default", "plan"] as const, { manual: "default" })).toBe("default");
    expect(problems.map((problem) => problem.field)).toEqual(["effort", "bad", "hooks"]);
  });

  test("a misspelt field is named with the field it probably meant", () => {
    const { read, problems } = reader({ user_invocable: false }, { user_invocable: 3 });
    read.misspellings({ user_invocable: "user-invocable" });
    expect(problems).toEqual([{
      code: "misspelled-field",
      severity: "warning",
      file: "/f.md",
      line: 3,
      field: "user_invocable",
      message: `"user_invocable" is not a field and is ignored; did you mean "user-invocable"?`,
    }]);
  });
});
