// What thinking config and effort level a request carries, per model and per source, and what
// the user is told when the request differs from what was asked.
import { describe, expect, test } from "bun:test";
import { applyReasoning, SessionReasoning, type ReasoningInputs } from "../../../src/app/thinking-setup.ts";
import { modelReasoning } from "../../../src/model/models.ts";

const none: ReasoningInputs = { envEffort: undefined, flagEffort: undefined, settingEffort: undefined, maxThinkingTokens: undefined, alwaysThinkingEnabled: undefined };

function resolve(model: string, inputs: Partial<ReasoningInputs> = {}, maxTokens = 64_000) {
  const { thinking, effort, notes } = new SessionReasoning({ ...none, ...inputs }).resolve(model, maxTokens);
  return { thinking, effort, notes };
}

describe("thinking per model", () => {
  test("adaptive models get adaptive thinking and their default effort (Opus 5.5 and Haiku 5.5 default to medium)", () => {
    expect(resolve("claude-opus-5-5")).toEqual({ thinking: { type: "adaptive" }, effort: "medium", notes: [] });
    expect(resolve("claude-haiku-5-5")).toEqual({ thinking: { type: "adaptive" }, effort: "medium", notes: [] });
    expect(resolve("claude-sonnet-5-5")).toEqual({ thinking: { type: "adaptive" }, effort: "high", notes: [] });
    expect(resolve("claude-opus-4-7")).toEqual({ thinking: { type: "adaptive" }, effort: "high", notes: [] });
  });

  test("a MAX_THINKING_TOKENS budget does not apply to adaptive models (4.6 included), silently as in Claude Code", () => {
    expect(resolve("claude-opus-4-6", { maxThinkingTokens: 8_000 })).toEqual({ thinking: { type: "adaptive" }, effort: "high", notes: [] });
    expect(resolve("claude-fable-5-2", { maxThinkingTokens: 8_000 })).toEqual({ thinking: { type: "adaptive" }, effort: "high", notes: [] });
  });

  test("budget models: MAX_THINKING_TOKENS is the budget, kept within 1024 and below max_tokens", () => {
    expect(resolve("claude-haiku-4-5-20251001", { maxThinkingTokens: 8_000 })).toEqual({ thinking: { type: "enabled", budget_tokens: 8_000 }, effort: undefined, notes: [] });
    expect(resolve("claude-sonnet-4-5", { maxThinkingTokens: 100_000 }, 64_000)).toEqual({
      thinking: { type: "enabled", budget_tokens: 63_999 },
      effort: undefined,
      notes: ["MAX_THINKING_TOKENS=100000 is outside what claude-sonnet-4-5 accepts (1024 to 63999, below max_tokens); using 63999."],
    });
    expect(resolve("claude-haiku-4-5", { maxThinkingTokens: 500 }).thinking).toEqual({ type: "enabled", budget_tokens: 1_024 });
  });

  test("budget models think by default where Claude Code does (Opus 4.5, Sonnet 4.5), with its 31999-token budget", () => {
    expect(resolve("claude-opus-4-5-20251101").thinking).toEqual({ type: "enabled", budget_tokens: 31_999 });
    expect(resolve("claude-sonnet-4-5", {}, 16_000).thinking).toEqual({ type: "enabled", budget_tokens: 15_999 });
    expect(resolve("claude-haiku-4-5").thinking).toBeUndefined();
    expect(resolve("claude-haiku-4-5", { alwaysThinkingEnabled: true }).thinking).toEqual({ type: "enabled", budget_tokens: 31_999 });
  });

  test("MAX_THINKING_TOKENS=0 and alwaysThinkingEnabled: false turn thinking off; a model that always thinks says so", () => {
    expect(resolve("claude-opus-4-8", { maxThinkingTokens: 0 })).toEqual({ thinking: undefined, effort: "high", notes: [] });
    expect(resolve("claude-sonnet-4-5", { alwaysThinkingEnabled: false }).thinking).toBeUndefined();
    expect(resolve("claude-opus-5-5", { maxThinkingTokens: 0 })).toEqual({
      thinking: { type: "adaptive" },
      effort: "medium",
      notes: ["claude-opus-5-5 always thinks; MAX_THINKING_TOKENS=0 does not turn it off."],
    });
    expect(resolve("claude-opus-5", { maxThinkingTokens: 0, flagEffort: "max" }).notes).toEqual([
      "claude-opus-5 cannot turn thinking off at effort max; it keeps thinking (MAX_THINKING_TOKENS=0 applies at high or lower).",
    ]);
  });

  test("an unknown model id (a gateway's, a local model) gets only what was asked for", () => {
    expect(resolve("my-local-model")).toEqual({ thinking: undefined, effort: undefined, notes: [] });
    expect(resolve("my-local-model", { flagEffort: "low", maxThinkingTokens: 4_000 })).toEqual({ thinking: { type: "enabled", budget_tokens: 4_000 }, effort: "low", notes: [] });
  });
});

describe("effort", () => {
  test("CLAUDE_CODE_EFFORT_LEVEL outranks --effort, which outranks the effortLevel setting", () => {
    expect(resolve("claude-opus-5-5", { envEffort: "low", flagEffort: "high", settingEffort: "medium" }).effort).toBe("low");
    expect(resolve("claude-opus-5-5", { flagEffort: "high", settingEffort: "low" }).effort).toBe("high");
    expect(resolve("claude-opus-5-5", { settingEffort: "xhigh" }).effort).toBe("xhigh");
    expect(resolve("claude-opus-5-5", { envEffort: "auto", flagEffort: "high" }).effort).toBe("medium");
  });

  test("a bad CLAUDE_CODE_EFFORT_LEVEL is reported once and the next source applies", () => {
    const reasoning = new SessionReasoning({ ...none, envEffort: "hgih", flagEffort: "low" });
    expect(reasoning.takeStartNotes()).toEqual(["CLAUDE_CODE_EFFORT_LEVEL='hgih' is not an effort level (low, medium, high, xhigh, max or auto); it is ignored."]);
    expect(reasoning.takeStartNotes()).toEqual([]);
    expect(reasoning.resolve("claude-opus-5-5", 128_000).effort).toBe("low");
  });

  test("a level the model lacks falls back to the strongest one below it; a model without effort gets none", () => {
    expect(resolve("claude-opus-4-6", { flagEffort: "xhigh" })).toEqual({
      thinking: { type: "adaptive" },
      effort: "high",
      notes: ["Effort xhigh (--effort) is not available on claude-opus-4-6; using high (it accepts low, medium, high, max)."],
    });
    expect(resolve("claude-opus-4-5", { envEffort: "max" }).effort).toBe("high");
    expect(resolve("claude-haiku-4-5", { flagEffort: "high" })).toEqual({ thinking: undefined, effort: undefined, notes: ["claude-haiku-4-5 takes no effort level; effort high (--effort) is not sent."] });
  });

  test("/effort wins for the rest of the session, auto goes back to the model's default, and each model gets a level it accepts", () => {
    const reasoning = new SessionReasoning({ ...none, envEffort: "high" });
    const request: { model: string; maxTokens: number; effort?: "low" | "medium" | "high" | "xhigh" | "max" } = { model: "claude-opus-5-5", maxTokens: 128_000 };
    applyReasoning(request, reasoning);
    expect(request.effort).toBe("high");
    reasoning.setEffort("max");
    expect(applyReasoning(request, reasoning).requested).toEqual({ level: "max", source: "/effort" });
    expect(request.effort).toBe("max");
    request.model = "claude-haiku-5-5";
    expect(applyReasoning(request, reasoning).effort).toBe("high");
    request.model = "claude-haiku-4-5";
    applyReasoning(request, reasoning);
    expect("effort" in request).toBe(false);
    reasoning.setEffort("auto");
    request.model = "claude-opus-5-5";
    expect(reasoning.describeEffort(applyReasoning(request, reasoning))).toBe("medium (the model's default)");
  });

  test("model facts: dated ids find their family, unknown ids are marked unknown", () => {
    expect(modelReasoning("claude-sonnet-4-5-20250929").thinking).toBe("budget");
    expect(modelReasoning("claude-opus-4-6").effortLevels).toEqual(["low", "medium", "high", "max"]);
    expect(modelReasoning("gpt-oss-120b")).toEqual({ thinking: "unknown", off: "omit", thinksByDefault: false, effortLevels: [], defaultEffort: undefined });
  });
});

describe("helpers", () => {
  test("a helper agent's own effort comes first; without one it follows the session, fitted to its model", () => {
    const session = new SessionReasoning({ ...none, flagEffort: "xhigh" });
    expect(session.forHelper("low").resolve("claude-opus-5-5", 128_000).requested).toEqual({ level: "low", source: "the agent's definition" });
    expect(session.forHelper(undefined).resolve("claude-opus-4-6", 128_000).effort).toBe("high");
    session.setEffort("medium");
    expect(session.forHelper(undefined).resolve("claude-opus-5-5", 128_000).requested).toEqual({ level: "medium", source: "/effort" });
  });
});
