import { describe, expect, test } from "bun:test";
import { agentListingLines } from "../../../src/app/agent-listing.ts";

const agent = (name: string, description: string, tools?: string[]) => ({ name, description, ...(tools ? { tools } : {}) });
const words = (count: number, word = "review") => Array.from({ length: count }, (_, i) => `${word}${i}`).join(" ");

describe("the Agent tool's listing of agent definitions", () => {
  test("within the budget every line is whole", () => {
    const agents = [agent("api-designer", "Designs REST APIs.", ["Read", "Write"]), agent("tester", "Writes tests.")];
    expect(agentListingLines(agents, 16_000)).toEqual({
      lines: ["- api-designer: Designs REST APIs. (Tools: Read, Write)", "- tester: Writes tests. (Tools: *)"],
      shortened: false,
    });
  });

  test("over the budget every agent is still named, short descriptions stay whole and long ones are cut at a word", () => {
    const long = Array.from({ length: 40 }, (_, i) => agent(`plugin-${i}:expert`, `Expert for area ${i}. ${words(120)}`));
    const short = agent("a-short-one", "Checks links.");
    const { lines, shortened } = agentListingLines([short, ...long], 8_000);
    expect(shortened).toBe(true);
    expect(lines).toHaveLength(41);
    expect(lines.reduce((sum, text) => sum + text.length + 1, 0)).toBeLessThanOrEqual(8_000);
    expect(lines[0]).toBe("- a-short-one: Checks links. (Tools: *)");
    for (const [i, text] of lines.slice(1).entries()) {
      expect(text.startsWith(`- plugin-${i}:expert: Expert for area ${i}. review0`)).toBe(true);
      // Cut between words, marked as cut.
      expect(text).toMatch(/ review\d+… \(Tools: \*\)$/);
    }
  });

  test("when the descriptions would be only a few characters each, the names are listed alone", () => {
    const many = Array.from({ length: 400 }, (_, i) => agent(`marketplace-${i}:agent-${i}`, words(30)));
    const { lines, shortened } = agentListingLines(many, 16_000);
    expect(shortened).toBe(true);
    expect(lines[7]).toBe("- marketplace-7:agent-7 (Tools: *)");
    expect(lines).toHaveLength(400);
  });
});
