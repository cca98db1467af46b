import { describe, expect, test } from "bun:test";
import { firstAllowedModel, modelAllowed } from "../../../src/model/allowlist.ts";

describe("availableModels matching", () => {
  test("a family alias allows that family, and the id the alias is pinned to", () => {
    expect(modelAllowed("claude-sonnet-4-5", ["sonnet"])).toBe(true);
    expect(modelAllowed("claude-sonnet-5-5[1m]", ["sonnet"])).toBe(true);
    expect(modelAllowed("claude-opus-5-5", ["sonnet"])).toBe(false);
    expect(modelAllowed("my-gateway-model", ["sonnet"], { sonnet: "my-gateway-model" })).toBe(true);
  });

  test("a version prefix allows its line and dated ids, not a longer number", () => {
    expect(modelAllowed("claude-haiku-4-5", ["claude-haiku-4"])).toBe(true);
    expect(modelAllowed("claude-haiku-4-5-20251001", ["claude-haiku-4-5"])).toBe(true);
    expect(modelAllowed("claude-haiku-45", ["claude-haiku-4"])).toBe(false);
    expect(modelAllowed("claude-haiku-5-5", ["claude-haiku-4"])).toBe(false);
  });

  test("no list allows everything; an empty list allows nothing; the first model is the first entry resolved", () => {
    expect(modelAllowed("anything", undefined)).toBe(true);
    expect(modelAllowed("claude-sonnet-5-5", [])).toBe(false);
    expect(firstAllowedModel([" ", "haiku", "opus"])).toBe("claude-haiku-5-5");
    expect(firstAllowedModel([])).toBeUndefined();
  });
});
