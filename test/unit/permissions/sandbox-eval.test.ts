// Sandbox auto-allow in the permission engine (spec §7.3): a Bash command the OS sandbox contains
// runs without a prompt, after deny rules, content-scoped ask rules, protected paths and critical
// removals; excludedCommands and an honoured escape request go through the usual flow.
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { evaluate } from "../../../src/permissions/evaluate.ts";
import type { SandboxView } from "../../../src/permissions/sandbox/types.ts";
import type { PermissionBehavior, PermissionMode } from "../../../src/permissions/types.ts";
import { bashCall, call, contextFor, makeProject, rulesFor, type Project, type RuleSpec } from "./fixture.ts";

let project: Project;
beforeAll(() => {
  project = makeProject();
  mkdirSync(join(project.cwd, ".git", "hooks"), { recursive: true });
});

const VIEW: SandboxView = { autoAllow: true, allowUnsandboxed: true, excludedCommands: ["docker", "Bash(git push *)"] };

async function behaviour(command: string | Record<string, unknown>, spec: RuleSpec = {}, options: { view?: SandboxView | undefined; mode?: PermissionMode } = {}): Promise<{ behavior: PermissionBehavior; rule?: string }> {
  const what = typeof command === "string" ? bashCall(command) : call("Bash", command, String(command.command));
  const context = { ...contextFor(project, options.mode ?? "default"), ...("view" in options ? (options.view ? { sandbox: options.view } : {}) : { sandbox: VIEW }) };
  const result = await evaluate(rulesFor(spec, project.cwd), what, context);
  return result.rule === undefined ? { behavior: result.behavior } : { behavior: result.behavior, rule: result.rule };
}

describe("sandbox auto-allow", () => {
  test("a command that would ask runs without a prompt inside the sandbox, and asks without it", async () => {
    expect(await behaviour("npm install left-pad")).toEqual({ behavior: "allow" });
    expect(await behaviour("npm install left-pad", {}, { view: undefined })).toEqual({ behavior: "ask" });
    expect(await behaviour("npm install left-pad", {}, { view: { ...VIEW, autoAllow: false } })).toEqual({ behavior: "ask" });
  });

  test("writes outside the working directories are left to the sandbox, which blocks them", async () => {
    expect(await behaviour("echo x > ~/outside")).toEqual({ behavior: "allow" });
    expect(await behaviour(`echo x > ${project.other}/file`)).toEqual({ behavior: "allow" });
    expect(await behaviour("echo x > ~/outside", {}, { view: undefined })).toEqual({ behavior: "ask" });
  });

  test("deny rules and content-scoped ask rules still decide; a bare Bash ask rule yields", async () => {
    expect(await behaviour("rm -f build.log", { deny: ["Bash(rm *)"] })).toEqual({ behavior: "deny", rule: "Bash(rm *)" });
    expect(await behaviour("curl https://x.dev", { ask: ["Bash(curl *)"] })).toEqual({ behavior: "ask", rule: "Bash(curl *)" });
    expect(await behaviour("make all", { ask: ["Bash"] })).toEqual({ behavior: "allow" });
    expect(await behaviour("make all", { ask: ["Bash"] }, { view: undefined })).toEqual({ behavior: "ask", rule: "Bash" });
  });

  test("protected paths, critical removals and unparseable lines still ask", async () => {
    expect((await behaviour("echo x > .git/hooks/pre-commit")).behavior).toBe("ask");
    expect((await behaviour(`rm -rf ${project.cwd}`)).behavior).toBe("ask");
    expect((await behaviour("echo $((")).behavior).toBe("ask");
  });

  test("excludedCommands run outside the sandbox: the whole line asks if any part matches", async () => {
    expect(await behaviour("docker ps")).toEqual({ behavior: "ask" });
    expect(await behaviour("make && docker build .")).toEqual({ behavior: "ask" });
    expect(await behaviour("git push origin main")).toEqual({ behavior: "ask" });
    expect(await behaviour("git commit -m x")).toEqual({ behavior: "allow" });
  });

  test("dangerouslyDisableSandbox asks where allowUnsandboxedCommands lets it, and is ignored where not", async () => {
    expect(await behaviour({ command: "make", dangerouslyDisableSandbox: true })).toEqual({ behavior: "ask" });
    expect(await behaviour({ command: "make", dangerouslyDisableSandbox: true }, {}, { view: { ...VIEW, allowUnsandboxed: false } })).toEqual({ behavior: "allow" });
    expect(await behaviour({ command: "make", dangerouslyDisableSandbox: true }, { allow: ["Bash(make)"] })).toEqual({ behavior: "allow", rule: "Bash(make)" });
  });

  test("only the Bash tool runs in the sandbox: Monitor commands ask as before", async () => {
    const context = { ...contextFor(project), sandbox: VIEW };
    const result = await evaluate(rulesFor({}, project.cwd), call("Monitor", { command: "make watch" }, "make watch"), context);
    expect(result.behavior).toBe("ask");
  });

  test("plan mode is not loosened, and dontAsk only gains what the sandbox contains", async () => {
    expect((await behaviour("make", {}, { mode: "plan" })).behavior).toBe("deny");
    expect(await behaviour("make", {}, { mode: "dontAsk" })).toEqual({ behavior: "allow" });
    expect((await behaviour("docker ps", {}, { mode: "dontAsk" })).behavior).toBe("deny");
  });
});

describe("the gate's sandbox", () => {
  test("helpers' Bash calls are auto-allowed like the main conversation's; not in a helper's plan mode, not a peek (a skill's !cmd runs unsandboxed)", async () => {
    const { createGate } = await import("../../../src/permissions/gate.ts");
    const gate = createGate({ rules: rulesFor({ deny: ["Bash(rm *)"] }, project.cwd), context: contextFor(project) });
    const request = { toolName: "Bash", access: "exec" as const, subject: "make", input: { command: "make" }, toolUseId: "t1" };
    const helper = { ...request, agent: "general-purpose: build it", shellCwd: project.cwd };
    expect((await gate.check(request)).behavior).toBe("deny");
    expect((await gate.check(helper)).behavior).toBe("deny");
    gate.useSandbox(VIEW);
    expect(await gate.check(request)).toEqual({ behavior: "allow" });
    expect(await gate.check(helper)).toEqual({ behavior: "allow" });
    expect((await gate.check({ ...helper, agent: "Explore: look around", mode: "plan" })).behavior).toBe("deny");
    const removal = { ...helper, subject: "rm -f build.log", input: { command: "rm -f build.log" } };
    expect(await gate.check(removal)).toMatchObject({ behavior: "deny", rule: "Bash(rm *)" });
    expect((await gate.check({ ...helper, subject: "docker ps", input: { command: "docker ps" } })).behavior).toBe("deny");
    expect((await gate.peek(request)).behavior).toBe("deny");
    gate.useSandbox(undefined);
    expect((await gate.check(request)).behavior).toBe("deny");
    expect((await gate.check(helper)).behavior).toBe("deny");
  });

  test("a helper's relative paths resolve in its own shell's directory, so path deny rules hit where its command writes", async () => {
    const { createGate } = await import("../../../src/permissions/gate.ts");
    const sub = join(project.cwd, "sub");
    mkdirSync(sub, { recursive: true });
    const gate = createGate({ rules: rulesFor({ deny: ["Edit(./secret/**)"] }, project.cwd), context: contextFor(project) });
    gate.useSandbox(VIEW);
    const write = { toolName: "Bash", access: "exec" as const, subject: "echo x > ../secret/a", input: { command: "echo x > ../secret/a" }, toolUseId: "t2", agent: "general-purpose: tidy" };
    // From sub/, ../secret/a is the project's secret/a: the deny rule decides.
    expect(await gate.check({ ...write, shellCwd: sub })).toMatchObject({ behavior: "deny", rule: "Edit(./secret/**)" });
    // From the project itself it is a path outside, which the sandbox contains.
    expect(await gate.check({ ...write, shellCwd: project.cwd })).toEqual({ behavior: "allow" });
  });
});
