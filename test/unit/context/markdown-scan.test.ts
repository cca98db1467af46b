import { describe, expect, test } from "bun:test";
import { importReferences, stripHtmlComments } from "../../../src/context/markdown-scan.ts";

describe("importReferences", () => {
  test("finds path-like @references outside code, with escaped spaces", () => {
    const text = [
      "@first.md at line start, then @./rel/x.md and @../up.md",
      "home @~/notes.md, absolute @/etc/x.md, spaced @my\\ file.md",
      "not: a@b.md, @@twice, @#channel, `@code.md`, ```@x.md```",
      "````md",
      "```",
      "@still-fenced.md",
      "````",
      "after fence @after.md",
    ].join("\n");
    expect(importReferences(text)).toEqual([
      "first.md",
      "./rel/x.md",
      "../up.md",
      "~/notes.md,",
      "/etc/x.md,",
      "my file.md",
      "after.md",
    ]);
  });

  test("an unclosed backtick run is literal, an unclosed fence runs to the end", () => {
    expect(importReferences("a ` @one.md")).toEqual(["one.md"]);
    expect(importReferences("```\n@never.md")).toEqual([]);
  });
});

describe("stripHtmlComments", () => {
  test("keeps unterminated comments and indented-by-four text as written", () => {
    expect(stripHtmlComments("<!-- never closed\n@x.md")).toBe("<!-- never closed\n@x.md");
    expect(stripHtmlComments("    <!-- code -->\n   <!-- gone -->\nend")).toBe("    <!-- code -->\nend");
    expect(stripHtmlComments("<!-- a --><!-- b -->\nend")).toBe("end");
  });
});
