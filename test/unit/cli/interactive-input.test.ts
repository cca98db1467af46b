// What the interactive prompt does with its input, without a terminal: @mentions, #notes,
// completion, history, slash-command parsing and the approval view built from the gate's answer.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { approvalView } from "../../../src/cli/approval.ts";
import { appendHistory, loadHistory } from "../../../src/cli/history.ts";
import { appendNote, completeInput, resolveMentions, shellContext } from "../../../src/cli/prompt-input.ts";
import { commandNames, parseCommand } from "../../../src/cli/slash/index.ts";
import type { PermissionRequest } from "../../../src/permissions/types.ts";
import { createTheme } from "../../../src/ui/theme.ts";
import { tempDirectory } from "../../helpers/clew-process.ts";

const plain = createTheme(false);

describe("@mentions", () => {
  test("a file is attached with its path; trailing punctuation and quotes are not part of it", () => {
    const dir = tempDirectory("clew-mention-");
    mkdirSync(join(dir, "src"));
    writeFileSync(join(dir, "src", "a.ts"), "one\ntwo\n");
    writeFileSync(join(dir, "my notes.md"), "x");
    const result = resolveMentions('look at @src/a.ts, then @"my notes.md" and @src and @missing.ts', dir);
    expect(result.attachments.map((a) => a.summary)).toEqual(["Attached src/a.ts (2 lines)", "Attached my notes.md (1 line)", "Listed src/ (1 entries)"]);
    expect(result.attachments[0]?.text).toBe(`Contents of ${dir}/src/a.ts (mentioned by the user as @src/a.ts):\n<file path="${dir}/src/a.ts">\none\ntwo\n</file>`);
    expect(result.missing).toEqual(["missing.ts"]);
  });

  test("email addresses and handles are left alone; binary files are not attached", () => {
    const dir = tempDirectory("clew-mention-");
    writeFileSync(join(dir, "blob.bin"), Buffer.from([1, 0, 2]));
    expect(resolveMentions("mail me@example.com or ping @alice", dir)).toEqual({ attachments: [], missing: [], denied: [] });
    expect(resolveMentions("see @blob.bin", dir)).toEqual({ attachments: [], missing: ["blob.bin"], denied: [] });
  });
});

describe("@mentions and Read deny rules", () => {
  test("a denied file is not attached or read, a listing leaves it out, and a pasted denied image is refused too", () => {
    const dir = tempDirectory("clew-mention-deny-");
    writeFileSync(join(dir, ".env"), "SECRET=canary-41\n");
    writeFileSync(join(dir, "notes.md"), "hello\n");
    writeFileSync(join(dir, "shot.png"), Buffer.from("89504e470d0a1a0a", "hex"));
    const denied = (path: string) => path === join(dir, ".env") || path === join(dir, "shot.png");
    const result = resolveMentions(`compare @.env with @notes.md, list @. and look at ${join(dir, "shot.png")}`, dir, denied);
    expect(result.denied).toEqual([".env", join(dir, "shot.png")]);
    expect(result.missing).toEqual([]);
    expect(result.attachments.map((a) => a.summary)).toEqual(["Attached notes.md (1 line)", "Listed ./ (1 entries)"]);
    const sent = JSON.stringify(result.attachments.map((a) => a.blocks));
    expect(sent).not.toContain("canary-41");
    expect(sent).not.toContain(".env");
    expect(sent).not.toContain("shot.png");
  });
});

describe("#notes", () => {
  test("go to AGENTS.md (created if needed), or to an existing CLAUDE.md when there is no AGENTS.md", () => {
    const fresh = tempDirectory("clew-note-");
    expect(appendNote(fresh, "use bun")).toBe(join(fresh, "AGENTS.md"));
    appendNote(fresh, "run lint");
    expect(readFileSync(join(fresh, "AGENTS.md"), "utf8")).toBe("- use bun\n- run lint\n");

    const claude = tempDirectory("clew-note-");
    writeFileSync(join(claude, "CLAUDE.md"), "# Rules");
    expect(appendNote(claude, "be brief")).toBe(join(claude, "CLAUDE.md"));
    expect(readFileSync(join(claude, "CLAUDE.md"), "utf8")).toBe("# Rules\n- be brief\n");
  });
});

describe("completion", () => {
  test("commands at the start of the line, paths after @", () => {
    const dir = tempDirectory("clew-complete-");
    mkdirSync(join(dir, "src"));
    writeFileSync(join(dir, "src", "main.ts"), "");
    writeFileSync(join(dir, "src", "mod.ts"), "");
    expect(completeInput("/com", 4, commandNames(), dir)).toEqual({ start: 0, end: 4, candidates: ["/compact "] });
    expect(completeInput("/c", 2, commandNames(), dir)?.candidates).toEqual(["/clear ", "/compact ", "/config ", "/context ", "/continue ", "/cost "]);
    expect(completeInput("read @sr", 8, commandNames(), dir)).toEqual({ start: 5, end: 8, candidates: ["@src/"] });
    expect(completeInput("read @src/m", 11, commandNames(), dir)?.candidates).toEqual(["@src/main.ts", "@src/mod.ts"]);
    expect(completeInput("read @src/ma", 12, commandNames(), dir)?.candidates).toEqual(["@src/main.ts "]);
    expect(completeInput("not /a command", 6, commandNames(), dir)).toBeUndefined();
  });

  test("@ leaves out what git ignores (respectGitignore), nested .gitignore files included; false, or no repository, shows everything", () => {
    const dir = tempDirectory("clew-complete-git-");
    mkdirSync(join(dir, "src"));
    mkdirSync(join(dir, "dist"));
    writeFileSync(join(dir, ".gitignore"), "dist/\n*.log\n");
    writeFileSync(join(dir, "debug.log"), "");
    writeFileSync(join(dir, "deploy.md"), "");
    writeFileSync(join(dir, "src", ".gitignore"), "generated.ts\n");
    writeFileSync(join(dir, "src", "generated.ts"), "");
    writeFileSync(join(dir, "src", "good.ts"), "");
    const plain = tempDirectory("clew-complete-plain-");
    writeFileSync(join(plain, "debug.log"), "");
    writeFileSync(join(plain, "deploy.md"), "");
    expect(Bun.spawnSync(["git", "init", "-q", dir]).exitCode).toBe(0);
    expect({
      top: completeInput("@d", 2, [], dir)?.candidates,
      nested: completeInput("@src/g", 6, [], dir)?.candidates,
      off: completeInput("@d", 2, [], dir, { respectGitignore: false })?.candidates,
      noRepository: completeInput("@d", 2, [], plain)?.candidates,
    }).toEqual({
      top: ["@deploy.md "],
      nested: ["@src/good.ts "],
      off: ["@debug.log", "@deploy.md", "@dist/"],
      noRepository: ["@debug.log", "@deploy.md"],
    });
  });
});

describe("history", () => {
  test("appended as JSON lines, loaded oldest first, broken lines and repeats skipped", () => {
    const path = join(tempDirectory("clew-history-"), "p", "history.jsonl");
    expect(loadHistory(path)).toEqual([]);
    appendHistory(path, "first", new Date(1));
    appendHistory(path, "second\nline", new Date(2));
    appendHistory(path, "second\nline", new Date(3));
    writeFileSync(path, `${readFileSync(path, "utf8")}{"display": "cut off`);
    expect(loadHistory(path)).toEqual(["first", "second\nline"]);
  });
});

describe("slash commands", () => {
  test("parse name and arguments; aliases resolve; unknown names are reported, paths are prompts", () => {
    expect(parseCommand("/compact keep the API notes")).toMatchObject({ name: "compact", args: "keep the API notes", command: { name: "compact" } });
    expect(parseCommand("/quit")?.command?.name).toBe("exit");
    expect(parseCommand("/nope")).toMatchObject({ name: "nope", command: undefined });
    expect(parseCommand("/usr/bin/env is odd")).toBeUndefined();
  });
});

describe("approval view", () => {
  const request = (toolName: string, input: Record<string, unknown>, subject: string): PermissionRequest => ({ toolName, access: "exec", subject, input, toolUseId: "t" });

  test("a command with the narrowest rule to remember", () => {
    const view = approvalView(request("Bash", { command: "npm test", description: "Run tests" }, "npm test"), { behavior: "ask", reason: "needs approval.", suggestions: ["Bash(npm test *)"] }, plain, "/repo");
    expect(view).toEqual({ question: "Run this command?", detail: ["npm test", "Run tests", "needs approval."], alwaysLabel: "Yes, and don't ask again for Bash(npm test *) in /repo" });
  });

  test("an edit shows its diff and offers all edits for the session; an ask rule offers nothing to remember", () => {
    const edit = approvalView(request("Edit", { file_path: "/repo/a.ts", old_string: "a", new_string: "b" }, "/repo/a.ts"), { behavior: "ask", reason: "edits need approval." }, plain, "/repo");
    expect(edit).toEqual({ question: "Make this edit to a.ts?", detail: ["-a", "+b", "edits need approval."], alwaysLabel: "Yes, allow all edits during this session" });
    const asked = approvalView(request("Bash", { command: "git push" }, "git push"), { behavior: "ask", reason: "ask rule.", rule: "Bash(git push *)" }, plain, "/repo");
    expect(asked.alwaysLabel).toBeUndefined();
  });

  test("shell output for the next prompt uses Claude Code's tags", () => {
    expect(shellContext("ls", { exitCode: 0, stdout: "a\n", stderr: "", interrupted: false })).toBe(
      "The user ran a shell command in the session directory:\n<bash-input>ls</bash-input>\n<bash-stdout>a</bash-stdout>\n<bash-stderr></bash-stderr>",
    );
  });
});
