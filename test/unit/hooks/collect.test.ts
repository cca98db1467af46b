import { describe, expect, test } from "bun:test";
import { cpSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { collectHooks, hookConfigHash } from "../../../src/hooks/collect.ts";
import { HOOK_EVENT_NAMES } from "../../../src/hooks/events.ts";
import type { HookProblem, HookSource } from "../../../src/hooks/types.ts";
import { HOOK_EVENTS } from "../../../src/settings/schema/hooks.ts";
import { FIXTURES, projectSettings, tempDir, userSettings } from "./helpers.ts";

const FILE = "/home/u/.clew/settings.json";

function problemsOf(hooks: unknown, source: Partial<HookSource> = {}): { keyPath?: string; severity: string; message: string }[] {
  const config = collectHooks([{ origin: userSettings(FILE), hooks, ...source }], { projectDir: tempDir() });
  return config.problems.map(({ keyPath, severity, message }: HookProblem) => ({ ...(keyPath ? { keyPath } : {}), severity, message }));
}

const echo = { type: "command", command: "echo ok" };

describe("collecting hooks: problems", () => {
  test("the event list matches the settings schema's", () => {
    const ours: readonly string[] = HOOK_EVENT_NAMES;
    expect([...ours]).toEqual([...HOOK_EVENTS]);
  });

  test("each kind of bad input is reported once, with file, key path and what to do; the rest loads", () => {
    const projectDir = tempDir();
    const config = collectHooks(
      [
        {
          origin: userSettings(FILE),
          hooks: {
            PreToolUse: [
              { matcher: "Bash", hooks: [echo] },
              { matcher: "Bash(", hooks: [echo] },
              { matcher: 7, hooks: [echo] },
              { matcher: "Edit", hooks: [{ type: "command" }, { type: "shell", command: "x" }, "echo", { type: "command", command: "echo two", timeout: -3 }] },
              { matcher: "Read" },
            ],
            preToolUse: [{ hooks: [echo] }],
            Stop: { hooks: [echo] },
          },
        },
      ],
      { projectDir },
    );
    const at = (keyPath: string): HookProblem[] => config.problems.filter((problem) => problem.keyPath === keyPath);
    expect(config.problems.every((problem) => problem.file === FILE)).toBe(true);
    expect(at("hooks.PreToolUse[1].matcher").map((p) => p.severity)).toEqual(["error"]);
    expect(at("hooks.PreToolUse[1].matcher")[0]?.message).toContain('hooks.PreToolUse[1].matcher "Bash(" is not a valid regular expression');
    expect(at("hooks.PreToolUse[1].matcher")[0]?.message).toContain("this group's hooks never run");
    expect(at("hooks.PreToolUse[2].matcher")[0]?.message).toContain("must be a string");
    expect(at("hooks.PreToolUse[3].hooks[0].command")[0]?.message).toContain("is required for a command hook");
    expect(at("hooks.PreToolUse[3].hooks[1].type")[0]?.message).toContain('must be one of "command", "http", "prompt", "agent", "mcp_tool" (got "shell")');
    expect(at("hooks.PreToolUse[3].hooks[2]")[0]?.message).toContain("must be an object");
    expect(at("hooks.PreToolUse[3].hooks[3].timeout")[0]?.severity).toBe("warning");
    expect(at("hooks.PreToolUse[4].hooks")[0]?.message).toContain("must be a list of handlers");
    expect(at("hooks.preToolUse")[0]?.message).toContain('unknown hook event "preToolUse"');
    expect(at("hooks.preToolUse")[0]?.message).toContain('Did you mean "PreToolUse"?');
    expect(at("hooks.Stop")[0]?.message).toContain("must be a list of matcher groups");
    // Once each, nothing else.
    expect(config.problems.map((problem) => problem.keyPath)).toEqual([
      "hooks.PreToolUse[1].matcher",
      "hooks.PreToolUse[2].matcher",
      "hooks.PreToolUse[3].hooks[0].command",
      "hooks.PreToolUse[3].hooks[1].type",
      "hooks.PreToolUse[3].hooks[2]",
      "hooks.PreToolUse[3].hooks[3].timeout",
      "hooks.PreToolUse[4].hooks",
      "hooks.preToolUse",
      "hooks.Stop",
    ]);
    // The good hooks still load; the broken groups' hooks are kept but never run.
    const runnable = config.hooks.filter((hook) => hook.inactive === undefined).map((hook) => hook.keyPath);
    expect(runnable).toEqual(["hooks.PreToolUse[0].hooks[0]", "hooks.PreToolUse[3].hooks[3]"]);
    expect(config.hooks.find((hook) => hook.keyPath === "hooks.PreToolUse[3].hooks[3]")?.timeoutMs).toBe(600_000);
    expect(config.hooks.find((hook) => hook.keyPath === "hooks.PreToolUse[1].hooks[0]")?.inactive).toBe("the matcher is not a valid regular expression");
  });

  test("a block that is not an object is one error and nothing else", () => {
    expect(problemsOf(["PreToolUse"])).toEqual([
      { keyPath: "hooks", severity: "error", message: "hooks must be an object mapping event names to lists of matcher groups (got an array); no hooks from this file are loaded" },
    ]);
  });

  test("a missing or non-executable script is reported with the fix", () => {
    const projectDir = tempDir();
    const missing = join(projectDir, ".claude/hooks/nope.sh");
    const notExecutable = join(FIXTURES, "not-executable.sh");
    const config = collectHooks(
      [
        {
          origin: projectSettings(projectDir),
          hooks: {
            PostToolUse: [
              {
                hooks: [
                  { type: "command", command: "${CLAUDE_PROJECT_DIR}/.claude/hooks/nope.sh --fast" },
                  { type: "command", command: `"${notExecutable}"` },
                  { type: "command", command: `bash ${notExecutable}` },
                  { type: "command", command: `python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/nope.py"` },
                  { type: "command", command: "jq -r .tool_name | grep -q Bash" },
                ],
              },
            ],
          },
        },
      ],
      { projectDir },
    );
    expect(config.problems.map(({ keyPath, severity, message }) => ({ keyPath, severity, message }))).toEqual([
      {
        keyPath: "hooks.PostToolUse[0].hooks[0].command",
        severity: "warning",
        message: `hooks.PostToolUse[0].hooks[0].command runs ${missing}, which does not exist; create it or fix the path (until then the hook fails with exit code 127 and does nothing)`,
      },
      {
        keyPath: "hooks.PostToolUse[0].hooks[1].command",
        severity: "warning",
        message: `hooks.PostToolUse[0].hooks[1].command runs ${notExecutable}, which is not executable; run \`chmod +x ${notExecutable}\` or start it through its interpreter (e.g. \`bash ${notExecutable}\`)`,
      },
      {
        keyPath: "hooks.PostToolUse[0].hooks[3].command",
        severity: "warning",
        message: `hooks.PostToolUse[0].hooks[3].command runs ${join(projectDir, ".claude/hooks/nope.py")}, which does not exist; create it or fix the path (until then the hook fails with exit code 127 and does nothing)`,
      },
    ]);
    // Warnings only: the hooks stay active (the script may appear later).
    expect(config.hooks.every((hook) => hook.inactive === undefined)).toBe(true);
  });

  test("plugin hooks: hooks.json unwrapped, ${CLAUDE_PLUGIN_ROOT} resolved for the script check", () => {
    const root = tempDir();
    cpSync(join(FIXTURES, "plugin"), root, { recursive: true });
    const hooksJson: unknown = JSON.parse(readFileSync(join(root, "hooks/hooks.json"), "utf8"));
    const origin = { kind: "plugin", plugin: "guard@acme", root, dataDir: join(root, "data"), file: join(root, "hooks/hooks.json") } as const;
    const config = collectHooks([{ origin, hooks: hooksJson, keyPath: "" }], { projectDir: tempDir() });
    expect(config.problems).toEqual([]);
    expect(config.hooks.map((hook) => [hook.keyPath, hook.event, hook.matcher, hook.timeoutMs])).toEqual([["hooks.PreToolUse[0].hooks[0]", "PreToolUse", "Bash", 10_000]]);
    expect(config.sources[0]?.label).toBe("Plugin Hooks (guard@acme)");
  });

  test("wrong handler type for an event, `if` outside tool events, `once` outside skills", () => {
    expect(
      problemsOf({
        SessionStart: [{ hooks: [{ type: "http", url: "http://127.0.0.1:1/x" }, { type: "prompt", prompt: "ok?" }] }],
        Notification: [{ hooks: [{ type: "command", command: "echo", if: "Bash(git *)", once: true }] }],
      }),
    ).toEqual([
      { keyPath: "hooks.SessionStart[0].hooks[0].type", severity: "error", message: 'hooks.SessionStart[0].hooks[0].type "http" cannot be used on SessionStart (allowed there: command, mcp_tool); this hook never runs. Use a command hook instead' },
      { keyPath: "hooks.SessionStart[0].hooks[1].type", severity: "error", message: 'hooks.SessionStart[0].hooks[1].type "prompt" cannot be used on SessionStart (allowed there: command, mcp_tool); this hook never runs. Use a command hook instead' },
      { keyPath: "hooks.Notification[0].hooks[0].once", severity: "notice", message: "hooks.Notification[0].hooks[0].once is honoured only in skill frontmatter; here the hook runs every time" },
      { keyPath: "hooks.Notification[0].hooks[0].if", severity: "warning", message: 'hooks.Notification[0].hooks[0].if only applies to tool events (PreToolUse, PostToolUse, PostToolUseFailure, PermissionRequest, PermissionDenied); on Notification a hook with "if" never runs. Remove "if" or move the hook' },
    ]);
  });

  test("agent and mcp_tool hooks are listed as not supported yet, never silently skipped", () => {
    const config = collectHooks(
      [{ origin: userSettings(FILE), hooks: { Stop: [{ hooks: [{ type: "agent", prompt: "verify the tests pass" }, { type: "mcp_tool", server: "mem", tool: "save" }] }] } }],
      { projectDir: tempDir() },
    );
    expect(config.problems.map((p) => [p.keyPath, p.severity])).toEqual([
      ["hooks.Stop[0].hooks[0].type", "notice"],
      ["hooks.Stop[0].hooks[1].type", "notice"],
    ]);
    expect(config.hooks.map((hook) => hook.inactive)).toEqual(["agent hooks are not supported yet", "mcp_tool hooks are not supported yet"]);
  });

  test("events clew does not fire yet and matchers on matcher-less events get a notice", () => {
    expect(
      problemsOf({
        TaskCreated: [{ hooks: [echo, echo] }],
        Stop: [{ matcher: "Bash", hooks: [echo] }],
      }),
    ).toEqual([
      { keyPath: "hooks.TaskCreated", severity: "notice", message: "hooks.TaskCreated: clew does not fire TaskCreated hooks yet; these 2 hooks do not run" },
      { keyPath: "hooks.Stop[0].matcher", severity: "notice", message: "hooks.Stop[0].matcher is ignored: Stop hooks have no matcher and always run" },
    ]);
  });

  test("shell-form plugin commands may not use ${user_config.…}; exec form may", () => {
    const root = tempDir();
    const origin = { kind: "plugin", plugin: "p", root, dataDir: root, file: join(root, "hooks/hooks.json"), options: { TOKEN: "t" } } as const;
    const config = collectHooks(
      [{ origin, hooks: { Stop: [{ hooks: [{ type: "command", command: "notify ${user_config.TOKEN}" }, { type: "command", command: "true", args: ["${user_config.TOKEN}"] }] }] } }],
      { projectDir: tempDir() },
    );
    expect(config.problems.map((p) => [p.keyPath, p.severity])).toEqual([["hooks.Stop[0].hooks[0].command", "error"]]);
    expect(config.hooks.map((hook) => hook.inactive)).toEqual(["a shell-form command cannot use ${user_config.…}", undefined]);
  });

  test("an agent's Stop hooks become SubagentStop", () => {
    const config = collectHooks([{ origin: { kind: "agent", name: "reviewer", file: "/p/.claude/agents/reviewer.md" }, hooks: { Stop: [{ hooks: [echo] }] } }], { projectDir: tempDir() });
    expect(config.hooks.map((hook) => [hook.event, hook.keyPath])).toEqual([["SubagentStop", "hooks.Stop[0].hooks[0]"]]);
  });

  test("a source whose structure the settings loader checked does not repeat its unknown-event warning", () => {
    expect(problemsOf({ beforeSubmitPrompt: [{ hooks: [echo] }] }, { validated: true })).toEqual([]);
  });

  test("a hooks file listed twice loads once, with a warning", () => {
    const origin = { kind: "plugin", plugin: "p", root: "/r", dataDir: "/d", file: "/r/hooks/hooks.json" } as const;
    const config = collectHooks([{ origin, hooks: { Stop: [{ hooks: [echo] }] } }, { origin, hooks: { Stop: [{ hooks: [echo] }] } }], { projectDir: tempDir() });
    expect(config.hooks).toHaveLength(1);
    expect(config.problems.map((p) => p.severity)).toEqual(["warning"]);
    expect(config.problems[0]?.message).toContain("is listed twice");
  });
});

describe("collecting hooks: trust, hashes and policy", () => {
  const managed = { kind: "settings", scope: "managed", file: "/etc/clew/managed-settings.json" } as const;
  const plugin = { kind: "plugin", plugin: "p@m", root: "/r", dataDir: "/d", file: "/r/hooks/hooks.json" } as const;
  const forced = { ...plugin, plugin: "forced@m", file: "/f/hooks/hooks.json", managedForced: true } as const;
  const block = { Stop: [{ hooks: [echo] }] };

  function activeBySource(policy: Parameters<typeof collectHooks>[1]["policy"], projectDir = tempDir()): Record<string, string | undefined> {
    const config = collectHooks(
      [
        { origin: managed, hooks: block },
        { origin: userSettings(FILE), hooks: block },
        { origin: projectSettings(projectDir), hooks: block },
        { origin: plugin, hooks: block },
        { origin: forced, hooks: block },
      ],
      { projectDir, ...(policy ? { policy } : {}) },
    );
    return Object.fromEntries(config.hooks.map((hook) => [config.sources.find((s) => s.id === hook.sourceId)?.label ?? "", hook.inactive]));
  }

  test("the shared project file is marked; others are not", () => {
    const projectDir = tempDir();
    const config = collectHooks([{ origin: projectSettings(projectDir), hooks: block }, { origin: userSettings(FILE), hooks: block }], { projectDir });
    expect(config.sources.map((source) => [source.label, source.sharedProject])).toEqual([
      ["Project Settings", true],
      ["User Settings", false],
    ]);
  });

  test("the hash is stable under key order and changes with the configuration", () => {
    const a = hookConfigHash({ Stop: [{ hooks: [{ type: "command", command: "x", timeout: 5 }] }] });
    const b = hookConfigHash({ Stop: [{ hooks: [{ timeout: 5, command: "x", type: "command" }] }] });
    const c = hookConfigHash({ Stop: [{ hooks: [{ type: "command", command: "y", timeout: 5 }] }] });
    expect(a).toBe(b);
    expect(a).not.toBe(c);
    const projectDir = tempDir();
    const hooks = { Stop: [{ hooks: [{ type: "command", command: "x", timeout: 5 }] }] };
    const config = collectHooks([{ origin: projectSettings(projectDir), hooks }, { origin: userSettings(FILE), hooks }], { projectDir });
    // Only the shared project source is ever asked about, so only it carries the hash.
    expect(config.sources.map((source) => source.hash)).toEqual([a, ""]);
  });

  test("no policy: everything runs", () => {
    expect(Object.values(activeBySource(undefined))).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });

  test("disableAllHooks from user settings spares managed hooks; from managed settings it stops all", () => {
    expect(activeBySource({ disableAllHooks: { value: true, scope: "user" } })).toEqual({
      "Managed Settings": undefined,
      "User Settings": "disableAllHooks is set in user settings",
      "Project Settings": "disableAllHooks is set in user settings",
      "Plugin Hooks (p@m)": "disableAllHooks is set in user settings",
      "Plugin Hooks (forced@m)": "disableAllHooks is set in user settings",
    });
    expect(Object.values(activeBySource({ disableAllHooks: { value: true, scope: "managed" } }))).toEqual(Array(5).fill("disableAllHooks is set in managed settings"));
    expect(Object.values(activeBySource({ disableAllHooks: { value: false, scope: "project" } }))).toEqual(Array(5).fill(undefined));
  });

  test("allowManagedHooksOnly keeps managed hooks and force-enabled plugins", () => {
    const off = "managed settings allow only managed hooks (allowManagedHooksOnly)";
    expect(activeBySource({ allowManagedHooksOnly: true })).toEqual({
      "Managed Settings": undefined,
      "User Settings": off,
      "Project Settings": off,
      "Plugin Hooks (p@m)": off,
      "Plugin Hooks (forced@m)": undefined,
    });
  });

  test("strictPluginOnlyCustomization keeps plugin and managed hooks", () => {
    const off = "managed settings allow only plugin and managed hooks (strictPluginOnlyCustomization)";
    expect(Object.values(activeBySource({ strictPluginOnly: true }))).toEqual([undefined, off, off, undefined, undefined]);
  });

  test("a policy-disabled source gets one notice, not one per hook", () => {
    const config = collectHooks([{ origin: userSettings(FILE), hooks: { Stop: [{ hooks: [echo, { type: "command", command: "echo 2" }] }] } }], {
      projectDir: tempDir(),
      policy: { disableAllHooks: { value: true, scope: "user" } },
    });
    expect(config.problems.map((p) => [p.severity, p.message])).toEqual([["notice", `hooks from ${FILE} do not run: disableAllHooks is set in user settings`]]);
  });

  test("an http URL outside allowedHttpHookUrls does not run", () => {
    const config = collectHooks(
      [{ origin: userSettings(FILE), hooks: { Stop: [{ hooks: [{ type: "http", url: "http://evil.example/x" }, { type: "http", url: "http://127.0.0.1:9/audit" }] }] } }],
      { projectDir: tempDir(), policy: { allowedHttpHookUrls: ["http://127.0.0.1:*"] } },
    );
    expect(config.hooks.map((hook) => hook.inactive)).toEqual(["the URL is not in allowedHttpHookUrls", undefined]);
    expect(config.problems.map((p) => p.keyPath)).toEqual(["hooks.Stop[0].hooks[0].url"]);
  });
});
