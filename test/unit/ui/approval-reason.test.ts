// The approval prompt's one line on why it asks, derived from the gate's reason as
// permissions/reasons.ts writes it; and the prompt's detail: the command once, the short
// reason by default, the gate's whole reason with --verbose.
import { describe, expect, test } from "bun:test";
import { approvalView } from "../../../src/cli/approval.ts";
import { askedByRule, fullReason, needsApproval, withUnapplied } from "../../../src/permissions/reasons.ts";
import { compileRules } from "../../../src/permissions/rules.ts";
import type { PermissionCall, PermissionEvaluation, PermissionRequest } from "../../../src/permissions/types.ts";
import { briefReason } from "../../../src/ui/approval-reason.ts";
import { cellWidth } from "../../../src/ui/fit.ts";
import { createTheme } from "../../../src/ui/theme.ts";

const plain = createTheme(false);

function bash(command: string): PermissionCall {
  return { toolName: "Bash", access: "exec", input: { command }, subject: command };
}

function brief(call: PermissionCall, evaluation: PermissionEvaluation): string {
  return briefReason(evaluation.reason, { toolName: call.toolName, subject: call.subject, ...(evaluation.rule ? { rule: evaluation.rule } : {}) });
}

function askRule(text: string) {
  const rule = compileRules([{ text, kind: "ask", source: { scope: "project", file: "/repo/.clew/settings.json", root: "/repo" } }]).ask[0];
  if (!rule) throw new Error(`${text} did not compile`);
  return rule;
}

describe("why the prompt asks, in one short line", () => {
  test("a command no rule covers: named only when it is not the whole command line", () => {
    const single = bash("npm publish --access public");
    expect(brief(single, needsApproval(single, "no allow rule or read-only check covers `npm publish --access public`"))).toBe("no rule allows this command");
    const compound = bash("git add . && npm publish");
    expect(brief(compound, needsApproval(compound, "no allow rule or read-only check covers `npm publish`"))).toBe("no rule allows `npm publish`");
    const both = bash("git add src/a.ts && git commit -m 'the notes'");
    expect(brief(both, needsApproval(both, "no allow rule or read-only check covers `git add src/a.ts`, `git commit -m the notes`"))).toBe("no rule allows any of these commands");
    const many = bash("a; b; c; d");
    expect(brief(many, needsApproval(many, "no allow rule or read-only check covers `a`, `b`, `c` and more"))).toBe("no rule allows `a`, `b`, `c` and more");
  });

  test("an ask rule is named without the file it came from", () => {
    const push = bash("git push origin main");
    const evaluation = askedByRule(push, askRule("Bash(git push *)"), "`git push origin main`");
    expect(evaluation.reason).toContain("/repo/.clew/settings.json");
    expect(brief(push, evaluation)).toBe("matches the ask rule Bash(git push *)");
  });

  test("paths and safety checks keep their first clause; the policy after it goes", () => {
    const write = bash("echo x > /etc/motd");
    expect(brief(write, needsApproval(write, "it writes /etc/motd, outside the working directories"))).toBe("writes /etc/motd, outside the working directories");
    const edit: PermissionCall = { toolName: "Edit", access: "write", input: { file_path: "/other/a.ts" }, subject: "/other/a.ts" };
    expect(brief(edit, needsApproval(edit, "the path is outside the working directories"))).toBe("outside the working directories");
    const git: PermissionCall = { toolName: "Edit", access: "write", input: { file_path: "/repo/.git/config" }, subject: "/repo/.git/config" };
    expect(brief(git, needsApproval(git, "it is inside .git/, which can change how tools or the agent behave; writes there are never approved automatically"))).toBe(
      "inside .git/, which can change how tools or the agent behave",
    );
    const rm = bash("rm -rf ~");
    expect(brief(rm, needsApproval(rm, "it removes ~, a critical path (the root, a top-level or home directory, a working directory or a parent of one); no rule can approve that"))).toBe(
      "removes ~, a critical path",
    );
    const fetch: PermissionCall = { toolName: "WebFetch", access: "network", input: { url: "https://x.dev" }, subject: "https://x.dev" };
    expect(brief(fetch, needsApproval(fetch, "no allow rule covers it"))).toBe("no rule allows WebFetch here");
  });

  test("a call the reason names in a shortened or multi-line form is still found", () => {
    const long = bash(`echo ${"a".repeat(220)} && npm publish`);
    expect(brief(long, needsApproval(long, "no allow rule or read-only check covers `npm publish`"))).toBe("no rule allows `npm publish`");
    const lines = bash("make build\nmake needs approval: test\necho done");
    expect(brief(lines, needsApproval(lines, "no allow rule or read-only check covers `make build`, `make needs approval: test`"))).toBe(
      "no rule allows `make build`, `make needs approval: test`",
    );
  });

  test("wording it does not know: the reason's first sentence", () => {
    expect(briefReason("Approval is needed. Because of reasons.", { toolName: "Bash", subject: "x" })).toBe("Approval is needed.");
  });
});

describe("the approval view", () => {
  const command = "npm publish --access public";
  const request: PermissionRequest = { toolName: "Bash", access: "exec", subject: command, input: { command, description: "Publish the package" }, toolUseId: "t1" };
  const evaluation = needsApproval(bash(command), `no allow rule or read-only check covers \`${command}\``, ["Bash(npm publish *)"]);

  test("the command once: left out when the tool line above shows it in full", () => {
    const view = approvalView(request, evaluation, plain, "/repo", { shown: (text) => text === command });
    expect(view).toEqual({
      question: "Run this command?",
      detail: ["Publish the package", "no rule allows this command"],
      alwaysLabel: "Yes, and don't ask again for Bash(npm publish *) in /repo",
    });
  });

  test("shown in the prompt when the tool line cut it or other output came between", () => {
    const view = approvalView(request, evaluation, plain, "/repo", { shown: () => false });
    expect(view.detail).toEqual([command, "Publish the package", "no rule allows this command"]);
  });

  test("--verbose shows the gate's whole reason, as the model gets it", () => {
    const view = approvalView(request, evaluation, plain, "/repo", { shown: () => true, verbose: true });
    expect(view.detail).toEqual(["Publish the package", evaluation.reason]);
  });

  test("the reason stays one row at a narrow width", () => {
    const long = needsApproval(bash(command), "it reads $HOME/secrets/and/more/of/it, a path only known at run time, and Read deny rules are in force");
    const view = approvalView(request, long, plain, "/repo", { shown: () => true, width: 40 });
    const reason = view.detail.at(-1) ?? "";
    expect(reason).toBe("reads $HOME/secrets/and/more/of/it, a…");
    expect(cellWidth(reason)).toBeLessThanOrEqual(38);
  });

  test("another tool: its subject is in the question, not repeated below it", () => {
    const fetch: PermissionRequest = { toolName: "WebFetch", access: "network", subject: "https://x.dev", input: { url: "https://x.dev" }, toolUseId: "t2" };
    const asked = needsApproval({ toolName: "WebFetch", access: "network", input: fetch.input, subject: fetch.subject }, "no allow rule covers it", ["WebFetch(domain:x.dev)"]);
    expect(approvalView(fetch, asked, plain, "/repo")).toEqual({
      question: "Allow WebFetch on https://x.dev?",
      detail: ["no rule allows WebFetch here"],
      alwaysLabel: "Yes, and don't ask again for WebFetch(domain:x.dev) in /repo",
    });
  });

  test("an allow rule that would cover the call but is not in force gets its own short line, with what to do", () => {
    const unapplied = withUnapplied(evaluation, [
      { rule: "Bash(npm publish *)", origin: "/repo/.clew/settings.json", why: "this folder is not trusted, and the shared project settings of an untrusted folder cannot allow anything", fix: 'run `clew trust "/repo"` once you trust this folder' },
    ]);
    expect(fullReason(unapplied)).toContain("The allow rule Bash(npm publish *) in /repo/.clew/settings.json would allow it but is not in force");
    const view = approvalView(request, unapplied, plain, "/repo", { shown: () => true });
    expect(view.detail).toEqual([
      "Publish the package",
      "no rule allows this command",
      'Bash(npm publish *) is not in force: this folder is not trusted (run `clew trust "/repo"` once you trust this folder)',
    ]);
  });
});
