import { describe, expect, test } from "bun:test";
import { estimateDefinitionTokens, parseToolSearchSetting, planDeferral, type DeferralInput } from "../../../../src/mcp/deferral/plan.ts";
import { builtin, manyTools, mcpTool } from "./tools.ts";

const base = (overrides: Partial<DeferralInput> = {}): DeferralInput => ({
  tools: [builtin("Read"), builtin("Bash"), ...manyTools("big", 200)],
  setting: undefined,
  windowTokens: 200_000,
  toolSearchDenied: false,
  betasDisabled: false,
  ...overrides,
});

const names = (plan: { deferred: ReadonlySet<string> }): string[] => [...plan.deferred].sort();

describe("parseToolSearchSetting", () => {
  test("reads every documented value and the usual true/false words", () => {
    expect(parseToolSearchSetting(undefined)).toEqual({ mode: { kind: "auto", percent: 10 } });
    expect(parseToolSearchSetting("auto")).toEqual({ mode: { kind: "auto", percent: 10 } });
    expect(parseToolSearchSetting("auto:5")).toEqual({ mode: { kind: "auto", percent: 5 } });
    expect(parseToolSearchSetting("AUTO:2.5")).toEqual({ mode: { kind: "auto", percent: 2.5 } });
    for (const yes of ["true", "1", "yes", "on", "TRUE"]) expect(parseToolSearchSetting(yes)).toEqual({ mode: { kind: "always" } });
    for (const no of ["false", "0", "no", "off"]) expect(parseToolSearchSetting(no)).toEqual({ mode: { kind: "never" } });
  });

  test("an unreadable value falls back to auto and says why", () => {
    expect(parseToolSearchSetting("maybe")).toEqual({
      mode: { kind: "auto", percent: 10 },
      warning: "ENABLE_TOOL_SEARCH=maybe is not one of true, false, auto, auto:N; using auto (10% of the context window).",
    });
    expect(parseToolSearchSetting("auto:150")).toEqual({
      mode: { kind: "auto", percent: 10 },
      warning: 'ENABLE_TOOL_SEARCH=auto:150: the percentage after "auto:" must be a number from 0 to 100; using auto (10%).',
    });
    expect(parseToolSearchSetting("auto:").warning).toContain('after "auto:"');
  });
});

describe("planDeferral", () => {
  test("default (auto, 10%): 200 large MCP tools are deferred, built-ins never", () => {
    const input = base();
    const plan = planDeferral(input);
    expect(plan.enabled).toBe(true);
    expect(names(plan)).toEqual(input.tools.slice(2).map((tool) => tool.name).sort());
    expect(plan.deferred.has("Read")).toBe(false);
    const tokens = input.tools.slice(2).reduce((sum, tool) => sum + estimateDefinitionTokens(tool), 0);
    expect(plan.reason).toBe(`deferred: 200 MCP tool definitions ≈ ${tokens} tokens, budget 20000 (10% of 200000)`);
    expect(plan.warning).toBeUndefined();
  });

  test("auto below the budget loads everything up front", () => {
    const tools = [builtin("Read"), ...manyTools("small", 3, 50)];
    const plan = planDeferral(base({ tools }));
    expect(plan.enabled).toBe(false);
    expect(names(plan)).toEqual([]);
    expect(plan.reason).toStartWith("loaded up front: 3 MCP tool definitions ≈ ");
  });

  test("auto:N moves the threshold; the budget is a share of the window", () => {
    const tools = [builtin("Read"), ...manyTools("mid", 20, 400)];
    const tokens = tools.slice(1).reduce((sum, tool) => sum + estimateDefinitionTokens(tool), 0);
    expect(planDeferral(base({ tools })).enabled).toBe(false);
    // A window small enough that the same tools exceed 10% of it.
    expect(planDeferral(base({ tools, windowTokens: tokens * 10 })).enabled).toBe(true);
    expect(planDeferral(base({ tools, windowTokens: tokens * 10 + 10 })).enabled).toBe(false);
    expect(planDeferral(base({ tools, setting: "auto:1" })).enabled).toBe(true);
    expect(planDeferral(base({ tools, setting: "auto:0" })).enabled).toBe(true);
  });

  test("true defers every MCP tool however small; alwaysLoad tools stay loaded", () => {
    const tools = [builtin("Read"), mcpTool("a", "x", "X."), mcpTool("a", "pinned", "Pinned.", { alwaysLoad: true }), mcpTool("b", "y", "Y.")];
    const plan = planDeferral(base({ tools, setting: "true" }));
    expect(plan).toEqual({ enabled: true, deferred: new Set(["mcp__a__x", "mcp__b__y"]), reason: "ENABLE_TOOL_SEARCH=true: every MCP tool is deferred" });
  });

  test("false, a ToolSearch deny rule and disabled betas each turn it off", () => {
    expect(planDeferral(base({ setting: "false" }))).toEqual({ enabled: false, deferred: new Set(), reason: "tool search is off (ENABLE_TOOL_SEARCH=false)" });
    expect(planDeferral(base({ setting: "true", toolSearchDenied: true }))).toEqual({
      enabled: false,
      deferred: new Set(),
      reason: "tool search is off: a permission rule denies ToolSearch",
    });
    expect(planDeferral(base({ setting: "true", betasDisabled: true }))).toEqual({
      enabled: false,
      deferred: new Set(),
      reason: "tool search is off: CLAUDE_CODE_DISABLE_EXPERIMENTAL_BETAS is set",
    });
  });

  test("nothing to defer: no MCP tools, or only alwaysLoad ones", () => {
    expect(planDeferral(base({ tools: [builtin("Read")], setting: "true" }))).toEqual({ enabled: false, deferred: new Set(), reason: "no MCP tool can be deferred" });
    const pinned = [builtin("Read"), mcpTool("a", "x", "X.", { alwaysLoad: true })];
    expect(planDeferral(base({ tools: pinned, setting: "true" })).enabled).toBe(false);
  });

  test("a bad setting still plans (with auto) and carries the warning", () => {
    const plan = planDeferral(base({ setting: "sometimes" }));
    expect(plan.enabled).toBe(true);
    expect(plan.warning).toBe("ENABLE_TOOL_SEARCH=sometimes is not one of true, false, auto, auto:N; using auto (10% of the context window).");
  });
});
