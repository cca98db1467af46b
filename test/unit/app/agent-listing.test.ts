import { describe, expect, test } from "bun:test";
import { AGENT_LISTING_FORMAT, AGENT_LISTING_SHORTENED_NOTE, agentListingLines, fitAgentDescriptions, rememberAgentListing } from "../../../src/app/agent-listing.ts";

const agent = (name: string, description: string, tools?: string[]) => ({ name, description, ...(tools ? { tools } : {}) });
const words = (count: number, word = "review") => Array.from({ length: count }, (_, i) => `${word}${i}`).join(" ");

describe("the Agent tool's listing of agent definitions", () => {
  test("within the budget every line is whole", () => {
    const agents = [agent("api-designer", "Designs REST APIs.", ["Read", "Write"]), agent("tester", "Writes tests.")];
    expect(agentListingLines(agents, 16_000)).toEqual({
      lines: ["- api-designer: Designs REST APIs. (Tools: Read, Write)", "- tester: Writes tests. (Tools: *)"],
      shortened: false,
      format: AGENT_LISTING_FORMAT,
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

  test("descriptions fitted once (as the extensions summary stores them) list the same lines, still marked as shortened", () => {
    const agents = [agent("a-short-one", "Checks links."), ...Array.from({ length: 40 }, (_, i) => agent(`plugin-${i}:expert`, `Expert for area ${i}. ${words(120)}`, ["Read"]))];
    const fitted = fitAgentDescriptions(agents, 8_000);
    expect(fitted[0]).toBe(agents[0]);
    expect(fitted[1]).toEqual({ name: "plugin-0:expert", description: expect.stringMatching(/^Expert for area 0\. review0 .*review\d+…$/) as unknown as string, tools: ["Read"], shortened: true });
    expect(fitAgentDescriptions(fitted, 8_000)).toBe(fitted);
    expect(agentListingLines(fitted, 8_000)).toEqual(agentListingLines(agents, 8_000));
    // Within the budget nothing is cut, and the same list comes back.
    const few = agents.slice(0, 3);
    expect(fitAgentDescriptions(few, 16_000)).toBe(few);
  });

  test("a listing stored with its agents is what those very agents list as, in a copy of the list too; other agents are worked out", () => {
    const agents = [agent("tester", "Writes tests."), agent("linter", "Lints.")];
    const stored = { lines: ["- tester: stored (Tools: *)", "- linter: stored (Tools: *)"], shortened: true, format: AGENT_LISTING_FORMAT };
    rememberAgentListing(agents, stored);
    expect(agentListingLines(agents)).toEqual(stored);
    expect(agentListingLines([...agents])).toEqual(stored);
    const worked = { lines: ["- tester: Writes tests. (Tools: *)", "- linter: Lints. (Tools: *)"], shortened: false };
    // Fewer agents, equal but other objects, another budget: not the stored list.
    expect(agentListingLines(agents.slice(0, 1))).toEqual({ lines: ["- tester: Writes tests. (Tools: *)"], shortened: false, format: AGENT_LISTING_FORMAT });
    expect(agentListingLines(agents.map((item) => ({ ...item })))).toEqual({ ...worked, format: AGENT_LISTING_FORMAT });
    expect(agentListingLines(agents, 8_000)).toEqual(worked);
  });

  test("a listing stored in another format (an older clew's summary) is not used", () => {
    const agents = [agent("tester", "Writes tests.")];
    rememberAgentListing(agents, { lines: ["tester — old style"], shortened: false, format: "0/16000" });
    expect(agentListingLines(agents)).toEqual({ lines: ["- tester: Writes tests. (Tools: *)"], shortened: false, format: AGENT_LISTING_FORMAT });
  });

  test("the note names the budget with its digits grouped", () => {
    expect(AGENT_LISTING_SHORTENED_NOTE).toBe("(Descriptions are shortened to keep this list under 16,000 characters; every helper type is named.)");
  });
});
