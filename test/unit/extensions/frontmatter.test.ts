import { describe, expect, test } from "bun:test";
import { parseFrontmatter, splitFrontmatter } from "../../../src/extensions/frontmatter.ts";
import { SKILL_FIELDS } from "../../../src/extensions/skill-meta.ts";

const FILE = "/work/x/SKILL.md";

async function parse(text: string) {
  return parseFrontmatter(FILE, splitFrontmatter(text), SKILL_FIELDS);
}

describe("splitFrontmatter", () => {
  test("the block runs from the opening --- to the next --- line; the body follows", () => {
    const text = "---\nname: a\n---\n# Title\n";
    expect(splitFrontmatter(text)).toEqual({ block: "---\nname: a\n---\n", bodyOffset: 16, bodyLine: 4, unclosed: false });
    expect(text.slice(16)).toBe("# Title\n");
  });

  test("no --- on line 1 means no frontmatter", () => {
    expect(splitFrontmatter("# Title\n---\nx: 1\n---\n")).toEqual({ block: undefined, bodyOffset: 0, bodyLine: 1, unclosed: false });
    // `---js` is not a fence: gray-matter's JavaScript engine (which evals) is never reached.
    expect(splitFrontmatter("---js\n{ a: 1 }\n---\n").block).toBeUndefined();
  });

  test("CRLF line ends, a byte-order mark and a closing fence at the end of the file", () => {
    expect(splitFrontmatter("\uFEFF---\r\nname: a\r\n---\r\nbody")).toEqual({ block: "---\r\nname: a\r\n---\r\n", bodyOffset: 20, bodyLine: 4, unclosed: false });
    expect(splitFrontmatter("---\nname: a\n---")).toEqual({ block: "---\nname: a\n---", bodyOffset: 15, bodyLine: 4, unclosed: false });
  });

  test("an opening fence without a closing one is reported as unclosed", () => {
    expect(splitFrontmatter("---\nname: a\nbody\n")).toEqual({ block: undefined, bodyOffset: 0, bodyLine: 1, unclosed: true });
  });
});

describe("parseFrontmatter", () => {
  test("valid YAML gives the data and the line of every key", async () => {
    expect(await parse("---\nname: deploy\ndescription: Ships it\nallowed-tools: [Read, Grep]\n---\nbody")).toEqual({
      data: { name: "deploy", description: "Ships it", "allowed-tools": ["Read", "Grep"] },
      mode: "yaml",
      lines: { name: 2, description: 3, "allowed-tools": 4 },
      problems: [],
    });
  });

  test("an unquoted [a] [\"b\"] value (invalid YAML) is recovered as text, with a warning naming the line", async () => {
    const result = await parse('---\ndescription: Add a new agent\nargument-hint: [agent-name] ["description"]\n---\nbody');
    expect(result.mode).toBe("lenient");
    expect(result.data).toEqual({ description: "Add a new agent", "argument-hint": '[agent-name] ["description"]' });
    expect(result.problems).toEqual([{
      code: "yaml-error",
      severity: "warning",
      file: FILE,
      line: 3,
      message: expect.stringContaining("loaded anyway with description, argument-hint read line by line"),
    }]);
  });

  test("the same broken text parsed twice fails and recovers twice (gray-matter's cache is bypassed)", async () => {
    const text = "---\nname: x\ndescription: Use it: always\n---\n";
    const first = await parse(text);
    const second = await parse(text);
    expect(second).toEqual(first);
    expect(second.data).toEqual({ name: "x", description: "Use it: always" });
    expect(second.problems.map((problem) => problem.code)).toEqual(["yaml-error"]);
  });

  test("an unindented multi-line description with user:/assistant: example lines stays one description", async () => {
    const text = [
      "---",
      "name: reviewer",
      "description: Use this agent after a change. Examples:",
      "",
      "<example>",
      "Context: the user wrote code",
      "user: \"review it\"",
      "assistant: \"I'll use the reviewer\"",
      "</example>",
      "model: sonnet",
      "color: yellow",
      "---",
      "",
    ].join("\n");
    const result = await parse(text);
    expect(result.data).toEqual({
      name: "reviewer",
      description: "Use this agent after a change. Examples:\n\n<example>\nContext: the user wrote code\nuser: \"review it\"\nassistant: \"I'll use the reviewer\"\n</example>",
      model: "sonnet",
      color: "yellow",
    });
    expect(result.problems[0]?.code).toBe("yaml-error");
  });

  test("frontmatter that is a list, not key: value lines, is reported", async () => {
    const result = await parse("---\n- a\n- b\n---\n");
    expect(result.data).toEqual({});
    expect(result.problems).toEqual([{ code: "frontmatter-not-map", severity: "warning", file: FILE, line: 2, message: expect.stringContaining("is a list") }]);
  });

  test("an empty block is empty data, not a problem", async () => {
    expect(await parse("---\n---\nbody")).toEqual({ data: {}, mode: "yaml", lines: {}, problems: [] });
  });

  test("no frontmatter", async () => {
    expect(await parse("# Just a body\n")).toEqual({ data: {}, mode: "none", lines: {}, problems: [] });
  });
});
