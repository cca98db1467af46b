// Hooks from real settings files (through the real settings loader), the /hooks listing, and the
// CLAUDE_ENV_FILE parser.
import { describe, expect, test } from "bun:test";
import { collectHooks } from "../../../src/hooks/collect.ts";
import { parseEnvFile } from "../../../src/hooks/env-file.ts";
import { formatHookListing, listHooks } from "../../../src/hooks/listing.ts";
import { hookPolicyFromSettings, hookSourcesFromSettings } from "../../../src/hooks/settings-sources.ts";
import { layout } from "../settings/fixture.ts";
import { tempDir, userSettings } from "./helpers.ts";

const guard = { type: "command", command: "echo guard" };

describe("hooks from loaded settings", () => {
  test("merged groups are split back into one source per file, each with its scope", () => {
    const space = layout();
    const user = space.write("user.json", JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [guard] }], Stop: [{ hooks: [{ type: "command", command: "echo user-stop" }] }] } }));
    const project = space.write(
      "project-claude.json",
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [guard] }, { matcher: "Edit(", hooks: [{ type: "command", command: "echo edit" }] }] } }),
    );
    const loaded = space.load();
    const config = collectHooks(hookSourcesFromSettings(loaded), { projectDir: space.startDir, policy: hookPolicyFromSettings(loaded) });
    expect(config.sources.map((source) => [source.label, source.file, source.sharedProject])).toEqual([
      ["Project Settings", project, true],
      ["User Settings", user, false],
    ]);
    // The identical Bash guard is kept once, in the stronger (project) file.
    expect(config.hooks.map((hook) => [hook.sourceId.split(":")[1], hook.event, hook.matcher, hook.keyPath])).toEqual([
      ["project", "PreToolUse", "Bash", "hooks.PreToolUse[0].hooks[0]"],
      ["project", "PreToolUse", "Edit(", "hooks.PreToolUse[1].hooks[0]"],
      ["user", "Stop", undefined, "hooks.Stop[0].hooks[0]"],
    ]);
    expect(config.problems.map((problem) => [problem.file, problem.keyPath, problem.severity])).toEqual([[project, "hooks.PreToolUse[1].matcher", "error"]]);
  });

  test("unknown events are reported by the settings loader only, not twice", () => {
    const space = layout();
    space.write("user.json", JSON.stringify({ hooks: { beforeSubmitPrompt: [{ hooks: [guard] }] } }));
    const loaded = space.load();
    expect(loaded.problems.filter((problem) => problem.keyPath === "hooks.beforeSubmitPrompt")).toHaveLength(1);
    expect(collectHooks(hookSourcesFromSettings(loaded), { projectDir: space.startDir }).problems).toEqual([]);
  });

  test("policy comes from the settings and the scope that set it", () => {
    const space = layout();
    space.write("user.json", JSON.stringify({ disableAllHooks: true, allowedHttpHookUrls: ["http://127.0.0.1:*"], httpHookAllowedEnvVars: ["TOKEN"] }));
    space.write("managed/managed-settings.json", JSON.stringify({ allowManagedHooksOnly: true, strictPluginOnlyCustomization: ["hooks", "skills"] }));
    expect(hookPolicyFromSettings(space.load())).toEqual({
      disableAllHooks: { value: true, scope: "user" },
      allowManagedHooksOnly: true,
      strictPluginOnly: true,
      allowedHttpHookUrls: ["http://127.0.0.1:*"],
      httpHookAllowedEnvVars: ["TOKEN"],
    });
    space.write("local.json", JSON.stringify({ disableAllHooks: false }));
    expect(hookPolicyFromSettings(space.load()).disableAllHooks).toEqual({ value: false, scope: "local" });
  });
});

describe("listing for /hooks and clew doctor", () => {
  test("every hook with its source, status and its own problems; block-level problems separately", () => {
    const file = "/home/u/.clew/settings.json";
    const config = collectHooks(
      [
        {
          origin: userSettings(file),
          hooks: {
            PreToolUse: [{ matcher: "Bash(", hooks: [guard] }, { matcher: "Write|Edit", hooks: [{ type: "command", command: "echo fmt", timeout: 30, async: true }] }],
            Stop: "nope",
          },
        },
      ],
      { projectDir: tempDir() },
    );
    const report = listHooks(config);
    expect(report.hooks.map(({ event, matcher, type, command, timeoutSeconds, async, source, keyPath, active, inactiveReason, problems }) => ({
      event, matcher, type, command, timeoutSeconds, async, source, keyPath, active, inactiveReason, problems: problems.map((p) => p.keyPath),
    }))).toEqual([
      {
        event: "PreToolUse", matcher: "Bash(", type: "command", command: "echo guard", timeoutSeconds: 600, async: false, source: "User Settings",
        keyPath: "hooks.PreToolUse[0].hooks[0]", active: false, inactiveReason: "the matcher is not a valid regular expression", problems: ["hooks.PreToolUse[0].matcher"],
      },
      {
        event: "PreToolUse", matcher: "Write|Edit", type: "command", command: "echo fmt", timeoutSeconds: 30, async: true, source: "User Settings",
        keyPath: "hooks.PreToolUse[1].hooks[0]", active: true, inactiveReason: undefined, problems: [],
      },
    ]);
    expect(report.problems.map((p) => p.keyPath)).toEqual(["hooks.Stop"]);
    const lines = formatHookListing(report, "/home/u");
    expect(lines[0]).toBe("PreToolUse");
    expect(lines[1]).toBe("  Bash(  echo guard  (command, 600s)");
    expect(lines[2]).toBe("    from User Settings: ~/.clew/settings.json hooks.PreToolUse[0].hooks[0]");
    expect(lines[3]).toBe("    not run: the matcher is not a valid regular expression");
    expect(lines.at(-1)).toStartWith("error: ~/.clew/settings.json: hooks.Stop must be a list of matcher groups");
  });
});

describe("CLAUDE_ENV_FILE parser", () => {
  test("export lines, quotes, expansion against the base environment and earlier lines", () => {
    const text = [
      "# written by hooks",
      "export NODE_ENV=production",
      'export PATH="$HOME/bin:$PATH"',
      "GREETING='hello $HOME'",
      'export LABEL="a \\"quoted\\" \\$word"',
      "export EMPTY=",
      "export DIR=${HOME}/x # trailing comment",
      "export AGAIN=$NODE_ENV",
    ].join("\n");
    expect(parseEnvFile(text, { HOME: "/home/u", PATH: "/usr/bin" })).toEqual({
      vars: {
        NODE_ENV: "production",
        PATH: "/home/u/bin:/usr/bin",
        GREETING: "hello $HOME",
        LABEL: 'a "quoted" $word',
        EMPTY: "",
        DIR: "/home/u/x",
        AGAIN: "production",
      },
      problems: [],
    });
  });

  test("lines that need a shell are reported with their number and skipped", () => {
    expect(parseEnvFile('export A=1\nexport B="$(git rev-parse HEAD)"\nsource ~/.nvm/nvm.sh\nexport C=1 D=2\nexport E="unterminated')).toEqual({
      vars: { A: "1" },
      problems: [
        'line 2: "export B=\\"$(git rev-parse HEAD)\\"" is not a plain "export NAME=value" line; skipped (clew reads the file without running a shell)',
        'line 3: "source ~/.nvm/nvm.sh" is not a plain "export NAME=value" line; skipped (clew reads the file without running a shell)',
        'line 4: "export C=1 D=2" is not a plain "export NAME=value" line; skipped (clew reads the file without running a shell)',
        'line 5: "export E=\\"unterminated" is not a plain "export NAME=value" line; skipped (clew reads the file without running a shell)',
      ],
    });
  });
});
