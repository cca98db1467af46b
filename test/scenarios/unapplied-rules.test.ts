// When a rule that would allow a call exists but does not apply, the denial says which rule,
// why, and what to do — in the text the model reads, in the json permission_denials entry, and
// in `clew config --origins`. One test per reason: an untrusted folder, managed-only rules, a
// deny rule that overrules the allow rule, and (interactive/diagnostic only) a file that fails
// to parse — `-p` refuses to start on one, so that reason never reaches permission_denials.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startFakeAnthropic, toolResults, type FakeServer } from "../fake-anthropic/index.ts";
import { runClew, tempDirectory } from "../helpers/clew-process.ts";
import { requestAt } from "../helpers/scenario.ts";
import { writeWorkspace } from "./workspaces.ts";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Denial {
  tool_name: string;
  tool_use_id: string;
  tool_input: { command: string };
  reason: string;
}

interface Setup {
  dir: string;
  configDir: string;
  env?: Record<string, string>;
}

function project(files: Record<string, unknown>): Setup {
  const dir = writeWorkspace({ "package.json": '{ "scripts": { "test": "echo ok" } }\n' });
  const configDir = tempDirectory("clew-config-");
  for (const [path, content] of Object.entries(files)) {
    const full = path.startsWith("~/") ? join(configDir, path.slice(2)) : join(dir, path);
    mkdirSync(join(full, ".."), { recursive: true });
    writeFileSync(full, JSON.stringify(content));
  }
  return { dir, configDir };
}

/** Runs one Bash call headless; returns what the model read and the json denial. */
async function deniedCall(setup: Setup, command: string): Promise<{ text: string; denial: Denial | undefined }> {
  const call = reply().toolUse("Bash", { command });
  server = await startFakeAnthropic({ script: [call, reply().text("done")] });
  const run = await runClew(["-p", "run it", "--output-format", "json"], { cwd: setup.dir, baseURL: server.url, configDir: setup.configDir, env: setup.env });
  expect(run.code).toBe(0);
  const text = toolResults(requestAt(server, 1))[0]?.text ?? "";
  const denial = (JSON.parse(run.stdout) as { permission_denials: Denial[] }).permission_denials[0];
  return { text, denial };
}

async function origins(setup: Setup): Promise<string> {
  const run = await runClew(["config", "--origins"], { cwd: setup.dir, configDir: setup.configDir, env: setup.env });
  return run.stdout.slice(run.stdout.indexOf("rules present but not in force:"));
}

describe("a rule that exists but does not apply is named, with why and what to do", () => {
  test("an untrusted folder's shared project allow rule: run clew trust", async () => {
    const setup = project({ ".clew/settings.json": { permissions: { allow: ["Bash(npm test *)"] } } });
    const { text, denial } = await deniedCall(setup, "npm test");
    const settingsFile = join(setup.dir, ".clew/settings.json");
    const note = `The allow rule Bash(npm test *) in ${settingsFile} would allow it but is not in force: this folder is not trusted`;
    expect(text).toContain(note);
    expect(text).toContain(`clew trust ${JSON.stringify(setup.dir)}`);
    expect(denial).toMatchObject({ tool_name: "Bash", tool_input: { command: "npm test" }, reason: text });
    expect(typeof denial?.tool_use_id).toBe("string");
    expect(await origins(setup)).toBe(
      "rules present but not in force:\n" +
        `  allow Bash(npm test *)  ${settingsFile}: not in force: this folder is not trusted, and the shared project settings of an untrusted folder cannot allow anything; to apply it, run \`clew trust ${JSON.stringify(setup.dir)}\` once you trust this folder\n`,
    );
  });

  test("a user allow rule under managed allowManagedPermissionRulesOnly: ask an administrator", async () => {
    const managed = tempDirectory("clew-managed-");
    writeFileSync(join(managed, "managed-settings.json"), JSON.stringify({ allowManagedPermissionRulesOnly: true }));
    const setup = { ...project({ "~/settings.json": { permissions: { allow: ["Bash(npm test *)"] } } }), env: { CLEW_MANAGED_SETTINGS_DIR: managed } };
    const { text, denial } = await deniedCall(setup, "npm test");
    expect(text).toContain("The allow rule Bash(npm test *) in ");
    expect(text).toContain("is not in force: managed settings apply only their own permission rules (allowManagedPermissionRulesOnly); to apply it, ask your administrator");
    expect(denial?.reason).toBe(text);
    expect(await origins(setup)).toContain("allow Bash(npm test *)  ~/settings.json: not in force: managed settings apply only their own permission rules");
  });

  test("an allow rule a deny rule overrules: both named", async () => {
    const setup = project({ ".clew/settings.local.json": { permissions: { allow: ["Bash(git *)", "Bash(git push *)"], deny: ["Bash(git push *)"] } } });
    const { text, denial } = await deniedCall(setup, "git push origin main");
    const local = join(setup.dir, ".clew/settings.local.json");
    expect(text).toStartWith(`Permission to use Bash command \`git push origin main\` was denied by the deny rule Bash(git push *) in ${local}`);
    expect(text).toContain(`The allow rule Bash(git *) in ${local} matches it too, but deny rules take precedence over allow rules.`);
    expect(denial?.reason).toBe(text);
    // Bash(git *) still allows other git commands; only Bash(git push *) never can.
    expect(await origins(setup)).toBe(
      "rules present but not in force:\n" +
        `  allow Bash(git push *)  ${local}: not in force: the deny rule Bash(git push *) in ${local} covers everything it allows, and deny rules take precedence\n`,
    );
  });

  test("a settings file that does not parse: -p refuses to start; config --origins lists its allow rules as not in force", async () => {
    const setup = project({});
    mkdirSync(join(setup.dir, ".clew"), { recursive: true });
    const local = join(setup.dir, ".clew/settings.local.json");
    writeFileSync(local, '{ "permissions": { "allow": ["Bash(make *)"], "deny": ["Read(./.env)"], } }\n');
    const run = await runClew(["-p", "hi"], { cwd: setup.dir, configDir: setup.configDir, baseURL: "http://127.0.0.1:9" });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${local}:1:`);
    const config = await runClew(["config", "--origins"], { cwd: setup.dir, configDir: setup.configDir });
    expect(config.code).toBe(1);
    expect(config.stdout).toContain("permissions.deny[0]");
    expect(config.stdout).toContain(`  allow Bash(make *)  ${local}: not in force: its settings file does not parse at line 1, column 73`);
    expect(config.stdout).toContain(`; to apply it, fix ${local}\n`);
  });
});
