// The Gate around evaluate(): asking through the approval port, headless denials, dontAsk, and
// "allow for this session" grants kept in memory.
import { beforeAll, describe, expect, test } from "bun:test";
import { createGate } from "../../../src/permissions/gate.ts";
import type { ApprovalAnswer, PermissionContext, PermissionEvaluation, PermissionMode, PermissionRequest } from "../../../src/permissions/types.ts";
import { contextFor, makeProject, rulesFor, type Project } from "./fixture.ts";

let project: Project;
beforeAll(() => {
  project = makeProject();
});

function bash(command: string): PermissionRequest {
  return { toolName: "Bash", access: "exec", subject: command, input: { command }, toolUseId: "toolu_1" };
}

function recordingPort(answers: ApprovalAnswer[]) {
  const asked: Array<{ request: PermissionRequest; evaluation: PermissionEvaluation }> = [];
  const ask = async (request: PermissionRequest, evaluation: PermissionEvaluation) => {
    asked.push({ request, evaluation });
    return answers.shift() ?? { allow: false };
  };
  return { ask, asked };
}

describe("createGate", () => {
  test("without a port an ask becomes a denial the model can act on", async () => {
    const gate = createGate({ rules: rulesFor({ allow: ["Bash(npm test *)"] }, project.cwd), context: contextFor(project) });
    expect(await gate.check(bash("npm test"))).toEqual({ behavior: "allow", rule: "Bash(npm test *)" });
    const denied = await gate.check(bash("rm -rf build"));
    expect(denied.behavior).toBe("deny");
    expect(denied.behavior === "deny" && denied.reason).toBe(
      "Bash command `rm -rf build` needs approval: no allow rule or read-only check covers `rm -rf build`, and nobody can approve it in this session. Do not retry it in another form (another tool, command or path); continue with what you can do, or tell the user what you need and why.",
    );
  });

  test("deny rules keep their rule name", async () => {
    const gate = createGate({ rules: rulesFor({ deny: ["Bash(curl *)"] }, project.cwd), context: contextFor(project) });
    const decision = await gate.check(bash("curl x"));
    expect(decision.behavior === "deny" && decision.rule).toBe("Bash(curl *)");
  });

  test("the port answers asks; a rejection carries the user's words", async () => {
    const port = recordingPort([{ allow: true }, { allow: false, reason: "use the staging bucket" }]);
    const gate = createGate({ rules: rulesFor({}, project.cwd), context: contextFor(project), ask: port.ask });
    expect(await gate.check(bash("aws s3 ls"))).toEqual({ behavior: "allow" });
    const rejected = await gate.check(bash("aws s3 rm x"));
    expect(rejected.behavior === "deny" && rejected.reason).toContain("The user said: use the staging bucket");
    expect(port.asked.map((entry) => entry.evaluation.suggestions)).toEqual([["Bash(aws s3 ls)"], ["Bash(aws s3 rm x)"]]);
  });

  test("remembered rules are session grants: the next matching call is not asked", async () => {
    const port = recordingPort([{ allow: true, remember: ["Bash(make *)"] }]);
    const gate = createGate({ rules: rulesFor({}, project.cwd), context: contextFor(project), ask: port.ask });
    expect(await gate.check(bash("make build"))).toEqual({ behavior: "allow" });
    expect(await gate.check(bash("make test"))).toEqual({ behavior: "allow", rule: "Bash(make *)" });
    expect(port.asked).toHaveLength(1);
    expect(gate.sessionGrants()).toEqual(["Bash(make *)"]);
  });

  test("session grants never override deny rules or critical paths", async () => {
    const gate = createGate({ rules: rulesFor({ deny: ["Bash(make deploy)"] }, project.cwd), context: contextFor(project) });
    expect(gate.grant(["Bash(make *)", "Bash(rm *)"])).toEqual([]);
    expect((await gate.check(bash("make deploy"))).behavior).toBe("deny");
    expect((await gate.check(bash("rm -rf /"))).behavior).toBe("deny");
    expect((await gate.check(bash("rm -rf build"))).behavior).toBe("allow");
  });

  test("a malformed grant is reported, not thrown", async () => {
    const gate = createGate({ rules: rulesFor({}, project.cwd), context: contextFor(project) });
    expect(gate.grant(["Bash(make *"]).map((warning) => warning.rule)).toEqual(["Bash(make *"]);
  });

  test("dontAsk never reaches the port", async () => {
    const port = recordingPort([{ allow: true }]);
    const gate = createGate({ rules: rulesFor({}, project.cwd), context: contextFor(project, "dontAsk"), ask: port.ask });
    expect((await gate.check(bash("make"))).behavior).toBe("deny");
    expect(port.asked).toHaveLength(0);
  });

  test("rules and context are read on every call", async () => {
    let mode: PermissionMode = "default";
    let allow: string[] = [];
    const gate = createGate({ rules: () => rulesFor({ allow }, project.cwd), context: (): PermissionContext => contextFor(project, mode) });
    expect((await gate.check(bash("touch a"))).behavior).toBe("deny");
    mode = "acceptEdits";
    expect((await gate.check(bash("touch a"))).behavior).toBe("allow");
    mode = "default";
    allow = ["Bash(touch *)"];
    expect(await gate.check(bash("touch a"))).toEqual({ behavior: "allow", rule: "Bash(touch *)" });
  });

  test("observers see every evaluation", async () => {
    const seen: string[] = [];
    const gate = createGate({ rules: rulesFor({}, project.cwd), context: contextFor(project), observe: (_, evaluation) => seen.push(evaluation.behavior) });
    await gate.check(bash("ls"));
    await gate.check(bash("make"));
    expect(seen).toEqual(["allow", "ask"]);
  });
});

describe("hooks and turn grants at the gate", () => {
  const rules = () => rulesFor({ allow: ["Bash(npm test *)"], ask: ["Bash(git push *)"], deny: ["Bash(curl *)"] }, project.cwd);

  test("a PreToolUse allow skips a prompt nothing insists on, but never an ask rule, a deny rule or a protected path", async () => {
    const gate = createGate({ rules: rules(), context: contextFor(project) });
    const hooked = (command: string): PermissionRequest => ({ ...bash(command), hookDecision: "allow", hookReason: "vetted by ci-guard" });
    expect(await gate.check(hooked("make build"))).toEqual({ behavior: "allow" });
    expect((await gate.check(hooked("git push origin"))).behavior).toBe("deny");
    expect((await gate.check(hooked("curl x"))).behavior).toBe("deny");
    expect((await gate.check(hooked("echo x > .git/config"))).behavior).toBe("deny");
    expect((await gate.check(hooked("rm -rf /"))).behavior).toBe("deny");
  });

  test("a PreToolUse ask turns an allowed call into a question", async () => {
    const port = recordingPort([{ allow: false }]);
    const gate = createGate({ rules: rules(), context: contextFor(project), ask: port.ask });
    const decision = await gate.check({ ...bash("npm test"), hookDecision: "ask", hookReason: "tests touch prod" });
    expect(decision.behavior).toBe("deny");
    expect(port.asked[0]?.evaluation.reason).toBe("Bash command `npm test` needs approval: a PreToolUse hook asks for approval (tests touch prod).");
  });

  test("a PermissionRequest hook answers before the human; PermissionDenied hooks see automatic denials", async () => {
    const port = recordingPort([{ allow: true }]);
    const seen: string[] = [];
    const gate = createGate({
      rules: rules(),
      context: contextFor(project),
      ask: port.ask,
      beforeAsk: async (request) => (request.subject === "make deploy" ? { allow: false, reason: "deploys go through CI" } : undefined),
      onAutoDeny: async (request, reason) => {
        seen.push(`${request.subject}: ${reason.slice(0, 20)}`);
        return "You may retry once the user allows it.";
      },
    });
    const refused = await gate.check(bash("make deploy"));
    expect(refused.behavior === "deny" && refused.reason).toStartWith("A PermissionRequest hook denied Bash command `make deploy`: deploys go through CI");
    expect(port.asked).toHaveLength(0);
    expect(await gate.check(bash("make build"))).toEqual({ behavior: "allow" });
    expect(port.asked).toHaveLength(1);
    const curl = await gate.check(bash("curl x"));
    expect(curl.behavior === "deny" && curl.reason).toEndWith("You may retry once the user allows it.");
    expect(seen).toEqual(["curl x: Permission to use Ba"]);
  });

  test("turn grants (a skill's allowed-tools) last until the user's next message", async () => {
    const gate = createGate({ rules: rules(), context: contextFor(project) });
    expect((await gate.check(bash("make build"))).behavior).toBe("deny");
    expect(gate.grantForTurn(["Bash(make *)"])).toEqual([]);
    expect(await gate.check(bash("make build"))).toEqual({ behavior: "allow", rule: "Bash(make *)" });
    gate.endTurn();
    expect((await gate.check(bash("make build"))).behavior).toBe("deny");
    expect(gate.sessionGrants()).toEqual([]);
  });
});
