// Rule strings into typed rules. Malformed rules warn instead of throwing, and a deny rule that
// cannot be read precisely is widened, never dropped.
import { describe, expect, test } from "bun:test";
import { compileRules, toolVisibility, type PermissionRule } from "../../../src/permissions/rules.ts";
import type { RuleKind, RuleSource } from "../../../src/permissions/types.ts";

const SOURCE: RuleSource = { scope: "project", file: "/repo/.clew/settings.json", root: "/repo" };

function parse(text: string, kind: RuleKind = "deny"): { rule?: Pick<PermissionRule, "tool" | "target">; warnings: string[] } {
  const set = compileRules([{ text, kind, source: SOURCE }]);
  const rule = set[kind][0];
  return { ...(rule ? { rule: { tool: rule.tool, target: rule.target } } : {}), warnings: set.warnings.map((warning) => warning.message) };
}

const ANY = { kind: "any" } as const;

describe("compileRules", () => {
  const cases: Array<[text: string, kind: RuleKind, expected: Pick<PermissionRule, "tool" | "target"> | undefined]> = [
    ["Bash", "allow", { tool: "Bash", target: ANY }],
    ["Bash(*)", "allow", { tool: "Bash", target: ANY }],
    ["Bash(npm test *)", "allow", { tool: "Bash", target: { kind: "command", pattern: "npm test *" } }],
    ["Bash(npm run:*)", "allow", { tool: "Bash", target: { kind: "command", pattern: "npm run *" } }],
    ["Bash(git:* push)", "deny", { tool: "Bash", target: { kind: "command", pattern: "git:* push" } }],
    ["Bash(git status)", "allow", { tool: "Bash", target: { kind: "command", pattern: "git status" } }],
    ["Monitor(tail -f *)", "allow", { tool: "Bash", target: { kind: "command", pattern: "tail -f *" } }],
    ["Read(./.env)", "deny", { tool: "Read", target: { kind: "path", pattern: "./.env" } }],
    ["Edit(src/**)", "allow", { tool: "Edit", target: { kind: "path", pattern: "src/**" } }],
    ["WebFetch(domain:example.com)", "allow", { tool: "WebFetch", target: { kind: "domain", pattern: "example.com" } }],
    ["Task(Explore)", "deny", { tool: "Agent", target: { kind: "name", pattern: "Explore" } }],
    ["Agent(my-plugin:reviewer)", "deny", { tool: "Agent", target: { kind: "name", pattern: "my-plugin:reviewer" } }],
    ["Agent(isolation:worktree)", "deny", { tool: "Agent", target: { kind: "param", param: "isolation", value: "worktree" } }],
    ["Agent( model : opus )", "ask", { tool: "Agent", target: { kind: "param", param: "model", value: "opus" } }],
    ["Bash(run_in_background:true)", "deny", { tool: "Bash", target: { kind: "param", param: "run_in_background", value: "true" } }],
    ["Skill(review-pr *)", "allow", { tool: "Skill", target: { kind: "name", pattern: "review-pr *" } }],
    ["mcp__github", "allow", { tool: "mcp__github__*", target: ANY }],
    ["mcp__github__*", "allow", { tool: "mcp__github__*", target: ANY }],
    ["mcp__github__get_*", "allow", { tool: "mcp__github__get_*", target: ANY }],
    ["mcp__github__create_issue", "allow", { tool: "mcp__github__create_issue", target: ANY }],
    ["*", "deny", { tool: "*", target: ANY }],
    ["mcp__*", "ask", { tool: "mcp__*", target: ANY }],
    ["WebSearch", "allow", { tool: "WebSearch", target: ANY }],
  ];
  for (const [text, kind, expected] of cases) {
    test(`${kind} ${text}`, () => {
      expect(parse(text, kind)).toEqual({ rule: expected, warnings: [] });
    });
  }
});

describe("rule warnings", () => {
  test("wildcard tool names are ignored as allow rules", () => {
    for (const text of ["*", "B*", "mcp__*"]) {
      const result = parse(text, "allow");
      expect(result.rule).toBeUndefined();
      expect(result.warnings).toHaveLength(1);
    }
  });

  test("Write(path) is ignored as allow and applied as Edit(path) as deny", () => {
    expect(parse("Write(src/**)", "allow").rule).toBeUndefined();
    expect(parse("Write(src/**)", "allow").warnings[0]).toContain("never consulted");
    expect(parse("Write(secrets/**)", "deny")).toEqual({
      rule: { tool: "Edit", target: { kind: "path", pattern: "secrets/**" } },
      warnings: ["Write(path) rules are never consulted; this deny rule is applied as Edit(secrets/**)"],
    });
    expect(parse("Glob(secrets/**)", "deny").rule).toEqual({ tool: "Read", target: { kind: "path", pattern: "secrets/**" } });
  });

  test("unknown tools in deny rules warn but still apply", () => {
    const result = parse("Bsh(rm *)", "deny");
    expect(result.warnings[0]).toContain('unknown tool "Bsh"');
    expect(result.rule?.tool).toBe("Bsh");
    expect(parse("my_tool", "deny").warnings).toEqual([]);
  });

  test("malformed deny rules widen to the whole tool", () => {
    for (const text of ["Bash(rm *", "Bash rm", "Bash(rm *) -rf"]) {
      const result = parse(text, "deny");
      expect(result.rule).toEqual({ tool: "Bash", target: ANY });
      expect(result.warnings[0]).toContain("every Bash call");
    }
  });

  test("a deny rule without any tool name denies every tool", () => {
    expect(parse("(rm)", "deny")).toEqual({
      rule: { tool: "*", target: ANY },
      warnings: ['rule "(rm)" is not of the form Tool or Tool(specifier); this deny rule is applied to every tool instead, so that it cannot silently stop working'],
    });
  });

  test("malformed allow rules are dropped", () => {
    const result = parse("Bash(npm test", "allow");
    expect(result.rule).toBeUndefined();
    expect(result.warnings[0]).toContain("ignored");
  });

  test("specifiers a tool cannot take widen deny rules", () => {
    expect(parse("WebFetch(https://x.dev)", "deny").rule).toEqual({ tool: "WebFetch", target: ANY });
    expect(parse("WebSearch(cats)", "deny").rule).toEqual({ tool: "WebSearch", target: ANY });
    expect(parse("mcp__github__create_issue(x)", "deny").rule).toEqual({ tool: "mcp__github__create_issue", target: ANY });
    expect(parse("WebSearch(cats)", "allow").rule).toBeUndefined();
  });

  test("parameter rules on primary fields are read as the tool's own specifier", () => {
    expect(parse("Bash(command:rm *)", "deny")).toEqual({
      rule: { tool: "Bash", target: { kind: "command", pattern: "rm *" } },
      warnings: ["parameter rules may not name command; this deny rule is applied as Bash(rm *)"],
    });
    expect(parse("Read(file_path:.env)", "deny").rule).toEqual({ tool: "Read", target: { kind: "path", pattern: ".env" } });
    expect(parse("Bash(command:rm *)", "allow").rule).toBeUndefined();
  });

  test("parameter rules are deny/ask only", () => {
    const result = parse("Agent(model:opus)", "allow");
    expect(result.rule).toBeUndefined();
    expect(result.warnings[0]).toContain("only to deny and ask");
  });

  test("warnings name the rule and its source file", () => {
    const set = compileRules([{ text: "Write(x)", kind: "allow", source: SOURCE }]);
    expect(set.warnings[0]?.rule).toBe("Write(x)");
    expect(set.warnings[0]?.source.file).toBe("/repo/.clew/settings.json");
  });

  test("empty rules are ignored with a warning", () => {
    expect(parse("  ", "deny")).toEqual({ warnings: ["empty rule ignored"] });
  });
});

describe("toolVisibility", () => {
  const tools = ["Bash", "Read", "Edit", "Write", "WebFetch", "mcp__github__create_issue", "mcp__github__get_issue", "mcp__slack__post"];
  const hidden = (deny: string[]) => toolVisibility(compileRules(deny.map((text) => ({ text, kind: "deny" as const, source: SOURCE }))), tools);
  test("bare and glob deny rules remove tools", () => {
    expect(hidden(["WebFetch"])).toEqual(["WebFetch"]);
    expect(hidden(["Bash(*)"])).toEqual(["Bash"]);
    expect(hidden(["mcp__github"])).toEqual(["mcp__github__create_issue", "mcp__github__get_issue"]);
    expect(hidden(["mcp__*"])).toEqual(["mcp__github__create_issue", "mcp__github__get_issue", "mcp__slack__post"]);
    expect(hidden(["*"])).toEqual(tools);
  });
  test("scoped deny rules leave the tool listed", () => {
    expect(hidden(["Bash(rm *)", "Read(./.env)", "WebFetch(domain:evil.com)"])).toEqual([]);
  });
  test("a malformed deny rule hides the whole tool", () => {
    expect(hidden(["Bash(rm *"])).toEqual(["Bash"]);
  });
});
