// Rules for the tools without paths or commands: WebFetch hosts, MCP servers and tools, Agent
// types, Skill names, tools that need a human, and each mode's default.
import { beforeAll, describe, expect, test } from "bun:test";
import { domainMatches } from "../../../src/permissions/tool-rules.ts";
import type { PermissionBehavior, PermissionCall, PermissionMode, ToolAccess } from "../../../src/permissions/types.ts";
import { decide, makeProject, type Project, type RuleSpec } from "./fixture.ts";

let project: Project;
beforeAll(() => {
  project = makeProject();
});

function tool(name: string, access: ToolAccess, input: Record<string, unknown> = {}, extra: Partial<PermissionCall> = {}): PermissionCall {
  return { toolName: name, access, input, subject: "", ...extra };
}
const fetch = (url: string) => tool("WebFetch", "network", { url, prompt: "summarise" }, { subject: url });

async function outcome(spec: RuleSpec, what: PermissionCall, mode: PermissionMode = "default"): Promise<{ behavior: PermissionBehavior; rule?: string }> {
  const result = await decide(spec, project, what, mode);
  return result.rule === undefined ? { behavior: result.behavior } : { behavior: result.behavior, rule: result.rule };
}

describe("WebFetch domain patterns", () => {
  const cases: Array<[pattern: string, url: string, matches: boolean]> = [
    ["example.com", "https://example.com/docs", true],
    ["example.com", "https://EXAMPLE.com./x", true],
    ["example.com", "https://sub.example.com/", false],
    ["example.com", "https://example.com.evil.org/", false],
    ["*.example.com", "https://a.example.com/", true],
    ["*.example.com", "https://a.b.example.com/", true],
    ["*.example.com", "https://example.com/", false],
    ["example.*", "https://example.org/", true],
    ["example.*", "https://example.evil.com/", false],
    ["*", "https://anything.dev/", true],
    ["[::1]", "http://[::1]:8080/", true],
    ["[::1]:443", "https://[::1]/", true],
    ["[::1]:443", "http://[::1]:8080/", false],
    ["localhost:3000", "http://localhost:3000/x", true],
    ["localhost:3000", "http://localhost:4000/x", false],
    ["docs.rs", "not a url", false],
  ];
  for (const [pattern, url, matches] of cases) {
    test(`${pattern} ${matches ? "matches" : "does not match"} ${url}`, () => {
      expect(domainMatches(pattern, url)).toBe(matches);
    });
  }

  test("allow, deny and suggestions through evaluate", async () => {
    const spec = { allow: ["WebFetch(domain:docs.rs)"], deny: ["WebFetch(domain:*.evil.com)"] };
    expect(await outcome(spec, fetch("https://docs.rs/zod"))).toEqual({ behavior: "allow", rule: "WebFetch(domain:docs.rs)" });
    expect(await outcome(spec, fetch("https://x.evil.com/"))).toEqual({ behavior: "deny", rule: "WebFetch(domain:*.evil.com)" });
    const asked = await decide(spec, project, fetch("https://Example.org/page"));
    expect(asked).toEqual({
      behavior: "ask",
      waivable: true,
      reason: "WebFetch of https://Example.org/page needs approval: no allow rule covers it.",
      suggestions: ["WebFetch(domain:example.org)"],
    });
  });
});

describe("MCP tools", () => {
  const mcp = (name: string, access: ToolAccess = "exec") => tool(name, access);
  const cases: Array<[spec: RuleSpec, name: string, expected: { behavior: PermissionBehavior; rule?: string }]> = [
    [{ allow: ["mcp__github"] }, "mcp__github__create_issue", { behavior: "allow", rule: "mcp__github" }],
    [{ allow: ["mcp__github__*"] }, "mcp__github__get_issue", { behavior: "allow", rule: "mcp__github__*" }],
    [{ allow: ["mcp__github__get_*"] }, "mcp__github__get_issue", { behavior: "allow", rule: "mcp__github__get_*" }],
    [{ allow: ["mcp__github__get_*"] }, "mcp__github__create_issue", { behavior: "ask" }],
    [{ allow: ["mcp__github__get_issue"] }, "mcp__github__get_issue", { behavior: "allow", rule: "mcp__github__get_issue" }],
    [{ allow: ["mcp__github"] }, "mcp__github_enterprise__x", { behavior: "ask" }],
    [{ allow: ["mcp__*"] }, "mcp__github__get_issue", { behavior: "ask" }],
    [{ deny: ["mcp__*"], allow: ["mcp__github"] }, "mcp__github__get_issue", { behavior: "deny", rule: "mcp__*" }],
    [{ ask: ["mcp__github__create_*"], allow: ["mcp__github"] }, "mcp__github__create_issue", { behavior: "ask", rule: "mcp__github__create_*" }],
    [{}, "mcp__fs__read_file", { behavior: "ask" }],
  ];
  for (const [spec, name, expected] of cases) {
    test(`${JSON.stringify(spec)} ${name}`, async () => {
      expect(await outcome(spec, mcp(name, name.includes("read") ? "read" : "exec"))).toEqual(expected);
    });
  }

  test("an unapproved MCP tool suggests its own name", async () => {
    expect((await decide({}, project, mcp("mcp__slack__post"))).suggestions).toEqual(["mcp__slack__post"]);
  });

  test("tools that need a user's answer ask in every mode but dontAsk", async () => {
    const interactive = tool("mcp__ui__confirm", "exec", {}, { requiresUserInteraction: true });
    expect(await outcome({ allow: ["mcp__ui"] }, interactive, "bypassPermissions")).toEqual({ behavior: "ask" });
    expect(await outcome({}, tool("AskUserQuestion", "read"), "bypassPermissions")).toEqual({ behavior: "ask" });
    expect(await outcome({}, tool("AskUserQuestion", "read"), "dontAsk")).toEqual({ behavior: "deny" });
  });
});

describe("Agent and Skill", () => {
  const agent = (type?: string, extra: Record<string, unknown> = {}) => tool("Agent", "exec", { prompt: "x", ...(type ? { subagent_type: type } : {}), ...extra });
  const skill = (name: string, args?: string) => tool("Skill", "read", { skill: name, ...(args ? { args } : {}) });
  test("agents run without asking unless a rule says otherwise", async () => {
    expect(await outcome({}, agent("Explore"))).toEqual({ behavior: "allow" });
    expect(await outcome({ deny: ["Agent(Explore)"] }, agent("Explore"))).toEqual({ behavior: "deny", rule: "Agent(Explore)" });
    expect(await outcome({ deny: ["Agent(Explore)"] }, agent("Plan"))).toEqual({ behavior: "allow" });
    expect(await outcome({ deny: ["Task(Plan)"] }, agent("Plan"))).toEqual({ behavior: "deny", rule: "Task(Plan)" });
    expect(await outcome({ deny: ["Agent(general-purpose)"] }, agent())).toEqual({ behavior: "deny", rule: "Agent(general-purpose)" });
    expect(await outcome({ deny: ["Agent(my-plugin:*)"] }, agent("my-plugin:reviewer"))).toEqual({ behavior: "deny", rule: "Agent(my-plugin:*)" });
    expect(await outcome({ ask: ["Agent(isolation:worktree)"] }, agent("x", { isolation: "worktree" }))).toEqual({ behavior: "ask", rule: "Agent(isolation:worktree)" });
    expect(await outcome({ deny: ["Agent(model:opus)"] }, agent("x", { model: "claude-opus-4-1" }))).toEqual({ behavior: "allow" });
  });
  test("skills ask by default; Skill(name) is exact, Skill(name *) takes arguments", async () => {
    expect(await outcome({}, skill("commit"))).toEqual({ behavior: "ask" });
    expect((await decide({}, project, skill("commit"))).suggestions).toEqual(["Skill(commit)"]);
    expect(await outcome({ allow: ["Skill(commit)"] }, skill("commit"))).toEqual({ behavior: "allow", rule: "Skill(commit)" });
    expect(await outcome({ allow: ["Skill(commit)"] }, skill("commit", "--amend"))).toEqual({ behavior: "ask" });
    expect(await outcome({ allow: ["Skill(review-pr *)"] }, skill("review-pr", "123"))).toEqual({ behavior: "allow", rule: "Skill(review-pr *)" });
    expect(await outcome({ allow: ["Skill(review-pr *)"] }, skill("review-pr"))).toEqual({ behavior: "allow", rule: "Skill(review-pr *)" });
    expect(await outcome({ deny: ["Skill(deploy)"] }, skill("deploy", "prod"))).toEqual({ behavior: "deny", rule: "Skill(deploy)" });
    expect(await outcome({ deny: ["Skill"] }, skill("anything"))).toEqual({ behavior: "deny", rule: "Skill" });
  });
});

describe("mode defaults for tools without rules", () => {
  const cases: Array<[name: string, access: ToolAccess, mode: PermissionMode, behavior: PermissionBehavior]> = [
    ["WebSearch", "network", "default", "ask"],
    ["WebSearch", "network", "acceptEdits", "ask"],
    ["WebSearch", "network", "plan", "ask"],
    ["WebSearch", "network", "dontAsk", "deny"],
    ["WebSearch", "network", "bypassPermissions", "allow"],
    ["TodoWrite", "read", "plan", "allow"],
    ["TodoWrite", "read", "dontAsk", "allow"],
    ["KillShell", "exec", "default", "allow"],
    ["ExitPlanMode", "exec", "plan", "ask"],
    ["SomeExecTool", "exec", "plan", "deny"],
    ["SomeExecTool", "exec", "acceptEdits", "ask"],
    ["SomeReadTool", "read", "default", "allow"],
  ];
  for (const [name, access, mode, behavior] of cases) {
    test(`${name} in ${mode}`, async () => {
      expect((await decide({}, project, tool(name, access), mode)).behavior).toBe(behavior);
    });
  }

  test("a bare tool name allows and suggests", async () => {
    expect(await outcome({ allow: ["WebSearch"] }, tool("WebSearch", "network"))).toEqual({ behavior: "allow", rule: "WebSearch" });
    expect((await decide({}, project, tool("WebSearch", "network"))).suggestions).toEqual(["WebSearch"]);
  });

  test("a widened deny rule still denies", async () => {
    expect(await outcome({ deny: ["WebFetch(https://evil.com)"] }, fetch("https://docs.rs/"))).toEqual({ behavior: "deny", rule: "WebFetch(https://evil.com)" });
  });
});
