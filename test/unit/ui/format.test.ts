// One-line subjects, diffs and the condensed replay of a resumed conversation.
import { describe, expect, test } from "bun:test";
import { colorDiff, editPreview } from "../../../src/ui/diff.ts";
import { compactTokens, exactTokens, firstSentence, formatCost, formatDuration, relativeTime, shortenPaths, toolSubject } from "../../../src/ui/format.ts";
import { replayLines } from "../../../src/ui/replay.ts";
import { createTheme } from "../../../src/ui/theme.ts";

const plain = createTheme(false);

describe("tool subjects", () => {
  test("paths relative to the working directory, commands, patterns, fallbacks", () => {
    expect(toolSubject("Read", { file_path: "/repo/src/a.ts", offset: 10, limit: 5 }, "/repo")).toBe("src/a.ts (from line 10, 5 lines)");
    expect(toolSubject("Edit", { file_path: "/other/b.ts" }, "/repo")).toBe("/other/b.ts");
    expect(toolSubject("Bash", { command: "sleep 5", run_in_background: true }, "/repo")).toBe("sleep 5 (background)");
    expect(toolSubject("Bash", { command: "a\nb" }, "/repo")).toBe("a ⏎ b");
    expect(toolSubject("Grep", { pattern: "TODO", glob: "*.ts", path: "/repo/src" }, "/repo")).toBe('"TODO" (*.ts) in src');
    expect(toolSubject("Glob", { pattern: "**/*.md" }, "/repo")).toBe("**/*.md");
    expect(toolSubject("TodoWrite", { todos: [{}, {}] }, "/repo")).toBe("2 items");
    expect(toolSubject("mcp__x__y", { q: 1 }, "/repo")).toBe('{"q":1}');
    expect(toolSubject("Nothing", {}, "/repo")).toBe("");
  });

  test("numbers, money, time and sentences", () => {
    expect([compactTokens(950), compactTokens(12_345), compactTokens(2_500_000)]).toEqual(["950", "12.3k", "2.5M"]);
    expect(exactTokens(1234567)).toBe("1,234,567");
    expect([formatCost(0), formatCost(0.00123), formatCost(1.5)]).toEqual(["$0.00", "$0.0012", "$1.50"]);
    expect([formatDuration(4200), formatDuration(72_000)]).toEqual(["4.2s", "1m 12s"]);
    expect([relativeTime(0, 30_000), relativeTime(0, 5 * 60_000), relativeTime(0, 3 * 3_600_000), relativeTime(0, 50 * 3_600_000)]).toEqual(["just now", "5m ago", "3h ago", "2d ago"]);
    expect(firstSentence("It failed. Try again.")).toBe("It failed.");
    expect(shortenPaths("Edited /repo/a.ts (+1 -1)", "/repo")).toBe("Edited a.ts (+1 -1)");
  });
});

describe("diffs", () => {
  test("a unified diff without its file header, bounded", () => {
    const diff = ["--- a/x", "+++ b/x", "@@ -1,3 +1,3 @@", " keep", "-old", "+new"].join("\n");
    expect(colorDiff(diff, plain)).toEqual(["@@ -1,3 +1,3 @@", " keep", "-old", "+new"]);
    const long = Array.from({ length: 50 }, (_, i) => `+line ${i}`).join("\n");
    expect(colorDiff(long, plain, 3)).toEqual(["+line 0", "+line 1", "+line 2", "… 47 more lines"]);
  });

  test("a preview of an edit before it runs", () => {
    expect(editPreview("Edit", { old_string: "a\nb", new_string: "c" }, plain)).toEqual(["-a", "-b", "+c"]);
    expect(editPreview("Write", { content: "x\ny\n" }, plain)).toEqual(["+x", "+y"]);
    expect(editPreview("Bash", { command: "ls" }, plain)).toBeUndefined();
  });
});

describe("replay", () => {
  test("prompts, the model's text and one line per tool call; results and reminders left out", () => {
    const lines = replayLines(
      [
        { role: "user", content: [{ type: "text", text: "fix it\nplease" }, { type: "text", text: "<system-reminder>date</system-reminder>" }] },
        { role: "assistant", content: [{ type: "text", text: "Looking." }, { type: "tool_use", id: "t", name: "Read", input: { file_path: "/repo/a.ts" } }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: "1\ta" }] },
        { role: "assistant", content: "Fixed." },
      ],
      plain,
      "/repo",
    );
    expect(lines).toEqual(["", "> fix it", "  please", "", "Looking.", "● Read a.ts", "", "Fixed."]);
  });
});
