// Rendering (spec A.6): substitutions, then `!` commands and `@` files, carried out by a port.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  completeInvocation, grantedRules, prepareInvocation, renderInvocation, SHELL_DISABLED_NOTICE, skillMessage,
  type FileOutcome, type RenderAction, type RenderInput, type RenderPort, type ShellOutcome,
} from "../../../src/extensions/render.ts";
import { splitArguments, substitute, substituteVariables } from "../../../src/extensions/substitute.ts";
import type { ComponentSource } from "../../../src/extensions/types.ts";
import { tempDir, writeTree } from "./helpers.ts";

const PROJECT: ComponentSource = { scope: "project", root: "/repo/.claude", skills: [], commands: [], agents: [] };
const PLUGIN: ComponentSource = { scope: "plugin", namespace: "acme", root: "/plugins/acme", skills: [], commands: [], agents: [], pluginData: "/data/acme" };
const VARS = { sessionId: "sess-1", projectDir: "/repo", effort: "high" };

function input(body: string, args = "", overrides: Partial<RenderInput["item"]> = {}): RenderInput {
  return { item: { dir: "/repo/.claude/skills/x", argumentNames: [], shell: "bash", source: PROJECT, ...overrides }, body, args, vars: VARS };
}

describe("splitArguments", () => {
  test("shell-style words: quotes group, backslash escapes, empty quotes are a word", () => {
    expect(splitArguments(`456 "high priority" 'it''s' a\\ b ""`)).toEqual(["456", "high priority", "its", "a b", ""]);
    expect(splitArguments("   ")).toEqual([]);
    expect(splitArguments(`"unterminated rest`)).toEqual(["unterminated rest"]);
  });
});

describe("substitutions", () => {
  const target = { dir: "/skills/x", argumentNames: ["issue", "branch"] };

  test("$ARGUMENTS, $ARGUMENTS[N] and $N are 0-based; a missing index stays as written", () => {
    const result = substitute("all=$ARGUMENTS first=$0 second=$ARGUMENTS[1] none=$5 ten=$ARGUMENTS[10]", `12 "fix it"`, { dir: "/d", argumentNames: [] }, VARS);
    expect(result.text).toBe(`all=12 "fix it" first=12 second=fix it none=$5 ten=$ARGUMENTS[10]`);
    expect(result.usesArguments).toBe(true);
  });

  test("named arguments from the arguments field; a missing one is empty; longer names are not cut", () => {
    expect(substitute("issue=$issue branch=$branch issues=$issues", "42", target, VARS).text).toBe("issue=42 branch= issues=$issues");
  });

  test("one backslash keeps a token literal; two backslashes do not; ${…} cannot be escaped", () => {
    expect(substitute("\\$0 \\$ARGUMENTS \\$issue \\\\$0 \\${CLAUDE_SESSION_ID}", "a", target, VARS).text).toBe("$0 $ARGUMENTS $issue \\\\a \\sess-1");
  });

  test("variables: session, effort, skill dir, project dir; plugin ones only when given; unknown ones stay", () => {
    const text = "${CLAUDE_SESSION_ID} ${CLAUDE_EFFORT} ${CLAUDE_SKILL_DIR} ${CLAUDE_PROJECT_DIR} ${CLAUDE_PLUGIN_ROOT} ${CLAUDE_NOPE} ${user_config.region}";
    expect(substitute(text, "", target, VARS)).toEqual({ text: "sess-1 high /skills/x /repo ${CLAUDE_PLUGIN_ROOT} ${CLAUDE_NOPE} ${user_config.region}", usesArguments: false, argumentSpans: [] });
    expect(substituteVariables("Bash(${CLAUDE_PLUGIN_ROOT}/bin/x *) ${user_config.region}", target, { ...VARS, pluginRoot: "/p", userConfig: { region: "eu" } })).toBe("Bash(/p/bin/x *) eu");
  });

  test("a value put in is not scanned again for tokens", () => {
    expect(substitute("$0 $1", "$1 ${CLAUDE_SESSION_ID}", target, VARS).text).toBe("$1 ${CLAUDE_SESSION_ID}");
  });
});

describe("prepareInvocation", () => {
  test("arguments are appended when the body has no placeholder, and only then", () => {
    expect(prepareInvocation(input("Do the thing.\n", "now please")).text).toBe("Do the thing.\n\nARGUMENTS: now please");
    expect(prepareInvocation(input("Do $0.\n", "now please")).text).toBe("Do now.\n");
    expect(prepareInvocation(input("Do the thing.\n", "  ")).text).toBe("Do the thing.\n");
  });

  test("plugin items get ${CLAUDE_PLUGIN_ROOT} and ${CLAUDE_PLUGIN_DATA} from their source", () => {
    expect(prepareInvocation(input("${CLAUDE_PLUGIN_ROOT} ${CLAUDE_PLUGIN_DATA}", "", { source: PLUGIN })).text).toBe("/plugins/acme /data/acme");
  });

  test("finds !`cmd` at line start or after whitespace, ```! blocks and @files, in order; skips code examples and args", () => {
    const body = [
      "Status: !`git status --short`",
      "KEY=!`not a command`",
      "!`git diff`",
      "```!",
      "npm test",
      "npm run lint",
      "```",
      "```md",
      "Example: !`rm -rf /` and @secret.txt",
      "```",
      "See @src/app.ts, @\"docs/a b.md\" and @agent-reviewer or mail me@x.com or @team.",
      "Issue: $ARGUMENTS",
    ].join("\n");
    const prepared = prepareInvocation(input(body, "!`curl evil` @/etc/passwd"));
    expect(prepared.actions).toEqual([
      { kind: "shell", form: "inline", command: "git status --short", shell: "bash", pattern: "!`git status --short`" },
      { kind: "shell", form: "inline", command: "git diff", shell: "bash", pattern: "!`git diff`" },
      { kind: "shell", form: "block", command: "npm test\nnpm run lint", shell: "bash", pattern: "```!\nnpm test\nnpm run lint\n```" },
      { kind: "file", path: "src/app.ts" },
      { kind: "file", path: "docs/a b.md" },
    ]);
    expect(prepared.spans.map((span) => prepared.text.slice(span.start, span.end))).toEqual([
      "!`git status --short`", "!`git diff`", "```!\nnpm test\nnpm run lint\n```", "@src/app.ts", "@\"docs/a b.md\"",
    ]);
  });

  test("with shell execution disabled by policy each command becomes a notice and nothing is requested", () => {
    const prepared = prepareInvocation({ ...input("A !`date` B @x/y.md\n```!\nls\n```\nC"), shellExecution: "disabled" });
    expect(prepared.text).toBe(`A ${SHELL_DISABLED_NOTICE} B @x/y.md\n${SHELL_DISABLED_NOTICE}\nC`);
    expect(prepared.actions).toEqual([{ kind: "file", path: "x/y.md" }]);
    expect(prepared.text.slice(prepared.spans[0]?.start, prepared.spans[0]?.end)).toBe("@x/y.md");
  });

  test("the shell policy does not apply to managed skills", () => {
    const managed: ComponentSource = { ...PROJECT, scope: "managed" };
    const prepared = prepareInvocation({ ...input("!`date`", "", { source: managed }), shellExecution: "disabled" });
    expect(prepared.actions).toEqual([{ kind: "shell", form: "inline", command: "date", shell: "bash", pattern: "!`date`" }]);
  });

  test("granted rules get the skill and plugin folders filled in; the injected message names the skill folder", () => {
    const item = { dir: "/plugins/acme/skills/x", argumentNames: [], shell: "bash" as const, source: PLUGIN, allowedTools: ["Bash(${CLAUDE_SKILL_DIR}/run.sh *)", "Bash(${CLAUDE_PLUGIN_ROOT}/bin/*)", "Read"] };
    expect(grantedRules(item, VARS)).toEqual(["Bash(/plugins/acme/skills/x/run.sh *)", "Bash(/plugins/acme/bin/*)", "Read"]);
    expect(skillMessage(item, "Do it.")).toBe("Base directory for this skill: /plugins/acme/skills/x\n\nDo it.");
  });

  test("powershell skills ask for powershell; ultrathink is noticed", () => {
    const prepared = prepareInvocation(input("ultrathink about !`Get-Date`", "", { shell: "powershell" }));
    expect([prepared.actions[0]?.kind === "shell" && prepared.actions[0].shell, prepared.deepThinking]).toEqual(["powershell", true]);
  });
});

/** A port that answers from a script and records what it was asked, in order. */
function scripted(answers: Record<string, ShellOutcome | FileOutcome>): { port: RenderPort; asked: RenderAction[] } {
  const asked: RenderAction[] = [];
  const answer = async (action: RenderAction) => {
    asked.push(action);
    const key = action.kind === "shell" ? action.command : action.path;
    const outcome = answers[key];
    if (!outcome) throw new Error(`unexpected request ${key}`);
    return outcome;
  };
  return { port: { runShell: answer as RenderPort["runShell"], readFile: answer as RenderPort["readFile"] }, asked };
}

describe("renderInvocation", () => {
  test("outputs replace their placeholders (not re-scanned); files are attached; missing files are listed", async () => {
    const { port, asked } = scripted({
      "git branch": { status: "ran", exitCode: 0, output: "main\n!`echo injected`\n\n" },
      "src/a.ts": { status: "read", content: "export {}\n" },
      "nope.md": { status: "unavailable", reason: "not found" },
    });
    const result = await renderInvocation(input("On !`git branch` see @src/a.ts and @nope.md"), port);
    expect(result).toEqual({
      ok: true,
      text: "On main\n!`echo injected` see @src/a.ts and @nope.md",
      attachments: [{ path: "src/a.ts", content: "export {}\n" }],
      unavailable: [{ path: "nope.md", reason: "not found" }],
      deepThinking: false,
    });
    expect(asked.map((action) => (action.kind === "shell" ? action.command : action.path))).toEqual(["git branch", "src/a.ts", "nope.md"]);
  });

  test("a failing command aborts the invocation and later commands do not run; exit 1 of grep is not a failure", async () => {
    const { port, asked } = scripted({
      "grep -c TODO src/x.ts": { status: "ran", exitCode: 1, output: "0\n" },
      "make check": { status: "ran", exitCode: 2, output: "boom\n" },
      "date": { status: "ran", exitCode: 0, output: "today" },
    });
    const result = await renderInvocation(input("!`grep -c TODO src/x.ts` then !`make check` then !`date`"), port);
    expect(result).toEqual({ ok: false, code: "shell-failed", pattern: "!`make check`", message: 'Shell command failed for pattern "!`make check`": exit code 2\nboom' });
    expect(asked.map((action) => action.kind === "shell" && action.command)).toEqual(["grep -c TODO src/x.ts", "make check"]);
  });

  test("a command the permission check does not allow aborts with that reason", async () => {
    const { port } = scripted({ "rm -rf build": { status: "denied", reason: "needs approval; add Bash(rm -rf build) to allowed-tools" } });
    expect(await renderInvocation(input("!`rm -rf build`"), port)).toEqual({
      ok: false,
      code: "shell-denied",
      pattern: "!`rm -rf build`",
      message: 'Shell command permission check failed for pattern "!`rm -rf build`": needs approval; add Bash(rm -rf build) to allowed-tools',
    });
  });

  test("completeInvocation refuses outcomes that do not match the actions", () => {
    const prepared = prepareInvocation(input("!`date`"));
    expect(() => completeInvocation(prepared, [])).toThrow("no outcome for action 0");
  });

  test("with a port that runs real processes and reads real files", async () => {
    const cwd = tempDir();
    writeTree(cwd, { "notes/todo.md": "- ship\n" });
    const port: RenderPort = {
      async runShell(action) {
        const child = Bun.spawn(["bash", "-c", action.command], { cwd, stdout: "pipe", stderr: "pipe" });
        const [output, exitCode] = await Promise.all([new Response(child.stdout).text(), child.exited]);
        return { status: "ran", exitCode, output };
      },
      async readFile(action) {
        return { status: "read", content: readFileSync(join(cwd, action.path), "utf8") };
      },
    };
    const result = await renderInvocation(input("Files:\n```!\nprintf 'a\\nb\\n' | wc -l\n```\nRead @notes/todo.md for $0", "today"), port);
    expect(result).toEqual({ ok: true, text: "Files:\n2\nRead @notes/todo.md for today", attachments: [{ path: "notes/todo.md", content: "- ship\n" }], unavailable: [], deepThinking: false });
  });
});
