import { describe, expect, test } from "bun:test";
import { compileMatcher, fileWatchNames, matcherAccepts } from "../../../src/hooks/matcher.ts";

function accepts(matcher: string | undefined, value: string, narrow = false): boolean {
  const compiled = compileMatcher(matcher, narrow);
  if (!compiled.ok) throw new Error(compiled.error);
  return matcherAccepts(compiled.rule, value);
}

describe("matchers (hooks.md §3.1)", () => {
  const table: [matcher: string | undefined, value: string, expected: boolean][] = [
    [undefined, "Bash", true],
    ["", "Bash", true],
    ["*", "mcp__memory__read", true],
    ["Bash", "Bash", true],
    ["Bash", "bash", false],
    ["Bash", "BashOutput", false],
    ["Edit|Write", "Write", true],
    ["Edit|Write", "MultiEdit", false],
    ["Edit, Write", "Write", true],
    ["Edit , Write |Read", "Read", true],
    ["code-reviewer", "code-reviewer", true],
    ["code-reviewer", "senior-code-reviewer", false],
    ["Edit.*", "NotebookEdit", true],
    ["^Edit$", "NotebookEdit", false],
    ["^Edit$", "Edit", true],
    [".*", "anything", true],
    ["mcp__memory__.*", "mcp__memory__create_entities", true],
    ["mcp__memory__.*", "mcp__github__create_issue", false],
    ["mcp__memory", "mcp__memory__create_entities", false],
    ["Bash|mcp__.*", "mcp__x__y", true],
    ["Bash|mcp__.*", "Bash", true],
    ["startup|clear|compact", "resume", false],
    ["startup|clear|compact", "compact", true],
  ];
  for (const [matcher, value, expected] of table) {
    test(`${JSON.stringify(matcher)} on ${value} → ${expected}`, () => {
      expect(accepts(matcher, value)).toBe(expected);
    });
  }

  test("exact lists and regexes compile to the rule the spec names", () => {
    expect(compileMatcher("Edit, Write|Read")).toEqual({ ok: true, rule: { kind: "names", names: ["Edit", "Write", "Read"] } });
    expect(compileMatcher("*")).toEqual({ ok: true, rule: { kind: "all" } });
    // Hooks written for the Agent tool's old name still see its calls.
    expect(compileMatcher("Task|Bash")).toEqual({ ok: true, rule: { kind: "names", names: ["Task", "Bash", "Agent"] } });
    const regex = compileMatcher("Edit.*");
    expect(regex.ok && regex.rule.kind).toBe("regex");
  });

  test("an invalid regex is reported, and its rule matches nothing", () => {
    const compiled = compileMatcher("Bash(");
    expect(compiled.ok).toBe(false);
    expect(compiled.rule).toEqual({ kind: "broken" });
    expect(matcherAccepts(compiled.rule, "Bash(")).toBe(false);
  });

  test("FileChanged uses the narrow exact set: a hyphen or dot makes it a regex", () => {
    expect(compileMatcher(".envrc|package.json", true).rule.kind).toBe("regex");
    expect(compileMatcher("Makefile|Dockerfile", true)).toEqual({ ok: true, rule: { kind: "names", names: ["Makefile", "Dockerfile"] } });
    expect(accepts("rate-limit", "rate-limit", true)).toBe(true);
    expect(compileMatcher("rate-limit", true).rule.kind).toBe("regex");
    expect(accepts("a,b", "a,b", true)).toBe(true);
    expect(accepts("a,b", "a", true)).toBe(false);
  });

  test("FileChanged watch list: the matcher split on |, '*' literally", () => {
    expect(fileWatchNames(".envrc|package.json")).toEqual([".envrc", "package.json"]);
    expect(fileWatchNames("*")).toEqual(["*"]);
    expect(fileWatchNames(undefined)).toEqual([]);
  });
});
