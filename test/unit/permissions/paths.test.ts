// Read/Edit path rules against real files and real symlinks: a path is denied if any of its
// forms (as written, `..` resolved, symlinks resolved) matches, allowed only if all of them do.
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { evaluate, readDenied } from "../../../src/permissions/evaluate.ts";
import { compileRules } from "../../../src/permissions/rules.ts";
import type { PermissionBehavior, PermissionCall, PermissionEvaluation, PermissionMode } from "../../../src/permissions/types.ts";
import { bashCall, call, contextFor, decide, makeProject, type Project, type RuleSpec } from "./fixture.ts";

let project: Project;
let p: (...parts: string[]) => string;
beforeAll(() => {
  project = makeProject();
  p = (...parts) => join(project.cwd, ...parts);
  mkdirSync(p("sub"));
  mkdirSync(p("src"));
  mkdirSync(p("lib", "src"), { recursive: true });
  mkdirSync(p("a", "secrets"), { recursive: true });
  mkdirSync(p(".git"));
  mkdirSync(p(".claude", "worktrees", "w1"), { recursive: true });
  mkdirSync(join(project.home, ".ssh"), { recursive: true });
  writeFileSync(p(".env"), "SECRET=1\n");
  writeFileSync(p(".env.example"), "SECRET=\n");
  writeFileSync(join(project.other, "notes.txt"), "x\n");
  symlinkSync(p(".env"), p("link-to-env"));
  symlinkSync(project.other, p("src", "escape"));
  symlinkSync(p(".env"), join(project.other, "env-link"));
  symlinkSync(p(".git"), p("gitlink"));
});

function read(path: string, written = path): PermissionCall {
  return call("Read", { file_path: written }, path);
}
function edit(path: string): PermissionCall {
  return call("Edit", { file_path: path, old_string: "a", new_string: "b" }, path);
}
function write(path: string): PermissionCall {
  return call("Write", { file_path: path, content: "x" }, path);
}

function shape(evaluation: PermissionEvaluation): { behavior: PermissionBehavior; rule?: string } {
  return evaluation.rule === undefined ? { behavior: evaluation.behavior } : { behavior: evaluation.behavior, rule: evaluation.rule };
}

async function expectDecision(spec: RuleSpec, what: () => PermissionCall, expected: { behavior: PermissionBehavior; rule?: string }, mode: PermissionMode = "default"): Promise<void> {
  expect(shape(await decide(spec, project, what(), mode))).toEqual(expected);
}

const ENV_DENY = { deny: ["Read(./.env)"] };
const DENIED = { behavior: "deny", rule: "Read(./.env)" } as const;

describe("Read(./.env) in deny", () => {
  const cases: Array<[string, () => PermissionCall, { behavior: PermissionBehavior; rule?: string }]> = [
    ["./sub/../.env as written", () => read(p(".env"), "./sub/../.env"), DENIED],
    ["an absolute path with ..", () => read(p(".env"), `${p("sub")}/../.env`), DENIED],
    ["the absolute path", () => read(p(".env")), DENIED],
    ["a symlink pointing to it", () => read(p("link-to-env")), DENIED],
    ["a symlink outside the project pointing to it", () => read(join(project.other, "env-link")), DENIED],
    ["Grep with path .env", () => call("Grep", { pattern: "x", path: ".env" }, p(".env")), DENIED],
    ["Glob with path .env", () => call("Glob", { pattern: "*", path: ".env" }, p(".env")), DENIED],
    ["Bash cat .env", () => bashCall("cat .env"), DENIED],
    ["Bash head through a symlink", () => bashCall("head -n 3 link-to-env"), DENIED],
    ["Bash input redirection", () => bashCall("wc -l < .env"), DENIED],
    ["Bash cp of it", () => bashCall("cp .env /tmp/leak"), DENIED],
    ["Bash after cd", () => bashCall("cd sub && cat ../.env"), DENIED],
    ["Bash sed", () => bashCall("sed -n p .env"), DENIED],
    ["a .env at any depth", () => read(p("sub", ".env")), DENIED],
    ["Edit of it (Read deny blocks writes)", () => edit(p(".env")), DENIED],
    ["Write of it", () => write(p(".env")), DENIED],
    ["Bash redirect into it", () => bashCall("echo x > .env"), DENIED],
    ["Bash glob .en*", () => bashCall("cat .en*"), DENIED],
    ["Bash glob .*", () => bashCall("head .*"), DENIED],
    ["Bash glob sub/../.e?v", () => bashCall("cat sub/../.e?v"), DENIED],
    ["Bash glob * expands as bash does, reaching the symlink link-to-env", () => bashCall("cat *"), DENIED],
    ["Bash glob s* (skips dotfiles, as bash does)", () => bashCall("cat su* l*/* .e*.example"), { behavior: "allow" }],
    ["Bash read of a substitution", () => bashCall("cat $(echo .env)"), { behavior: "ask" }],
    ["Bash read of a variable", () => bashCall('cat "$F"'), { behavior: "ask" }],
    ["Grep with glob .env", () => call("Grep", { pattern: "x", glob: ".env" }, project.cwd), DENIED],
    ["Grep with glob *.ts", () => call("Grep", { pattern: "x", glob: "*.ts" }, project.cwd), { behavior: "allow" }],
    ["Read(.env.example)", () => read(p(".env.example")), { behavior: "allow" }],
    ["Bash cat .env.example", () => bashCall("cat .env.example"), { behavior: "allow" }],
    ["grep for the word .env", () => bashCall("grep .env README.md"), { behavior: "allow" }],
    ["Grep of the project", () => call("Grep", { pattern: "x" }, project.cwd), { behavior: "allow" }],
  ];
  for (const [name, what, expected] of cases) test(name, () => expectDecision(ENV_DENY, what, expected));
});

describe("readDenied (for search tools filtering their results)", () => {
  test("covers the denied file and its symlinks only", () => {
    const rules = compileRules([{ text: "Read(./.env)", kind: "deny", source: { scope: "project", root: project.cwd } }]);
    const context = contextFor(project);
    expect([p(".env"), p("link-to-env"), p(".env.example"), p("sub", "a.ts")].map((path) => readDenied(rules, path, context))).toEqual([true, true, false, false]);
  });
});

describe("path rule anchors", () => {
  test("single-segment directory deny matches at any depth", async () => {
    await expectDecision({ deny: ["Read(secrets/**)"] }, () => read(p("a", "secrets", "key")), { behavior: "deny", rule: "Read(secrets/**)" });
    await expectDecision({ deny: ["Read(secrets/**)"] }, () => read(p("secrets", "key")), { behavior: "deny", rule: "Read(secrets/**)" });
  });
  test("single-segment directory allow matches only at cwd", async () => {
    await expectDecision({ allow: ["Edit(src/**)"] }, () => edit(p("src", "a.ts")), { behavior: "allow", rule: "Edit(src/**)" });
    await expectDecision({ allow: ["Edit(src/**)"] }, () => edit(p("lib", "src", "a.ts")), { behavior: "ask" });
  });
  test("allow needs the symlink target to match too", async () => {
    await expectDecision({ allow: ["Edit(src/**)"] }, () => edit(p("src", "escape", "notes.txt")), { behavior: "ask" });
  });
  test("a directory pattern covers what is inside it", async () => {
    await expectDecision({ deny: ["Read(./sub)"] }, () => read(p("sub", "deep", "x")), { behavior: "deny", rule: "Read(./sub)" });
  });
  test("//abs is absolute", async () => {
    const rule = `Read(/${project.other}/**)`;
    await expectDecision({ deny: [rule] }, () => read(join(project.other, "notes.txt")), { behavior: "deny", rule });
  });
  test("~/ is the home directory", async () => {
    await expectDecision({ deny: ["Read(~/.ssh/**)"] }, () => read(join(project.home, ".ssh", "id_rsa")), { behavior: "deny", rule: "Read(~/.ssh/**)" });
    await expectDecision({ deny: ["Read(~/.ssh/**)"] }, () => bashCall("cat ~/.ssh/id_rsa"), { behavior: "deny", rule: "Read(~/.ssh/**)" });
  });
  test("a single leading / is relative to the settings source", async () => {
    const userDir = join(project.home, ".clew");
    const rules = compileRules([{ text: "Read(/secrets/**)", kind: "deny", source: { scope: "user", root: userDir } }]);
    const context = contextFor(project);
    expect((await evaluate(rules, read(join(userDir, "secrets", "k")), context)).behavior).toBe("deny");
    expect((await evaluate(rules, read(p("secrets", "k")), context)).behavior).toBe("allow");
    expect((await evaluate(rules, read("/secrets/k"), context)).behavior).toBe("ask");
  });
  test("glob character classes work", async () => {
    await expectDecision({ deny: ["Read(*.[pP][eE][mM])"] }, () => read(p("sub", "key.PEM")), { behavior: "deny", rule: "Read(*.[pP][eE][mM])" });
  });
});

describe("working directories", () => {
  const outside = () => join(project.other, "notes.txt");
  test("reads inside are allowed, outside ask with a Read suggestion", async () => {
    await expectDecision({}, () => read(p("src", "a.ts")), { behavior: "allow" });
    const result = await decide({}, project, read(outside()));
    expect(result).toEqual({
      behavior: "ask",
      waivable: true,
      reason: `Read of ${outside()} needs approval: the path is outside the working directories.`,
      suggestions: [`Read(/${project.other}/**)`],
    });
  });
  test("additional working directories count", async () => {
    const result = await evaluate(compileRules([]), read(outside()), contextFor(project, "default", [project.other]));
    expect(result.behavior).toBe("allow");
  });
  test("a Read rule allows reads outside", async () => {
    await expectDecision({ allow: [`Read(/${project.other}/**)`] }, () => read(outside()), { behavior: "allow", rule: `Read(/${project.other}/**)` });
  });
  test("an Edit allow also grants reading", async () => {
    await expectDecision({ allow: [`Edit(/${project.other}/**)`] }, () => read(outside()), { behavior: "allow", rule: `Edit(/${project.other}/**)` });
  });
  test("writes outside ask even in acceptEdits, allowed in bypass or by an Edit rule", async () => {
    await expectDecision({}, () => write(outside()), { behavior: "ask" }, "acceptEdits");
    await expectDecision({}, () => write(outside()), { behavior: "allow" }, "bypassPermissions");
    await expectDecision({}, () => write(outside()), { behavior: "deny" }, "dontAsk");
    await expectDecision({ allow: ["Edit"] }, () => write(outside()), { behavior: "ask" });
    await expectDecision({ allow: [`Edit(/${project.other}/**)`] }, () => write(outside()), { behavior: "allow", rule: `Edit(/${project.other}/**)` });
  });
  test("edits inside follow the mode", async () => {
    await expectDecision({}, () => edit(p("src", "a.ts")), { behavior: "ask" });
    await expectDecision({}, () => edit(p("src", "a.ts")), { behavior: "allow" }, "acceptEdits");
    await expectDecision({}, () => edit(p("src", "a.ts")), { behavior: "deny" }, "plan");
    await expectDecision({}, () => edit(p("src", "a.ts")), { behavior: "deny" }, "dontAsk");
    await expectDecision({ allow: ["Edit"] }, () => write(p("src", "a.ts")), { behavior: "allow", rule: "Edit" });
  });
  test("file edits get no don't-ask-again suggestion", async () => {
    expect((await decide({}, project, edit(p("src", "a.ts")))).suggestions).toBeUndefined();
  });
});

describe("protected paths", () => {
  const cases: Array<[string, () => PermissionCall, PermissionMode, PermissionBehavior]> = [
    [".git/config with Edit allowed", () => edit(p(".git", "config")), "default", "ask"],
    [".git/config in acceptEdits", () => edit(p(".git", "config")), "acceptEdits", "ask"],
    [".git/config in bypass", () => edit(p(".git", "config")), "bypassPermissions", "allow"],
    [".git/config in dontAsk", () => edit(p(".git", "config")), "dontAsk", "deny"],
    [".bashrc", () => write(p(".bashrc")), "acceptEdits", "ask"],
    ["~/.zshrc", () => write(join(project.home, ".zshrc")), "acceptEdits", "ask"],
    [".vscode/settings.json", () => write(p(".vscode", "settings.json")), "acceptEdits", "ask"],
    [".clew/settings.json", () => write(p(".clew", "settings.json")), "acceptEdits", "ask"],
    [".mcp.json", () => write(p(".mcp.json")), "acceptEdits", "ask"],
    ["~/.config/git/config", () => write(join(project.home, ".config", "git", "config")), "bypassPermissions", "allow"],
    [".claude/worktrees is writable", () => write(p(".claude", "worktrees", "w1", "a.ts")), "acceptEdits", "allow"],
    ["an ordinary file", () => write(p("src", "ok.ts")), "acceptEdits", "allow"],
    ["a path through .. into .git", () => write(p("sub", "..", ".git", "HEAD")), "acceptEdits", "ask"],
    ["a symlink into .git", () => write(p("gitlink", "HEAD")), "acceptEdits", "ask"],
    [".config/git in the project", () => write(p(".config", "git", "config")), "acceptEdits", "ask"],
  ];
  for (const [name, what, mode, behavior] of cases) {
    test(`${name} (${mode})`, async () => {
      expect((await decide({ allow: ["Edit", "Write"] }, project, what(), mode)).behavior).toBe(behavior);
    });
  }
});
