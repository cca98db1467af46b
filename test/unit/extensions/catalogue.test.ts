import { describe, expect, test } from "bun:test";
import { listingDescription, MAX_LISTING_DESCRIPTION, skillCatalogue } from "../../../src/extensions/catalogue.ts";

function item(name: string, description: string, extra: { whenToUse?: string; modelInvocable?: boolean } = {}) {
  return { name, description, modelInvocable: extra.modelInvocable ?? true, ...(extra.whenToUse ? { whenToUse: extra.whenToUse } : {}) };
}

describe("skillCatalogue", () => {
  test("one line per model-invocable item, sorted by name, description and when_to_use on one line", () => {
    const text = skillCatalogue([
      item("zeta", "Last one."),
      item("acme:review", "Reviews\n  code.", { whenToUse: "After edits." }),
      item("secret", "User only.", { modelInvocable: false }),
      item("bare", ""),
    ]);
    expect(text).toBe("- acme:review: Reviews code. After edits.\n- bare\n- zeta: Last one.");
  });

  test("the order does not depend on the input order", () => {
    const items = [item("b", "two"), item("a", "one"), item("c", "three")];
    expect(skillCatalogue(items)).toBe(skillCatalogue([...items].reverse()));
  });

  test("descriptions are cut at 1,536 characters", () => {
    const long = "x".repeat(2000);
    expect(listingDescription({ description: long }).length).toBe(MAX_LISTING_DESCRIPTION);
    expect(listingDescription({ description: long }).endsWith("…")).toBe(true);
    expect(listingDescription({ description: "short", whenToUse: "when asked" })).toBe("short when asked");
  });

  test("over budget, the least used lose their descriptions first; every name stays", () => {
    const items = [item("a", "x".repeat(40)), item("b", "y".repeat(40)), item("c", "z".repeat(40))];
    const usage = new Map([["a", 5], ["b", 0], ["c", 2]]);
    expect(skillCatalogue(items, { budgetChars: 110, usage })).toBe(`- a: ${"x".repeat(40)}\n- b\n- c: ${"z".repeat(40)}`);
    expect(skillCatalogue(items, { budgetChars: 10, usage })).toBe("- a\n- b\n- c");
  });
});
